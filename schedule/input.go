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
	Lambda []float64
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

// recommended is SPEC §5's choice for a sampler given the methods its
// rows have: ages observed → M2; constant Δ → M4 (M5 if only it); random
// delays → M6.
func recommended(have map[string]bool, constant bool) string {
	switch {
	case have[estimator.MethodM2]:
		return estimator.MethodM2
	case constant && have[estimator.MethodM4]:
		return estimator.MethodM4
	case constant && have[estimator.MethodM5]:
		return estimator.MethodM5
	case have[estimator.MethodM6]:
		return estimator.MethodM6
	}
	return ""
}

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

// PageFunc receives one page: its id, title, Ĝ at its knots x > 0
// (values g; both empty when note says why there is no usable estimate),
// λ̂ and the note. x and g are the callee's to keep or overwrite.
type PageFunc func(id int64, title string, x, g []float64, lambda float64, note string) error

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
	in := &Input{}
	b := newCurveBuilder()
	err := s.Each(func(id int64, title string, x, g []float64, lambda float64, note string) error {
		in.IDs = append(in.IDs, id)
		in.Titles = append(in.Titles, title)
		in.Note = append(in.Note, note)
		in.Lambda = append(in.Lambda, lambda)
		b.add(x, g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	in.Curves = b.curves()
	in.Unit, in.UnitName, in.Source, in.Method, in.Sampler = s.Unit, s.UnitName, s.Desc, s.Method, s.Sampler
	return in, nil
}

// Each streams the pages of the source in their order, the same on every
// call. Estimates: the Ĝ of s.Method for s.Sampler (chosen on the first
// call when empty; see ReadEstimates). λ̂ is the first defined
// Poisson-rate baseline of the same sampler (rateMethods), else ĝ(0⁺) =
// max_k Ĝ(x_k)/x_k, the initial slope of Ĝ's least concave majorant
// (1/E[U]). Knots x ≤ 0 are dropped (G_U(0) = 0). A page whose estimate
// is undefined (NaN) or missing gets no knots, λ̂ = 0 and a note: it is
// planned like a page that never changed. It fails when no page has a
// usable estimate.
func (s *Source) Each(fn PageFunc) error {
	if s.Ctx != nil {
		inner := fn
		fn = func(id int64, title string, x, g []float64, lambda float64, note string) error {
			if err := s.stopped(); err != nil {
				return err
			}
			return inner(id, title, x, g, lambda, note)
		}
	}
	if s.truth {
		return s.eachTruth(fn)
	}
	dir := s.dir
	type page struct {
		id     int64
		title  string
		x, g   []float64
		rate   float64
		rateBy int
		gSeed  int // the Seed of the row x, g came from (x != nil)
	}
	var cur *page
	var first []estimator.Estimate // rows of the first page, until the method is known
	constant := false
	pages, usable := 0, 0
	firstNote := ""
	finish := func(p *page) error {
		note := ""
		if p.x == nil {
			note = "no " + s.Method + " estimate"
		}
		x, g := p.x, p.g
		if note == "" {
			for _, v := range g {
				if math.IsNaN(v) {
					note = s.Method + " undefined"
				}
			}
		}
		if note == "" && len(x) == 0 {
			note = "empty grid"
		}
		rate := p.rate
		if note != "" {
			x, g, rate = nil, nil, 0
		} else if !(rate > 0) {
			rate = 0
			for k := range x {
				rate = math.Max(rate, g[k]/x[k])
			}
		}
		pages++
		if note == "" {
			usable++
		} else if firstNote == "" {
			firstNote = note
		}
		return fn(p.id, p.title, x, g, rate, note)
	}
	take := func(e *estimator.Estimate) error {
		if cur == nil || cur.id != e.PageID {
			if cur != nil {
				if err := finish(cur); err != nil {
					return err
				}
			}
			cur = &page{id: e.PageID, title: e.Title, rate: math.NaN(), rateBy: len(rateMethods)}
		}
		if e.Method == s.Method && e.Kind == "G" {
			if cur.x != nil && e.Seed == cur.gSeed {
				// a second estimate of the page in a row: two pages of one id
				return sharedIDError(e.PageID, e.Title, pages, pages+1)
			}
			cur.x, cur.g = positive(e.CDF.X, e.CDF.P)
			cur.gSeed = e.Seed
		}
		if k := slices.Index(rateMethods, e.Method); k >= 0 && k < cur.rateBy && e.Rate > 0 && !math.IsInf(e.Rate, 0) {
			cur.rate, cur.rateBy = e.Rate, k
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
		s.Method = recommended(have, constant)
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
		c.method = estimator.MethodM6
		if s.Constant() {
			c.method = estimator.MethodM4
		}
	}
	if _, err := estimator.ParseMethods([]string{c.method}); err != nil {
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

// crawl replays the crawler over update times t (units, t[0] = 0, the
// window [0, t_last]) with r and returns Ĝ on its knots > 0 and λ̂ (the
// rate baseline, else Ĝ's initial slope), or a note when there is no
// estimate. The grid is blind to the truth: h = Δ for constant delays and
// E[S]/4 otherwise, x_max = min(window, maxKnots·h).
func (c *crawler) crawl(t []float64, r *rand.Rand) (x, g []float64, lambda float64, note string, err error) {
	if len(t) < 2 {
		return nil, nil, 0, "fewer than 2 updates in the training window", nil
	}
	s := c.s
	if s.Relative {
		if s, err = s.ForMean(t[len(t)-1] / float64(len(t)-1)); err != nil {
			return nil, nil, 0, "", err
		}
	}
	h := 1 / s.Rate / 4
	if s.Constant() {
		h = s.Delta
	}
	span := t[len(t)-1]
	if span < h {
		return nil, nil, 0, "training window shorter than the grid step", nil
	}
	cfg := estimator.Config{Methods: []string{c.method, c.rateMethod, estimator.MethodNaive}, H: h, XMax: math.Min(span, maxKnots*h)}
	est, err := replay.ReplayTimes(t, s, r, cfg)
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
