package estimator

import (
	"fmt"
	"math"
	"slices"

	"github.com/revisit-dev/revisit/series"
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
	// UnitName names the unit of the times (h, d, …): notes that state a
	// duration say it ("E[U] = 8.345 h"). EstimateObserved takes the name
	// of ObservedConfig.Unit when it is empty.
	UnitName string
	// Registry holds the estimators Methods names; the zero value is
	// revisit's own (M1 … M6, G-M4, the Poisson baselines).
	Registry Registry
}

// Check validates the configuration and puts the method names in canonical
// form and output order.
func (c *Config) Check() error {
	if err := c.checkGrid(); err != nil {
		return err
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

// checkGrid validates h and x_max.
func (c *Config) checkGrid() error {
	if !(c.H > 0) || math.IsInf(c.H, 0) {
		return fmt.Errorf("bin width h must be > 0, got %g", c.H)
	}
	if !(c.XMax > 0) || math.IsInf(c.XMax, 0) {
		return fmt.Errorf("x_max must be > 0, got %g", c.XMax)
	}
	if c.H > c.XMax {
		return fmt.Errorf("bin width h = %g is larger than x_max = %g", c.H, c.XMax)
	}
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
	// BinMeans and Evidence are the Result's (in memory only, not in
	// estimates.parquet): what Monotone needs to project the row and to
	// recover F_U from the projection.
	BinMeans bool
	Evidence []int64
	// Err is the row's error against the truth (StoreErrors), computed
	// at full resolution before the curve was compacted; NoError for
	// truth rows and rows without a truth; nil when not computed (crawl
	// logs have no truth; files written before errors were stored).
	Err *Error
	// ErrMean is the row's error on the second range x ≤ MeanRange·E[U]
	// (StoreErrors), NoError or nil as Err.
	ErrMean *Error
	// Seed is the index r of the replay's independent seeds (0 … R−1,
	// replay's --seeds R) whose crawl made the row; 0 with one seed and
	// in files written before seeds.
	Seed int
	// Compact says CDF is the compact curve (estimates.Compact: a few
	// knots of the full grid), not the full-resolution one.
	Compact bool
}

// PathResult is everything one crawl produced.
type PathResult struct {
	Est    []Estimate
	Visits int
	P1     float64 // M1's kept fraction (NaN if M1 not run)
	MeanD3 float64 // mean of M3's samples (NaN if M3 not run)
}

// Path is the estimators of one crawl of one page: fed Obs in visit order
// (Observe: by replay's virtual crawler, or by EstimateObserved from a
// visit log), then finished (Finish).
type Path struct {
	cfg *Config
	c   *Crawl
	obs []observer
	est []Estimator // one per method in run
	run []Method    // the selected methods applicable to the sampler
}

// NewPath sets up every selected applicable estimator of sampler s on a
// window ending at end (in units), from cfg.Registry (cfg checked by
// Config.Check). gd (nil: none) stops M6's pairing early with its reason.
func NewPath(s Sampler, cfg *Config, end float64, gd *Guard) *Path {
	g := newGrid(s.Step(cfg.H), cfg.XMax)
	c := &Crawl{Sampler: s, X: g.x, Step: g.step, End: end, UnitName: cfg.UnitName, g: g, gd: gd}
	pr := &Path{cfg: cfg, c: c}
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

// Observe passes the observation of one visit to every estimator.
func (pr *Path) Observe(o *Obs) {
	for _, e := range pr.obs {
		e.add(o)
	}
}

// Finish computes the estimates after the last of visits observations.
func (pr *Path) Finish(visits int) (PathResult, error) {
	s, cfg, c := pr.c.Sampler, pr.cfg, pr.c
	c.visits = visits
	res := PathResult{P1: math.NaN(), MeanD3: math.NaN(), Visits: visits, Est: make([]Estimate, 0, 2*len(pr.run))}
	if e, ok := c.shared[MethodM1].(*m1); ok {
		res.P1 = e.p()
	}
	if e, ok := c.shared["cmp"].(*cmpConst); ok && slices.Contains(cfg.Methods, MethodM3) {
		res.MeanD3 = e.meanD3()
	}
	add := func(method, kind string, c series.CDF, rate, h float64, note string) {
		c.Method = method
		if note == "" && c.Samples == 0 && rate != rate && len(c.P) > 0 && c.P[0] != c.P[0] {
			note = "no samples"
		}
		res.Est = append(res.Est, Estimate{Sampler: s.Spec, Method: method, Kind: kind, CDF: c,
			Rate: rate, H: h, Note: note, Visits: res.Visits, Constant: s.Constant()})
	}
	nan := math.NaN()
	for i, m := range pr.run {
		r, err := pr.est[i].Estimate()
		if err != nil {
			return res, err
		}
		if m.Class == Baseline { // G_U = F_U for exponential U: the same curve, computed once
			g := ExpCDF(m.Name, r.Rate, c.X)
			f := g
			f.P = slices.Clone(g.P)
			add(m.Name, KindG, g, r.Rate, 0, r.Note)
			add(m.Name, KindF, f, r.Rate, 0, r.Note)
			continue
		}
		add(m.Name, KindG, r.CDF, nan, r.H, r.Note)
		res.Est[len(res.Est)-1].BinMeans, res.Est[len(res.Est)-1].Evidence = r.BinMeans, r.Evidence
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
			add(m.Name, KindF, rec.F, 1/rec.MeanU, rec.H, durationNote("E[U]", rec.MeanU, cfg.UnitName))
		}
	}
	return res, nil
}
