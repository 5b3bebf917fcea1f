package schedule

// This file is the only one that knows the replay package: it reads the
// per-page estimates of a replay or estimate output directory. When the
// estimators move to their own package, only this file changes.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/revisit-dev/revisit/crawllog"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/replay"
)

// Input is what a plan is made from: per page an id, a title (or URL), an
// estimated age distribution Ĝ on knots and a Poisson rate λ̂, in one time
// unit.
type Input struct {
	IDs    []int64
	Titles []string
	Curves Curves
	// Exact says Curves are exact time-average age distributions
	// (WindowCurve), not estimates: they are not projected, and no page is
	// planned on a prior.
	Exact  bool
	Lambda []float64
	// Watched is how long each page was watched (SourcePage.Watched; nil:
	// not known).
	Watched []float64
	// Note says, per page, why it has no usable estimate ("" if it has).
	Note     []string
	Unit     float64 // seconds per unit
	UnitName string
	// Source says where the distributions come from: "M4 estimates from
	// the replay output out/replay (sampler const:24)", "true G_U of the
	// dataset ds".
	Source  string
	Method  string
	Sampler string
}

// rateMethods are the Poisson-rate baselines of the estimates, in the
// order λ̂ is taken from them.
var rateMethods = []string{estimator.MethodAgeMLE, estimator.MethodCho, estimator.MethodPoissonMLE, estimator.MethodNaive, estimator.MethodMatloff}

// IsEstimates reports whether dir is a replay or estimate output.
func IsEstimates(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, estimates.File))
	return err == nil
}

// ReadEstimates reads the Ĝ of every page of a replay or estimate output
// dir for one sampler ("" : the first in the file) and one method ("":
// the scenario's recommended method, see recommended; "truth" for the
// replay's true G_U) into memory (Source.Each says how).
func ReadEstimates(dir, method, sampler string) (*Input, error) {
	src, err := OpenEstimates(dir, method, sampler)
	if err != nil {
		return nil, err
	}
	return src.read()
}

// Source is where the pages of a plan come from, read as a stream
// (Each) so that a large input need not be held in memory: a replay or
// estimate output, or a dataset's true G_U.
type Source struct {
	dir      string
	truth    bool
	Unit     float64 // seconds per unit
	UnitName string
	Method   string // "" until the first Each chose it
	Sampler  string
	// Desc says where the distributions come from (Input.Source).
	Desc string
	// Ctx, when set, stops Each and EachName at the next page once it is
	// done (Ctrl-C), and PlanSource between plans, with its error.
	Ctx context.Context
}

// stopped is the error of s.Ctx once it is done, else nil.
func (s *Source) stopped() error {
	if s.Ctx == nil {
		return nil
	}
	return s.Ctx.Err()
}

// SourcePage is one page of a Source.
type SourcePage struct {
	ID    int64
	Title string
	// X and G are Ĝ at its knots x > 0, both empty when Note says why
	// there is no usable estimate; the callee's to keep or overwrite.
	X, G   []float64
	Lambda float64 // λ̂ per unit
	Note   string
	// Watched is how long the page was watched (units; 0: not known):
	// the evidence behind a Ĝ ≡ 0 (Problem.Prior).
	Watched float64
}

// PageFunc receives one page.
type PageFunc func(p *SourcePage) error

// OpenEstimates opens a replay or estimate output (see Each).
func OpenEstimates(dir, method, sampler string) (*Source, error) {
	unit, unitName, err := readUnit(dir)
	if err != nil {
		return nil, err
	}
	return &Source{dir: dir, Unit: unit, UnitName: unitName, Method: method, Sampler: sampler}, nil
}

// read collects the pages into an Input.
func (s *Source) read() (*Input, error) {
	in := &Input{Exact: s.truth}
	b := newCurveBuilder()
	err := s.Each(func(p *SourcePage) error {
		in.add(b, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	in.Curves = b.curves()
	in.Unit, in.UnitName, in.Source, in.Method, in.Sampler = s.Unit, s.UnitName, s.Desc, s.Method, s.Sampler
	return in, nil
}

// add appends a page to the input and its curve to b.
func (in *Input) add(b *curveBuilder, p *SourcePage) {
	in.IDs = append(in.IDs, p.ID)
	in.Titles = append(in.Titles, p.Title)
	in.Note = append(in.Note, p.Note)
	in.Lambda = append(in.Lambda, p.Lambda)
	in.Watched = append(in.Watched, p.Watched)
	b.add(p.X, p.G)
}

// seedEstimate is what one seed of a replay gave a page: Ĝ of the method,
// its λ̂ and the rate method it came from (an index into rateMethods).
type seedEstimate struct {
	seed    int
	x, g    []float64
	hasG    bool
	rate    float64
	rateBy  int
	watched float64
}

// Each streams the pages of the source in their order, the same on every
// call. Estimates: the Ĝ of s.Method for s.Sampler (chosen on the first
// call when empty; see ReadEstimates). λ̂ is the first defined
// Poisson-rate baseline of the same sampler (rateMethods), else ĝ(0⁺) =
// max_k Ĝ(x_k)/x_k, the initial slope of Ĝ's least concave majorant
// (1/E[U]). Knots x ≤ 0 are dropped (G_U(0) = 0). A page whose estimate
// is undefined (NaN) or missing gets no knots, λ̂ = 0 and a note: it is
// planned like a page that never changed. The time a page was watched is
// its visits times Δ for constant delays (unknown otherwise).
//
// A replay of several seeds (replay --seeds R) has R independent crawls
// of each page: they are pooled explicitly, Ĝ the mean of the seeds'
// Ĝ at their common knots (the seeds of a sampler share its grid) and λ̂
// the mean of the seeds' λ̂; seeds with different knots are refused. An
// estimate given twice for one page and seed is two pages with one id
// (sharedIDError). It fails when no page has a usable estimate.
func (s *Source) Each(fn PageFunc) error {
	if s.Ctx != nil {
		inner := fn
		fn = func(p *SourcePage) error {
			if err := s.stopped(); err != nil {
				return err
			}
			return inner(p)
		}
	}
	if s.truth {
		return s.eachTruth(fn)
	}
	dir := s.dir
	type page struct {
		id    int64
		title string
		seeds []seedEstimate
	}
	var cur *page
	var first []estimator.Estimate // rows of the first page, until the method is known
	constant := false
	pages, usable, seeds := 0, 0, 0
	firstNote := ""
	var sp SourcePage
	finish := func(p *page) error {
		sp = SourcePage{ID: p.id, Title: p.title}
		var est []seedEstimate
		for _, e := range p.seeds {
			if e.hasG {
				est = append(est, e)
			}
		}
		switch {
		case len(est) == 0:
			sp.Note = "no " + s.Method + " estimate"
		case len(est) > 1:
			for _, e := range est[1:] {
				if !slices.Equal(e.x, est[0].x) {
					return fmt.Errorf("page %d (%q): seeds %d and %d of the replay have %s estimates on different knots: their Ĝ cannot be pooled (replay with one seed, or give --h and --x-max)", p.id, p.title, est[0].seed, e.seed, s.Method)
				}
			}
		}
		seeds = max(seeds, len(est))
		if sp.Note == "" {
			sp.X = est[0].x
			sp.G = make([]float64, len(sp.X))
			for _, e := range est {
				for k, v := range e.g {
					sp.G[k] += v / float64(len(est))
				}
				rate := e.rate
				if !(rate > 0) { // the seed's initial slope of Ĝ
					rate = 0
					for k := range e.x {
						rate = math.Max(rate, e.g[k]/e.x[k])
					}
				}
				sp.Lambda += rate / float64(len(est))
				sp.Watched += e.watched / float64(len(est))
			}
			for _, v := range sp.G {
				if math.IsNaN(v) {
					sp.Note = s.Method + " undefined"
				}
			}
			if sp.Note == "" && len(sp.X) == 0 {
				sp.Note = "empty grid"
			}
		}
		if sp.Note != "" {
			sp.X, sp.G, sp.Lambda = nil, nil, 0
		}
		pages++
		if sp.Note == "" {
			usable++
		} else if firstNote == "" {
			firstNote = sp.Note
		}
		return fn(&sp)
	}
	seedOf := func(e *estimator.Estimate) *seedEstimate {
		for k := range cur.seeds {
			if cur.seeds[k].seed == e.Seed {
				return &cur.seeds[k]
			}
		}
		cur.seeds = append(cur.seeds, seedEstimate{seed: e.Seed, rate: math.NaN(), rateBy: len(rateMethods)})
		return &cur.seeds[len(cur.seeds)-1]
	}
	take := func(e *estimator.Estimate) error {
		if cur == nil || cur.id != e.PageID {
			if cur != nil {
				if err := finish(cur); err != nil {
					return err
				}
			}
			cur = &page{id: e.PageID, title: e.Title}
		}
		se := seedOf(e)
		if e.Method == s.Method && e.Kind == "G" {
			if se.hasG {
				// a second estimate of the page and seed in a row: two pages of one id
				return sharedIDError(e.PageID, e.Title, pages, pages+1)
			}
			se.x, se.g = positive(e.CDF.X, e.CDF.P)
			se.hasG = true
			if e.Constant && e.H > 0 {
				se.watched = float64(e.Visits) * e.H
			}
		}
		if k := slices.Index(rateMethods, e.Method); k >= 0 && k < se.rateBy && e.Rate > 0 && !math.IsInf(e.Rate, 0) {
			se.rate, se.rateBy = e.Rate, k
		}
		return nil
	}
	choose := func() error {
		have := map[string]bool{}
		for _, r := range first {
			if r.Kind == "G" {
				have[r.Method] = true
			}
		}
		s.Method = estimator.ReferenceAmong(func(m string) bool { return have[m] }, constant)
		if s.Method == "" {
			return fmt.Errorf("no method for G_U among the estimates of sampler %s (want M2, M4, M5 or M6; choose one with --method)", s.Sampler)
		}
		for i := range first {
			if err := take(&first[i]); err != nil {
				return err
			}
		}
		first = nil
		return nil
	}
	err := estimates.Each(dir, func(e *estimator.Estimate) error {
		if s.Sampler == "" {
			s.Sampler = e.Sampler
		}
		if e.Sampler != s.Sampler {
			return nil
		}
		if s.Method == "" { // buffer the first page's rows to choose the method
			if len(first) == 0 || first[0].PageID == e.PageID {
				first = append(first, *e)
				constant = e.Constant
				return nil
			}
			if err := choose(); err != nil {
				return err
			}
		}
		return take(e)
	})
	if err == nil && s.Method == "" && len(first) > 0 { // a single page
		err = choose()
	}
	if err == nil && cur != nil {
		err = finish(cur)
	}
	if err != nil {
		return fmt.Errorf("schedule: %s: %w", dir, err)
	}
	if pages == 0 {
		return fmt.Errorf("schedule: %s: no estimates for sampler %q", dir, s.Sampler)
	}
	if usable == 0 {
		return fmt.Errorf("schedule: %s: none of the %d pages has a usable %s estimate of G_U for sampler %s (%s)", dir, pages, s.Method, s.Sampler, firstNote)
	}
	s.Desc = fmt.Sprintf("%s estimates of G_U from %s (sampler %s)", s.Method, dir, s.Sampler)
	if seeds > 1 {
		s.Desc += fmt.Sprintf(", pooled over %d seeds (mean Ĝ and λ̂)", seeds)
	}
	return nil
}

// readUnit reads the time unit from replay.json or estimate.json.
func readUnit(dir string) (float64, string, error) {
	for _, name := range []string{replay.MetaFile, crawllog.EstimateMetaFile} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, "", fmt.Errorf("schedule: %w", err)
		}
		var m struct {
			Unit     float64 `json:"unit"`
			UnitName string  `json:"unit_name"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return 0, "", fmt.Errorf("schedule: %s: %w", filepath.Join(dir, name), err)
		}
		if !(m.Unit > 0) {
			return 0, "", fmt.Errorf("schedule: %s: no time unit", filepath.Join(dir, name))
		}
		return m.Unit, m.UnitName, nil
	}
	return 0, "", fmt.Errorf("schedule: %s: neither %s nor %s: not a replay or estimate output", dir, replay.MetaFile, crawllog.EstimateMetaFile)
}

// positive keeps the knots x > 0 (and their values).
func positive(x, g []float64) ([]float64, []float64) {
	k := 0
	for k < len(x) && !(x[k] > 0) {
		k++
	}
	return x[k:], g[k:]
}

// crawler is a blind virtual crawler for Validate: replay's crawler and
// estimators on one page's training window.
type crawler struct {
	s          estimator.Sampler
	method     string
	rateMethod string
}

// newCrawler parses a sampler spec (replay's syntax; a relative spec is
// scaled by the page's mean training interval, which a crawler could
// only know approximately) and the method (""): M4 for constant delays,
// M6 otherwise; λ̂ from cho (constant) or poisson-mle (random).
func newCrawler(spec, method string) (*crawler, error) {
	s, err := estimator.ParseSampler(spec)
	if err != nil {
		return nil, err
	}
	c := &crawler{s: s, method: method, rateMethod: estimator.MethodPoissonMLE}
	if s.Constant() {
		c.rateMethod = estimator.MethodCho
	}
	if c.method == "" {
		c.method = estimator.ReferenceMethod(false, s.Constant(), false)
	}
	if c.method, err = oneMethod(c.method); err != nil {
		return nil, err
	}
	if !estimator.Applicable(c.method, s) {
		return nil, fmt.Errorf("method %s does not apply to sampler %s", c.method, spec)
	}
	return c, nil
}

// CheckCrawler refuses a validation crawler that cannot work (Validate's
// newCrawler): a sampler spec that does not parse, or a method that is
// unknown or does not apply to it.
func CheckCrawler(spec, method string) error {
	_, err := newCrawler(spec, method)
	return err
}

// maxKnots bounds the grid of one crawl: x_max ≤ maxKnots·h.
const maxKnots = 2000

// crawl replays the crawler over update times t (units, t[0] = 0) over
// the window [0, end] with r, the crawl going on after the last update up
// to end (the quiet time is evidence: ReplayUntil), and returns Ĝ on its
// knots > 0 and λ̂ (the rate baseline, which counts the visits that saw no
// change; else Ĝ's initial slope), or a note when there is no estimate.
// The grid is blind to the truth: h = Δ for constant delays and E[S]/4
// otherwise, x_max = min(window, maxKnots·h).
func (c *crawler) crawl(t []float64, end float64, r *rand.Rand) (x, g []float64, lambda float64, note string, err error) {
	if len(t) == 0 {
		return nil, nil, 0, "no update in the training window", nil
	}
	s := c.s
	if s.Relative { // the mean interval, quiet time included: window over updates
		if s, err = s.ForMean(end / float64(len(t))); err != nil {
			return nil, nil, 0, "", err
		}
	}
	h := 1 / s.Rate / 4
	if s.Constant() {
		h = s.Delta
	}
	if end < h {
		return nil, nil, 0, "training window shorter than the grid step", nil
	}
	cfg := estimator.Config{Methods: []string{c.method, c.rateMethod, estimator.MethodNaive}, H: h, XMax: math.Min(end, maxKnots*h)}
	est, err := replay.ReplayUntil(t, end, s, r, cfg)
	if err != nil {
		return nil, nil, 0, "", err
	}
	lambda = math.NaN()
	for _, e := range est {
		switch {
		case e.Method == c.method && e.Kind == "G":
			x, g = positive(e.CDF.X, e.CDF.P)
		case e.Method == c.rateMethod && e.Rate > 0 && !math.IsInf(e.Rate, 0):
			lambda = e.Rate
		case e.Method == estimator.MethodNaive && math.IsNaN(lambda) && e.Rate > 0 && !math.IsInf(e.Rate, 0):
			lambda = e.Rate
		}
	}
	if len(x) == 0 {
		return nil, nil, 0, c.method + " gave no estimate", nil
	}
	for _, v := range g {
		if math.IsNaN(v) {
			return nil, nil, 0, c.method + " undefined", nil
		}
	}
	if !(lambda > 0) {
		lambda = 0
		for k := range x {
			lambda = math.Max(lambda, g[k]/x[k])
		}
	}
	return x, g, lambda, "", nil
}
