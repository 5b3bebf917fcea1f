package replay

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// Config selects the estimators and their grid for one crawl.
type Config struct {
	Methods []string // from ParseMethods; empty means all
	// H is the bin width h of the grid y_n = nh for random delays (M6's
	// bins); constant delays use the grid x_n = nΔ instead.
	H float64
	// XMax is the largest grid point of interest x_max (in units).
	XMax float64
	// Recover adds F_U recovered from M2, M4, M5 and M6 (SPEC §4.2).
	Recover    bool
	RecoverOpt RecoverOptions
	// Registry holds the estimators Methods names; the zero value is
	// revisit's own (M1 … M6, G-M4, the Poisson baselines).
	Registry Registry
}

// Check validates the configuration and puts the method names in canonical
// form and output order.
func (c *Config) Check() error {
	if !(c.H > 0) || math.IsInf(c.H, 0) {
		return fmt.Errorf("bin width h must be > 0, got %g", c.H)
	}
	if !(c.XMax > 0) || math.IsInf(c.XMax, 0) {
		return fmt.Errorf("x_max must be > 0, got %g", c.XMax)
	}
	if c.H > c.XMax {
		return fmt.Errorf("bin width h = %g is larger than x_max = %g", c.H, c.XMax)
	}
	if len(c.Methods) == 0 {
		c.Methods = c.Registry.Names()
	}
	ms, err := c.Registry.Parse(c.Methods)
	if err != nil {
		return err
	}
	c.Methods = ms // canonical names, output order
	return nil
}

// Estimate is one estimated (or true) distribution of one page seen by one
// sampler: a row of estimates.parquet.
type Estimate struct {
	PageID  int64
	Title   string
	Sampler string     // the sampler spec as given, e.g. "exp:2"
	Method  string     // "truth" or a registered method's name (Registry)
	Kind    string     // "G" (G_U) or "F" (F_U)
	CDF     series.CDF // on the sampler's grid; Samples = samples (M6: pairs) used
	Rate    float64    // Poisson baselines: λ̂ per unit; F recovery: 1/E[U]; NaN otherwise
	H       float64    // bin width: M6's h (Δ for constant delays), F recovery's h; 0 otherwise
	Note    string     // why a value is undefined, M1's kept fraction, …
	Visits  int        // visits the crawler made in the window
	// Constant says the sampler has constant delays Δ (its grid is
	// x_n = nΔ), so readers need not parse the sampler spec.
	Constant bool
}

// pathResult is everything one crawl produced.
type pathResult struct {
	est    []Estimate
	visits int
	p1     float64 // M1's kept fraction (NaN if M1 not run)
	meanD3 float64 // mean of M3's samples (NaN if M3 not run)
}

// replayPath runs one crawl and every selected applicable estimator. gd
// (nil: none) stops it early with gd's reason: a cancelled context or a
// *LimitError.
func replayPath(up updateSource, vis visitSource, end float64, s Sampler, cfg *Config, gd *guard) (pathResult, error) {
	pr := newPathRun(s, cfg, end, gd)
	visits, err := crawl(up, vis, end, pr.obs, gd)
	if err != nil {
		return pathResult{p1: math.NaN(), meanD3: math.NaN(), visits: visits}, err
	}
	return pr.finish(visits)
}

// pathRun is the estimators of one crawl: fed Obs in visit order (by
// crawl, or by EstimateObserved from a visit log), then finished.
type pathRun struct {
	cfg *Config
	c   *Crawl
	obs []observer
	est []Estimator // one per method in run
	run []Method    // the selected methods applicable to the sampler
}

// newPathRun sets up every selected applicable estimator of sampler s on
// a window ending at end (in units), from cfg.Registry.
func newPathRun(s Sampler, cfg *Config, end float64, gd *guard) *pathRun {
	g := newGrid(s.Step(cfg.H), cfg.XMax)
	c := &Crawl{Sampler: s, X: g.x, Step: g.step, End: end, g: g, gd: gd}
	pr := &pathRun{cfg: cfg, c: c}
	for _, name := range cfg.Methods {
		m, ok := cfg.Registry.Lookup(name)
		if !ok || !cfg.Registry.Applicable(name, s) {
			continue
		}
		pr.run = append(pr.run, m)
		pr.est = append(pr.est, m.New(c))
	}
	pr.obs = c.obs
	return pr
}

// finish computes the estimates after the last of visits observations.
func (pr *pathRun) finish(visits int) (pathResult, error) {
	s, cfg, c := pr.c.Sampler, pr.cfg, pr.c
	c.visits = visits
	res := pathResult{p1: math.NaN(), meanD3: math.NaN(), visits: visits}
	if e, ok := c.shared[MethodM1].(*m1); ok {
		res.p1 = e.p()
	}
	if e, ok := c.shared["cmp"].(*cmpConst); ok && slices.Contains(cfg.Methods, MethodM3) {
		res.meanD3 = e.meanD3()
	}
	add := func(method, kind string, c series.CDF, rate, h float64, note string) {
		c.Method = method
		if note == "" && c.Samples == 0 && rate != rate && len(c.P) > 0 && c.P[0] != c.P[0] {
			note = "no samples"
		}
		res.est = append(res.est, Estimate{Sampler: s.Spec, Method: method, Kind: kind, CDF: c,
			Rate: rate, H: h, Note: note, Visits: res.visits, Constant: s.Constant()})
	}
	nan := math.NaN()
	for i, m := range pr.run {
		r, err := pr.est[i].Estimate()
		if err != nil {
			return res, err
		}
		if m.Class == Baseline {
			for _, kind := range []string{KindG, KindF} {
				add(m.Name, kind, ExpCDF(m.Name, r.Rate, c.X), r.Rate, 0, r.Note)
			}
			continue
		}
		add(m.Name, KindG, r.CDF, nan, r.H, r.Note)
		if cfg.Recover && m.Recoverable {
			recover := RecoverF
			if r.BinMeans {
				recover = recoverMidpoints // bins hold means over (y_n − h, y_n]
			}
			rec, err := recover(r.CDF, cfg.RecoverOpt)
			if err != nil {
				p := make([]float64, len(c.X))
				for i := range p {
					p[i] = nan
				}
				add(m.Name, KindF, series.CDF{X: c.X, P: p, Samples: r.CDF.Samples}, nan, rec.H, err.Error())
				continue
			}
			add(m.Name, KindF, rec.F, 1/rec.MeanU, rec.H, fmt.Sprintf("E[U] = %.6g", rec.MeanU))
		}
	}
	return res, nil
}

// ErrTooShort means a page has fewer than two updates: no interval, no
// window to crawl.
var ErrTooShort = errors.New("fewer than 2 updates: no interval to observe")

// ReplayTimes crawls one sample path given by its update times t (in units,
// ascending, the window is [t_0, t_last]) with sampler s, drawing the visits
// from r, and returns every selected estimate followed by the truth rows
// (Method "truth", Kind "G" = G_U and "F" = F_U of the path on the same grid).
func ReplayTimes(t []float64, s Sampler, r *rand.Rand, cfg Config) ([]Estimate, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if len(t) < 2 {
		return nil, ErrTooShort
	}
	if t[0] != 0 {
		return nil, fmt.Errorf("update times must start at 0 (use transform.Times), got %g", t[0])
	}
	res, err := replayPath(&sliceUpdates{t: t}, newVisitGen(s, r), t[len(t)-1], s, &cfg, nil)
	if err != nil {
		return nil, err
	}
	return append(res.est, truthRows(t, s, &cfg, res.visits)...), nil
}

// ReplayVisits is ReplayTimes with given visit times (ascending, inside
// the window) instead of drawn ones; tests and hand-worked examples use it.
// The crawler's virtual visit before the first (G-M4's s*_1) is s_1 − Δ
// for constant delays and s_1 − 1/λ for random ones.
func ReplayVisits(t, visits []float64, s Sampler, cfg Config) ([]Estimate, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if len(t) < 2 {
		return nil, ErrTooShort
	}
	if !slices.IsSorted(visits) {
		return nil, errors.New("visit times must be ascending")
	}
	if s.Constant() {
		for j, v := range visits {
			if want := visits[0] + float64(j)*s.Delta; math.Abs(v-want) > 1e-9*max(1, math.Abs(v)) {
				return nil, fmt.Errorf("sampler %s: visit %d at %g is not s_1 + jΔ = %g", s.Spec, j, v, want)
			}
		}
	}
	// The virtual visit before the first: s_1 − Δ, or s_1 − 1/λ (the mean
	// delay) for random delays, whose S_0 is not given.
	var prev0 float64
	if len(visits) > 0 {
		prev0 = visits[0] - 1/s.Rate
	}
	res, err := replayPath(&sliceUpdates{t: t}, &sliceVisits{v: visits, prev0: prev0}, t[len(t)-1], s, &cfg, nil)
	if err != nil {
		return nil, err
	}
	return append(res.est, truthRows(t, s, &cfg, res.visits)...), nil
}

// truthRows are G_U and F_U of the path's intervals on the sampler's grid.
func truthRows(t []float64, s Sampler, cfg *Config, visits int) []Estimate {
	u := make([]float64, len(t)-1)
	for i := range u {
		u[i] = t[i+1] - t[i]
	}
	g := newGrid(s.Step(cfg.H), cfg.XMax)
	return truthFromIntervals(u, g.x, s, visits)
}

func truthFromIntervals(u, x []float64, s Sampler, visits int) []Estimate {
	nan := math.NaN()
	c := s.Constant()
	return []Estimate{
		{Sampler: s.Spec, Method: MethodTruth, Kind: KindG, CDF: transform.AgeCDF(u, x), Rate: nan, Visits: visits, Constant: c},
		{Sampler: s.Spec, Method: MethodTruth, Kind: KindF, CDF: transform.IntervalCDF(u, x), Rate: nan, Visits: visits, Constant: c},
	}
}
