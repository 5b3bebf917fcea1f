package estimator

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// Estimation from observed visits (docs/methods.md#observed): what a real
// crawler saw of a URL — visit times s_j in whole seconds and, per visit,
// either its Last-Modified time (the age) or the change bit Q_{j−1,j} —
// goes through the same estimators as a replay. `revisit estimate` feeds
// it visit logs; `revisit replay --write-observations` feeds it what its
// virtual crawlers saw, as written, so that both give the same estimates.

// DefaultConstTolerance is the largest spread (max − min) of the delays
// between visits, in seconds, that still counts as constant delays: the
// resolution of the timestamps (a crawler revisiting every Δ seconds at
// fractional times logs whole seconds, ⌊s_j⌋).
const DefaultConstTolerance = 1

// MaxObservedVisits bounds the visits of one URL (or one page × sampler
// written by replay --write-observations) held in memory: 24 bytes each.
const MaxObservedVisits = 20_000_000

// The sampler labels of observed captures (SamplerSpec): ObservedIrregular,
// or ObservedPrefix and the const:Δ sampler of constant delays
// (ObservedConst).
const (
	ObservedIrregular = "observed irregular"
	ObservedPrefix    = "observed "
)

// CheckSamplerLabel refuses a sampler label (estimates.parquet's sampler
// column) that no estimating stage writes (ParseSamplerSpec): a sampler
// spec (replay), or the label of observed captures (estimate).
func CheckSamplerLabel(label string) error {
	_, err := ParseSamplerSpec(label)
	return err
}

// ObservedConfig configures EstimateObserved.
type ObservedConfig struct {
	// Config holds the methods (empty: all that apply), and H and XMax in
	// units: 0 chooses them per URL (ObservedDefaults).
	Config
	Unit     float64 // seconds per unit (transform.ParseUnit); 0: hours
	ConstTol int64   // DefaultConstTolerance when 0; < 0: exact equality
	// Sampler labels the rows (estimates.parquet's sampler column); ""
	// gives "observed const:Δ" or "observed irregular".
	Sampler  string
	MaxPairs int64 // M6's pair limit (0: DefaultMaxPairs)
	// CountEmpty counts the grid's bins without a pair of visits
	// (ObservedInfo.EmptyBins) when M6 did not run and the delays are
	// irregular (EmptyBins: up to 5·10⁷ steps); with M6 its W gives them
	// for free.
	CountEmpty bool

	// methods and methodsNoAge are Methods parsed once by Prepare (for
	// URLs with ages, and without: those need Last-Modified left out).
	methods, methodsNoAge []string
}

// Prepare parses cfg.Methods once for many calls of EstimateObserved
// (which otherwise parses them for every URL); cfg's Methods and Registry
// must not change after. EstimateObserved only reads a prepared config:
// goroutines may share it.
func (cfg *ObservedConfig) Prepare() error {
	c := cfg.Config
	if len(c.Methods) == 0 {
		c.Methods = c.Registry.Names()
	}
	ms, err := c.Registry.Parse(c.Methods)
	if err != nil {
		return err
	}
	cfg.methods = ms
	cfg.methodsNoAge = slices.DeleteFunc(slices.Clone(ms), func(m string) bool { d, _ := c.Registry.Lookup(m); return d.Observes == Age })
	return nil
}

// ObservedInfo describes how a URL's observations were estimated.
type ObservedInfo struct {
	Visits     int
	Detections int     // visits with Q_{j−1,j} = 1 (the first only when it detected the creation)
	Constant   bool    // all delays equal within the tolerance
	Delta      float64 // constant delays: Δ = (s_m − s_1)/(m − 1), in units
	Step       float64 // the grid step: Δ, or h
	H, XMax    float64 // in units, given or chosen per URL
	Span       float64 // s_m − s_1, in units
	Ages       bool
	Sampler    string
	// Bins is N, the bins y_1 … y_N of the grid, and EmptyBins those
	// without a pair of visits, W(y_n) = 0 (emptyBinsOf).
	Bins, EmptyBins int
}

// ErrFewVisits is a URL seen fewer than twice.
var ErrFewVisits = errors.New("fewer than 2 visits")

// EstimateObserved runs every applicable selected estimator on what a
// crawler saw of one URL: M1, M2 and age-mle only when o has ages; M3,
// M4, M5, cho and matloff only when the delays are constant (every delay
// within cfg.ConstTol seconds of the others, the delay s_1 − Prev included
// when the first visit detects the creation; at least 3 visits), with
// Δ = (s_m − s_1)/(m − 1); G-M4, M6, naive and poisson-mle always. Visit
// times are seconds from the previous visit before the first (o.Prev) if
// known, else from the first visit, divided by cfg.Unit. The first visit
// detects the page's creation only when o says so (HasPrev and
// FirstChanged, Q_{0,1} = 1); otherwise it is a reference (Obs.Ref).
// M6's update cycles are the runs of visits between detections (Q_ij = 1
// exactly when some Q_{k−1,k} = 1, i < k ≤ j). A *LimitError is a URL
// whose grid or M6 pairs exceed the limits.
func EstimateObserved(ctx context.Context, o *series.Observed, cfg ObservedConfig) ([]Estimate, ObservedInfo, error) {
	var info ObservedInfo
	if err := o.Check(); err != nil {
		return nil, info, err
	}
	m := len(o.Visits)
	info.Visits, info.Ages = m, o.Ages
	if m < 2 {
		return nil, info, ErrFewVisits
	}
	if m > MaxObservedVisits {
		return nil, info, &LimitError{SkipMaxVisits, float64(m), MaxObservedVisits}
	}
	unit := cfg.Unit
	if unit == 0 {
		unit = transform.Hour
	}
	tol := cfg.ConstTol
	if tol == 0 {
		tol = DefaultConstTolerance
	}
	v := o.Visits
	minGap, maxGap := int64(math.MaxInt64), int64(math.MinInt64)
	for j := 1; j < m; j++ {
		g := v[j].T - v[j-1].T
		minGap, maxGap = min(minGap, g), max(maxGap, g)
	}
	if o.Q(0) { // the first visit compares with the previous one: its delay is one of them
		g := v[0].T - o.Prev
		minGap, maxGap = min(minGap, g), max(maxGap, g)
	}
	info.Constant = m >= 3 && maxGap-minGap <= max(tol, 0)
	spanS := v[m-1].T - v[0].T
	info.Span = float64(spanS) / unit
	if info.Constant {
		info.Delta = float64(spanS) / float64(m-1) / unit
	}
	t0 := v[0].T
	if o.HasPrev {
		t0 = o.Prev
	}
	S := func(j int) float64 { return float64(v[j].T-t0) / unit }
	for j := range v {
		if o.Q(j) {
			info.Detections++
		}
	}

	if cfg.methods == nil { // not prepared: parse them for this URL
		if err := cfg.Prepare(); err != nil {
			return nil, info, err
		}
	}
	c := cfg.Config
	c.Methods = cfg.methods
	if c.UnitName == "" {
		c.UnitName = transform.UnitName(unit)
	}
	if !o.Ages { // leave out the methods that need Last-Modified times
		c.Methods = cfg.methodsNoAge
	}
	var t []int64 // the visit times, for the grid's choices and its empty bins
	if c.H == 0 || c.XMax == 0 {
		// the quantiles' samples one after the other in scratch (dropped
		// before the estimators run: a URL of millions of visits holds
		// 8 B each)
		t = visitTimes(o)
		scratch := make([]int64, len(t))
		h, xmax := observedDefaults(o, t, scratch, unit, info)
		if c.XMax == 0 {
			c.XMax = xmax
		} else if c.H == 0 && !info.Constant { // h for the x_max given
			h, _, _ = observedGrid(t, scratch, unit, c.XMax)
		}
		if c.H == 0 {
			c.H = min(h, c.XMax)
		}
	}
	if info.Constant && c.H > c.XMax {
		c.H = c.XMax // unused for constant delays
	}
	info.H, info.XMax = c.H, c.XMax
	label := cfg.Sampler
	if label == "" {
		label = ObservedIrregular
		if info.Constant {
			label = ObservedConst(info.Delta).String()
		}
	}
	info.Sampler = label
	s := Sampler{Spec: label, Rate: float64(m-1) / info.Span, Delta: info.Delta}
	info.Step = s.Step(c.H)
	if len(c.Methods) == 0 {
		return nil, info, nil
	}
	if err := c.checkGrid(); err != nil { // the methods are canonical (Prepare)
		return nil, info, err
	}
	if n := c.XMax / info.Step; !(n <= MaxGrid) {
		return nil, info, &LimitError{SkipMaxGrid, n, int64(MaxGrid)}
	}
	maxPairs := cfg.MaxPairs
	if maxPairs == 0 {
		maxPairs = DefaultMaxPairs
	}
	if ctx == nil {
		ctx = context.Background()
	}
	gd := NewGuard(ctx, math.MaxInt64/4, maxPairs)
	if le := EstimateWork(s, S(m-1), &c).Check(math.MaxInt64, maxPairs); le != nil {
		return nil, info, le
	}
	pr := NewPath(s, &c, S(m-1), gd)
	ob := new(Obs)
	var cycle int64
	for j := range v {
		if j%PollEvery == PollEvery-1 {
			if err := gd.Poll(j); err != nil {
				return nil, info, err
			}
		}
		q := j > 0 && o.Q(j)
		if q {
			cycle++
		}
		*ob = Obs{J: j, S: S(j), Cycle: cycle, Q: q}
		if o.Ages {
			ob.A = float64(v[j].T-v[j].LastMod) / unit
		}
		if j == 0 {
			ob.Prev = 0 // t0 = o.Prev when known
			ob.Ref = !o.Q(0)
			if !o.HasPrev {
				ob.Prev = ob.S
			}
		} else {
			ob.Prev = S(j - 1)
		}
		pr.Observe(ob)
	}
	res, err := pr.Finish(m)
	if err != nil {
		return nil, info, err
	}
	info.Bins, info.EmptyBins = emptyBinsOf(o, t, res.Est, info, unit, cfg.CountEmpty)
	return res.Est, info, nil
}

// ObservedDefaults are the per-URL h and x_max (in units) of a URL seen
// without ground truth (docs/methods.md#observed-grid): x_max is the 0.99
// quantile of the ages (with Last-Modified) or else of the times since the
// visit before the last detected change, s_j − s*_j (G-M4's samples, an
// upper bound of the age), the whole span when there is none; without
// ages at most the SpanQuantile quantile of the pair spans s_j − s_i (no
// estimator but M2 sees beyond the visits' spans). h is chosen from the
// delays between the captures so that most bins of M6 within those spans
// hold a pair (observedGrid: from the DelayQuantile quantile of the
// delays, never below the log's time resolution, at most ObservedMaxBins
// bins, coarsened until at most MaxEmptyShare of the bins are empty). For
// constant delays the grid step is Δ and h is not used: h = x_max.
func ObservedDefaults(o *series.Observed, unit float64, info ObservedInfo) (h, xmax float64) {
	return observedDefaults(o, visitTimes(o), make([]int64, len(o.Visits)), unit, info)
}

// observedDefaults is ObservedDefaults with o's visit times t (visitTimes)
// and scratch space of len(t) for the quantiles.
func observedDefaults(o *series.Observed, t, scratch []int64, unit float64, info ObservedInfo) (h, xmax float64) {
	v := o.Visits
	// the samples in seconds: their quantile in units is that in seconds
	// divided by unit (a non-decreasing map)
	samples := scratch[:0]
	if o.Ages {
		for _, x := range v {
			samples = append(samples, x.T-x.LastMod)
		}
	} else {
		star, seen := int64(0), false
		if o.Q(0) {
			star, seen = o.Prev, true
		}
		for j := range v {
			if j > 0 && o.Q(j) {
				star, seen = v[j-1].T, true
			}
			if seen {
				samples = append(samples, v[j].T-star)
			}
		}
	}
	span := info.Span
	if o.HasPrev {
		span = float64(v[len(v)-1].T-o.Prev) / unit
	}
	xmax = span
	if len(samples) > 0 {
		xmax = float64(nthInt64(samples, min(len(samples)-1, int(math.Ceil(0.99*float64(len(samples))))-1))) / unit
	}
	if !(xmax > 0) {
		xmax = max(span, 1/unit)
	}
	reach := xmax // the part of the grid pairs of visits can reach
	if q := float64(pairSpanQuantile(t, SpanQuantile)) / unit; q > 0 {
		reach = min(xmax, q)
	}
	if !o.Ages { // M2 sees ages beyond the spans; the other estimators do not
		xmax = reach
	}
	if info.Constant {
		return xmax, xmax
	}
	h, _, _ = observedGrid(t, scratch, unit, reach)
	return max(h, xmax/ObservedMaxBins), xmax
}

// emptyBinsOf are the bins n = 1 … N of a URL's grid and those without a
// pair of visits in them: M6's W(y_n) = 0 when M6 ran (its Evidence);
// else, for constant delays, the lags L ≥ m (W(L) = m − L); else
// EmptyBins on the visit times t (visitTimes; nil: made here) (an upper
// bound if its work ran out) when count, else 0 bins.
func emptyBinsOf(o *series.Observed, t []int64, est []Estimate, info ObservedInfo, unit float64, count bool) (bins, empty int) {
	for i := range est {
		if e := est[i].Evidence; est[i].Method == MethodM6 && est[i].Kind == KindG && len(e) > 1 {
			for _, w := range e[1:] {
				if w == 0 {
					empty++
				}
			}
			return len(e) - 1, empty
		}
	}
	bins = len(Grid(info.Step, info.XMax)) - 1
	if info.Constant {
		return bins, max(0, bins-(info.Visits-1))
	}
	if !count {
		return 0, 0
	}
	if t == nil {
		t = visitTimes(o)
	}
	work := int64(gridWork)
	return bins, EmptyBins(t, info.Step*unit, bins, &work)
}
