package crawllog

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/visits"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// EstimateMetaFile is the record of an estimate output (and its marker).
const EstimateMetaFile = "estimate.json"

// PoissonVerdictKS is the KS distance between a URL's consistent estimate
// of G_U and the exponential of its poisson-mle rate above which the
// verdict is "not Poisson" (docs/methods.md#poisson-verdict).
const PoissonVerdictKS = 0.1

// SkipNoMethod counts the URLs none of whose selected methods their
// observations allow (estimate.json's skipped).
const SkipNoMethod = "no_applicable_method"

// OptionError is an invalid option of EstimateLogs (bad usage rather than
// bad input).
type OptionError struct{ Err error }

func (e *OptionError) Error() string { return e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// EstimateOptions configure EstimateLogs.
type EstimateOptions struct {
	Inputs []string // visit logs ("-": standard input)
	Out    string
	Read   visits.Options
	// Unit is seconds per unit (0: hours); H and XMax in units, 0 per URL
	// (ObservedDefaults).
	Unit       float64
	H, XMax    float64
	Methods    []string
	ConstTol   int64 // seconds (0: DefaultConstTolerance)
	Recover    bool
	RecoverOpt estimator.RecoverOptions
	Top        int // URLs in the tables and figures (0: 10)
	// Curves is what curve each row keeps (estimates.CurvesFull or
	// CurvesCompact; "" is full, the command line's default is compact):
	// compact rows keep estimates.Knots points of their grid. The URL
	// summaries (median age, KS to the Poisson fit) are computed from the
	// whole curves first; the figures draw the curves as stored.
	Curves  estimates.Curves
	Version string
	Log     func(format string, a ...any)

	// Shard estimates only the URLs of one shard (shard.Spec.Owns of
	// generic.PageID(url)) and writes EstimateShardFile beside the
	// estimates, for MergeEstimates; the zero Spec estimates every URL.
	Shard shard.Spec
}

// URLSummary is one URL's line of the estimate report.
type URLSummary struct {
	URL        string  `json:"url"`
	PageID     int64   `json:"page_id"`
	Visits     int     `json:"visits"`
	Detections int     `json:"detections"`
	Delays     string  `json:"delays"` // "constant" or "irregular"
	Delta      float64 `json:"delta,omitempty"`
	Span       float64 `json:"span"`
	Rate       float64 `json:"poisson_mle_rate"` // per unit
	Reference  string  `json:"reference"`        // M2, M4 or M6
	MedianAge  float64 `json:"median_age"`       // smallest x with Ĝ_U(x) ≥ 1/2 (NaN beyond x_max)
	KS         float64 `json:"ks"`               // between the reference and the exponential of Rate
	Verdict    string  `json:"verdict"`
}

// EstimateMeta is estimate.json.
type EstimateMeta struct {
	Tool      string              `json:"tool"`
	Version   string              `json:"version"`
	Created   time.Time           `json:"created"`
	Inputs    []visits.InputStats `json:"inputs"`
	Unit      float64             `json:"unit"`
	UnitName  string              `json:"unit_name"`
	H         float64             `json:"h"`     // 0: per URL
	XMax      float64             `json:"x_max"` // 0: per URL
	ConstTol  int64               `json:"const_tolerance_s"`
	Methods   []string            `json:"methods"`
	Captures  int64               `json:"captures"`
	URLs      int64               `json:"urls"`      // URLs with a capture with content
	Estimated int                 `json:"estimated"` // URLs estimated
	Constant  int                 `json:"constant"`  // of which with constant delays
	Rows      int64               `json:"rows"`
	Skipped   map[string]int64    `json:"skipped,omitempty"`
	Bad       int64               `json:"bad"`
	Verdicts  map[string]int      `json:"verdicts"`
	Threshold float64             `json:"verdict_ks_threshold"`
	ElapsedS  float64             `json:"elapsed_s"`
	Shard     string              `json:"shard,omitempty"`  // "i/N" in the output of one shard (Shard)
	Curves    string              `json:"curves,omitempty"` // "compact" or "full" (EstimateOptions.Curves); absent: full
}

type topURL struct {
	sum URLSummary
	est []estimator.Estimate
	seq int64 // place among the URLs read (MergeEstimates)
}

// EstimateLogs reads visit logs, estimates every URL with every applicable
// method (EstimateObserved) and writes opt.Out atomically:
// estimates.parquet (replay's schema, no truth rows), estimate.json, and
// tables/ and figures/ for `revisit report` (the top URLs by visits,
// their estimated G_U and F_U, the Poisson verdict).
func EstimateLogs(ctx context.Context, opt EstimateOptions) (*EstimateMeta, error) {
	start := time.Now()
	logf := opt.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	unit := opt.Unit
	if unit == 0 {
		unit = transform.Hour
	}
	top := opt.Top
	if top <= 0 {
		top = 10
	}
	methods := estimator.AllMethods
	if len(opt.Methods) > 0 {
		var err error
		if methods, err = estimator.ParseMethods(opt.Methods); err != nil {
			return nil, &OptionError{err}
		}
	}
	for _, v := range []float64{opt.H, opt.XMax} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, &OptionError{fmt.Errorf("--h and --x-max must be > 0 (or 0: per URL), got %g", v)}
		}
	}
	if opt.H > 0 && opt.XMax > 0 && opt.H > opt.XMax {
		return nil, &OptionError{fmt.Errorf("bin width --h %g is larger than --x-max %g", opt.H, opt.XMax)}
	}
	if opt.Recover {
		if err := opt.RecoverOpt.Check(); err != nil {
			return nil, &OptionError{err}
		}
	}
	if opt.Out == "" {
		return nil, &OptionError{errors.New("no output directory (-o)")}
	}
	curves := estimates.CurvesFull
	if opt.Curves != "" {
		var err error
		if curves, err = estimates.ParseCurves(string(opt.Curves)); err != nil {
			return nil, &OptionError{err}
		}
	}
	compact := curves == estimates.CurvesCompact
	out, err := atomicdir.Create(filepath.Clean(opt.Out), EstimateMetaFile, "estimate output")
	if err != nil {
		return nil, err
	}
	defer out.Abort()
	w, err := estimates.NewWriter(filepath.Join(out.Path(), estimates.File))
	if err != nil {
		return nil, fmt.Errorf("estimate output %s: %w", opt.Out, err)
	}
	written := false
	defer func() {
		if !written {
			w.Abort()
		}
	}()
	meta := &EstimateMeta{Tool: "revisit", Version: opt.Version, Unit: unit, UnitName: transform.UnitName(unit),
		H: opt.H, XMax: opt.XMax, ConstTol: opt.ConstTol, Methods: methods, Skipped: map[string]int64{},
		Verdicts: map[string]int{}, Threshold: PoissonVerdictKS, Curves: string(curves)}
	switch {
	case meta.ConstTol == 0:
		meta.ConstTol = estimator.DefaultConstTolerance
	case meta.ConstTol < 0:
		meta.ConstTol = 0 // exact equality
	}
	cfg := estimator.ObservedConfig{Config: estimator.Config{Methods: methods, H: opt.H, XMax: opt.XMax, Recover: opt.Recover, RecoverOpt: opt.RecoverOpt},
		Unit: unit, ConstTol: opt.ConstTol}
	var (
		sums  []URLSummary
		tops  []topURL
		last  = time.Now()
		count int
		sh    = newEstimateShard(opt, top) // nil unless sharded
	)
	stats, err := visits.Read(ctx, opt.Inputs, opt.Read, func(o *visits.Observed) error {
		count++
		if time.Since(last) > 5*time.Second {
			logf("estimate: %d URLs", count)
			last = time.Now()
		}
		seq := int64(count - 1) // the URL's place among all URLs read, in every shard
		id := generic.PageID(o.ID)
		if !opt.Shard.Owns(id) {
			return nil
		}
		est, info, err := estimator.EstimateObserved(ctx, o, cfg)
		var le *estimator.LimitError
		switch {
		case errors.Is(err, estimator.ErrFewVisits):
			meta.Skipped["fewer_than_2_visits"]++
			return nil
		case errors.As(err, &le):
			meta.Skipped[le.Reason]++
			logf("estimate: %s left out: %v", o.ID, le)
			return nil
		case err != nil:
			return fmt.Errorf("URL %s: %w", o.ID, err)
		case len(est) == 0: // none of the methods applies (ages, constant delays)
			meta.Skipped[SkipNoMethod]++
			return nil
		}
		s := summarize(o, id, info, est) // from the whole curves
		if compact {
			estimates.Compact(est, estimates.Knots)
		}
		for i := range est {
			est[i].PageID, est[i].Title = id, o.ID
			if err := w.Write(&est[i]); err != nil {
				return fmt.Errorf("estimate output %s: %w", opt.Out, err)
			}
		}
		meta.Estimated++
		if info.Constant {
			meta.Constant++
		}
		meta.Verdicts[s.Verdict]++
		sums = append(sums, s)
		sh.add(seq, s, len(est))
		tops = keepTop(tops, topURL{s, est, seq}, top)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sh.done(count, meta.Skipped, stats.Skipped)
	meta.Inputs, meta.Captures, meta.URLs, meta.Bad = stats.Inputs, stats.Captures, stats.URLs, stats.Bad
	for k, v := range stats.Skipped {
		meta.Skipped[k] += v
	}
	if meta.Estimated == 0 && sh == nil { // a shard may own no URL: the merge checks
		return nil, noURLError(len(opt.Inputs), meta)
	}
	if err := w.Close(); err != nil {
		written = true
		return nil, fmt.Errorf("estimate output %s: %w", opt.Out, err)
	}
	written = true
	meta.Rows = w.Rows()
	sort.SliceStable(tops, func(i, j int) bool { return tops[i].sum.Visits > tops[j].sum.Visits })
	b := estimateBundle(meta, sums, tops)
	if err := b.Write(out.Path()); err != nil {
		return nil, fmt.Errorf("estimate output %s: %w", opt.Out, err)
	}
	meta.Created = time.Now().UTC()
	meta.ElapsedS = time.Since(start).Seconds()
	meta.Shard = opt.Shard.String()
	if err := sh.write(out.Path()); err != nil {
		return nil, fmt.Errorf("estimate output %s: %w", opt.Out, err)
	}
	if err := estimates.WriteJSON(out.Path(), EstimateMetaFile, meta, true); err != nil {
		return nil, fmt.Errorf("estimate output %s: %w", opt.Out, err)
	}
	if err := out.Commit(); err != nil {
		return nil, err
	}
	logf("estimate: %d URLs estimated (%d with constant delays), %d rows in %.1fs → %s", meta.Estimated, meta.Constant, meta.Rows, meta.ElapsedS, opt.Out)
	return meta, nil
}

// referenceMethod is the consistent estimator of G_U a URL's
// observations allow (docs/methods.md#recommendation): M2 with ages, M4
// for constant delays, M6 otherwise.
func referenceMethod(info estimator.ObservedInfo) string {
	switch {
	case info.Ages:
		return estimator.MethodM2
	case info.Constant:
		return estimator.MethodM4
	}
	return estimator.MethodM6
}

// findRow is the row of method and kind in est (nil if absent).
func findRow(est []estimator.Estimate, method, kind string) *estimator.Estimate {
	for i := range est {
		if est[i].Method == method && est[i].Kind == kind {
			return &est[i]
		}
	}
	return nil
}

// summarize is a URL's report line with its Poisson verdict: the KS
// distance, on the URL's grid, between the reference estimate of G_U and
// the exponential 1 − e^{−λ̂x} of the poisson-mle rate; "Poisson" when
// it is at most PoissonVerdictKS, "not Poisson" above, "undecided" when
// either is undefined.
func summarize(o *visits.Observed, id int64, info estimator.ObservedInfo, est []estimator.Estimate) URLSummary {
	s := URLSummary{URL: o.ID, PageID: id, Visits: info.Visits, Detections: info.Detections, Delays: "irregular",
		Span: info.Span, Rate: math.NaN(), MedianAge: math.NaN(), KS: math.NaN(), Verdict: "undecided"}
	if info.Constant {
		s.Delays, s.Delta = "constant", info.Delta
	}
	s.Reference = referenceMethod(info)
	ref := findRow(est, s.Reference, estimator.KindG)
	pm := findRow(est, estimator.MethodPoissonMLE, estimator.KindG)
	if pm != nil {
		s.Rate = pm.Rate
	}
	if ref != nil {
		for i, p := range ref.CDF.P {
			if p >= 0.5 {
				s.MedianAge = ref.CDF.X[i]
				break
			}
		}
		if pm != nil {
			s.KS = series.KS(ref.CDF.P, pm.CDF.P)
		}
	}
	switch {
	case math.IsNaN(s.KS):
	case s.KS <= PoissonVerdictKS:
		s.Verdict = "Poisson"
	default:
		s.Verdict = "not Poisson"
	}
	return s
}

// estimateBundle is the tables and figures of an estimate output.
func estimateBundle(m *EstimateMeta, sums []URLSummary, tops []topURL) *tables.Bundle {
	u := m.UnitName
	var names []string
	for _, in := range m.Inputs {
		names = append(names, filepath.Base(in.Name))
	}
	src := fmt.Sprintf("visit logs %v; unit %s; h %s, x_max %s; constant delays within %d s", names, u,
		perURL(m.H), perURL(m.XMax), m.ConstTol)
	var b tables.Bundle
	// the top URLs by visits
	sort.SliceStable(sums, func(i, j int) bool { return sums[i].Visits > sums[j].Visits })
	n := min(len(sums), max(len(tops), 1))
	t := tables.Table{ID: "estimate_urls", Title: fmt.Sprintf("Observed URLs: the %d with the most visits", n), Source: src, Section: tables.SectionTopPages, Order: 1,
		Notes: []string{
			"No ground truth: what the crawler saw. G_U is estimated by M2 with Last-Modified, M4 for constant delays, M6 otherwise (docs/methods.md#observed).",
			fmt.Sprintf("Verdict: KS distance between that estimate and the exponential of the poisson-mle rate; Poisson when ≤ %.2g (docs/methods.md#poisson-verdict).", PoissonVerdictKS),
		},
		Columns: []tables.Column{{Name: "URL", Kind: tables.String}, {Name: "visits", Kind: tables.Int}, {Name: "changes seen", Kind: tables.Int},
			{Name: "delays", Kind: tables.String}, {Name: "Δ", Unit: u, Kind: tables.Float}, {Name: "span", Unit: u, Kind: tables.Float},
			{Name: "poisson-mle λ̂", Unit: "1/" + u, Kind: tables.Float}, {Name: "G_U by", Kind: tables.String},
			{Name: "median age", Unit: u, Kind: tables.Float, Doc: "smallest grid x with Ĝ_U(x) ≥ 1/2"},
			{Name: "KS to exponential", Kind: tables.Percent}, {Name: "verdict", Kind: tables.String}},
	}
	for _, s := range sums[:n] {
		d := math.NaN()
		if s.Delays == "constant" {
			d = s.Delta
		}
		t.Rows = append(t.Rows, []any{s.URL, tables.I(s.Visits), tables.I(s.Detections), s.Delays, tables.F(d), tables.F(s.Span),
			tables.F(s.Rate), s.Reference, tables.F(s.MedianAge), tables.F(s.KS), s.Verdict})
	}
	b.Tables = append(b.Tables, t)
	v := tables.Table{ID: "estimate_verdict", Title: "Poisson verdict over the observed URLs", Source: src, Section: tables.SectionScreen, Order: 10,
		Notes:   []string{fmt.Sprintf("A URL is Poisson when the KS distance between its estimated G_U and the exponential of its poisson-mle rate is at most %.2g; undecided when either is undefined (e.g. every visit saw a change).", PoissonVerdictKS)},
		Columns: []tables.Column{{Name: "verdict", Kind: tables.String}, {Name: "URLs", Kind: tables.Int}, {Name: "share", Kind: tables.Percent}}}
	for _, k := range []string{"Poisson", "not Poisson", "undecided"} {
		v.Rows = append(v.Rows, []any{k, tables.I(m.Verdicts[k]), tables.F(float64(m.Verdicts[k]) / float64(max(m.Estimated, 1)))})
	}
	b.Tables = append(b.Tables, v)
	for i, tu := range tops[:min(3, len(tops))] {
		for _, kind := range []string{estimator.KindG, estimator.KindF} {
			f := tables.Figure{ID: fmt.Sprintf("estimate_%s_%d", kind, i+1), Section: tables.SectionEstimates, Order: 10 + 2*i, Source: src,
				XLabel: fmt.Sprintf("x (%s)", u), YLabel: kind + "_U(x)"}
			if kind == estimator.KindG {
				f.Title = fmt.Sprintf("Estimated G_U of %s (%d visits)", tu.sum.URL, tu.sum.Visits)
			} else {
				f.Title = fmt.Sprintf("Recovered F_U of %s (%d visits)", tu.sum.URL, tu.sum.Visits)
			}
			for _, meth := range []string{tu.sum.Reference, estimator.MethodGM4, estimator.MethodPoissonMLE} {
				r := findRow(tu.est, meth, kind)
				if r == nil {
					continue
				}
				c := tables.Curve{Name: meth, X: r.CDF.X, Y: r.CDF.P, Dashed: meth == estimator.MethodPoissonMLE}
				if meth == estimator.MethodPoissonMLE {
					c.Name = fmt.Sprintf("poisson-mle (λ̂ = %.3g/%s)", r.Rate, u)
				}
				f.Curves = append(f.Curves, c)
			}
			if len(f.Curves) > 1 || (kind == estimator.KindG && len(f.Curves) > 0) {
				b.Figures = append(b.Figures, f)
			}
		}
	}
	return &b
}

func perURL(v float64) string {
	if v == 0 {
		return "per URL"
	}
	return fmt.Sprintf("%g", v)
}

// skippedText lists skip counts for people ("; skipped: 3 fewer than 2
// visits, 1 no applicable method"), in a stable order; "" when none.
// noURLError is the error of an estimate of inputs inputs that estimated
// no URL (m.Estimated = 0), from its counts (EstimateLogs, MergeEstimates).
func noURLError(inputs int, m *EstimateMeta) error {
	why := "a URL needs at least 2 visits with content"
	if m.Skipped[SkipNoMethod] > 0 {
		var ages []string // from the registry, as ConstantOnly
		for _, r := range (estimator.Registry{}).Methods() {
			if r.Observes == estimator.Age {
				ages = append(ages, r.Name)
			}
		}
		why += fmt.Sprintf(", and one of --methods %v that its observations allow (%s need Last-Modified; %s constant delays)",
			m.Methods, strings.Join(ages, ", "), strings.Join(estimator.Registry{}.ConstantOnly(), ", "))
	}
	return fmt.Errorf("no URL to estimate in %s (%s, %s%s): %s", human.Count(int64(inputs), "input", "inputs"),
		human.Count(m.Captures, "capture", "captures"), human.Count(m.URLs, "URL", "URLs"), skippedText(m.Skipped), why)
}

func skippedText(m map[string]int64) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if m[k] > 0 {
			parts = append(parts, human.Comma(m[k])+" "+strings.ReplaceAll(k, "_", " "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; skipped: " + strings.Join(parts, ", ")
}
