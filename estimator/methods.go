package estimator

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/revisit-dev/revisit/series"
)

// Method names, as written in estimates.parquet.
const (
	MethodTruth   = "truth"
	MethodM1      = "M1"
	MethodM2      = "M2"
	MethodM3      = "M3"
	MethodM4      = "M4"
	MethodM5      = "M5"
	MethodGM4     = "G-M4"
	MethodM6      = "M6"
	MethodNaive   = "naive"
	MethodCho     = "cho"
	MethodMatloff = "matloff"
	MethodAgeMLE  = "age-mle"
	// MethodPoissonMLE is the Poisson rate maximising the likelihood of
	// the changed/unchanged observations at their own delays (IrregularMLE).
	MethodPoissonMLE = "poisson-mle"
)

// Kinds of an estimate.
const (
	KindG = "G" // the age distribution G_U
	KindF = "F" // the interval distribution F_U
)

// Class says what an estimator converges to (docs/methods.md).
type Class string

// Classes of estimators.
const (
	Unbiased Class = "unbiased"         // consistent for G_U
	Biased   Class = "biased"           // converges to something else (M1, M3, G-M4)
	Baseline Class = "Poisson baseline" // a Poisson rate λ̂; its estimate is 1 − e^{−λ̂x}
)

// Observes is what an estimator needs to see at each visit.
type Observes int

const (
	// Comparison: only Q_{j−1,j}, whether the page changed since the
	// previous visit.
	Comparison Observes = iota
	// Age: the age A(s_j) (a Last-Modified time).
	Age
)

// Method describes one estimator: what it needs, what it gives and how to
// build it on one crawl. The registry (Registry) is a table of them; the
// replay, simulate and estimate commands, analysis (classes, step
// interpolation, ranking, the recommendation's evidence) and the --methods
// help texts all derive from it, so a new estimator is one Method value
// plus its code.
type Method struct {
	Name    string
	Aliases []string // other spellings ParseMethods accepts (case-insensitive)
	// Observes is what each visit must show: Age methods are left out of
	// observed logs without Last-Modified times.
	Observes Observes
	// ConstantOnly methods need constant delays Δ: not applicable to
	// random samplers.
	ConstantOnly bool
	// Step estimates are step functions on the visit grid, which the
	// error protocol interpolates linearly (docs/methods.md#errors).
	Step  bool
	Class Class
	// Recoverable: F_U is recovered from this G_U estimate when asked
	// (docs/methods.md#recover).
	Recoverable bool
	// New sets the estimator up on one crawl: it registers what must see
	// the visits with c.Watch and returns what gives the estimate at the
	// end. A Baseline's Result carries a Rate and no CDF.
	New func(c *Crawl) Estimator
}

// Estimator gives one method's estimate once every visit of a crawl has
// been observed (by the Observers its Method.New registered).
type Estimator interface {
	Estimate() (Result, error)
}

// Observer sees every visit of a crawl, in order.
type Observer interface {
	Observe(o *Obs)
}

// Result is one estimator's output on one crawl.
type Result struct {
	// CDF is the estimate of G_U on the crawl's grid (Crawl.X), its
	// Samples the samples used; empty for a Baseline.
	CDF  series.CDF
	Rate float64 // Baseline: λ̂ per unit (NaN: undefined); ignored otherwise
	H    float64 // bin width written with the row (M6's h); 0 otherwise
	Note string
	// BinMeans marks a CDF whose values are bin means over (y_n − h, y_n]
	// rather than values at y_n: F_U is recovered at the midpoints.
	BinMeans bool
	// Evidence, when not nil, is the number of samples behind each grid
	// value (M6: the pairs W(y_n) of bin n): the weights of the monotone
	// projection (Monotone). Not written to estimates.parquet.
	Evidence []int64
}

// Crawl is what an estimator is built on: one sampler's crawl of one page.
type Crawl struct {
	Sampler Sampler
	X       []float64 // the grid x_n = n·Step, n = 0 … N, up to x_max
	Step    float64   // Δ for constant delays, h otherwise
	End     float64   // the end of the window, in units
	// UnitName names the units (Config.UnitName), for notes that state
	// a duration.
	UnitName string

	g      grid
	gd     *Guard
	visits int // visits made, set before the estimates are taken
	obs    []observer
	shared map[string]any
}

// Watch registers an observer to see every visit of the crawl.
func (c *Crawl) Watch(o Observer) { c.obs = append(c.obs, observerOf{o}) }

// Visits is the number of visits made; valid in Estimate.
func (c *Crawl) Visits() int { return c.visits }

type observerOf struct{ o Observer }

func (w observerOf) add(o *Obs) { w.o.Observe(o) }

// sharedState returns the crawl's one instance of an internal observer
// that several methods read (M3, M4 and M5 share one pass, the Poisson
// baselines another), made and watched on first use.
func sharedState[T observer](c *Crawl, key string, mk func() T) T {
	if v, ok := c.shared[key]; ok {
		return v.(T)
	}
	v := mk()
	if c.shared == nil {
		c.shared = map[string]any{}
	}
	c.shared[key] = v
	c.obs = append(c.obs, v)
	return v
}

// estimatorFunc adapts a function to Estimator.
type estimatorFunc func() (Result, error)

func (f estimatorFunc) Estimate() (Result, error) { return f() }

func m1Of(c *Crawl) *m1 { return sharedState(c, MethodM1, func() *m1 { return newM1(c.g) }) }
func cmpOf(c *Crawl) *cmpConst {
	return sharedState(c, "cmp", func() *cmpConst { return newCmpConst(c.g) })
}
func poissonOf(c *Crawl) *poisson {
	return sharedState(c, "poisson", func() *poisson { return &poisson{} })
}

// baseline is the Estimator of the Poisson baseline name.
func baseline(name string) func(c *Crawl) Estimator {
	return func(c *Crawl) Estimator {
		ep := poissonOf(c)
		return estimatorFunc(func() (Result, error) {
			r := ep.result(name, c.Sampler)
			return Result{Rate: r.rate, Note: r.note}, nil
		})
	}
}

// builtin is the table of revisit's estimators, in output order (the
// order of docs/methods.md). It is never modified: Registry.With copies.
var builtin = []Method{
	{Name: MethodM1, Observes: Age, Class: Biased, New: func(c *Crawl) Estimator {
		e := m1Of(c)
		return estimatorFunc(func() (Result, error) {
			return Result{CDF: e.cdf(), Rate: math.NaN(), Note: e.note()}, nil
		})
	}},
	{Name: MethodM2, Observes: Age, Class: Unbiased, Recoverable: true, New: func(c *Crawl) Estimator {
		e := sharedState(c, MethodM2, func() *m2 { return newM2(c.g) })
		return estimatorFunc(func() (Result, error) { return Result{CDF: e.cdf(), Rate: math.NaN()}, nil })
	}},
	{Name: MethodM3, ConstantOnly: true, Step: true, Class: Biased, New: func(c *Crawl) Estimator {
		e := cmpOf(c)
		return estimatorFunc(func() (Result, error) {
			r := Result{CDF: e.m3CDF(), Rate: math.NaN()}
			if r.CDF.Samples > 0 {
				r.Note = durationNote("E[D_3]", e.meanD3(), c.UnitName)
			}
			return r, nil
		})
	}},
	{Name: MethodM4, ConstantOnly: true, Step: true, Class: Unbiased, Recoverable: true, New: func(c *Crawl) Estimator {
		e := cmpOf(c)
		return estimatorFunc(func() (Result, error) { return Result{CDF: e.m4CDF(), Rate: math.NaN()}, nil })
	}},
	{Name: MethodM5, ConstantOnly: true, Step: true, Class: Unbiased, Recoverable: true, New: func(c *Crawl) Estimator {
		e := cmpOf(c)
		return estimatorFunc(func() (Result, error) { return Result{CDF: e.m5CDF(), Rate: math.NaN()}, nil })
	}},
	{Name: MethodGM4, Aliases: []string{"gm4"}, Step: true, Class: Biased, New: func(c *Crawl) Estimator {
		e := sharedState(c, MethodGM4, func() *gm4 { return newGM4(c.g) })
		return estimatorFunc(func() (Result, error) { return Result{CDF: e.cdf(), Rate: math.NaN()}, nil })
	}},
	{Name: MethodM6, Step: true, Class: Unbiased, Recoverable: true, New: func(c *Crawl) Estimator {
		e := sharedState(c, MethodM6, func() *m6 { return newM6(c.g, c.Sampler.Constant(), c.End, c.gd) })
		return estimatorFunc(func() (Result, error) {
			e.finish() // the last chunk's pairs, under the guard
			if err := c.gd.Poll(c.visits); err != nil {
				return Result{}, err
			}
			cdf, note := e.cdf()
			return Result{CDF: cdf, Rate: math.NaN(), H: c.Step, Note: note, BinMeans: !c.Sampler.Constant(), Evidence: e.w()}, nil
		})
	}},
	{Name: MethodNaive, Class: Baseline, New: baseline(MethodNaive)},
	{Name: MethodCho, Aliases: []string{"cho-garcia-molina", "cgm"}, ConstantOnly: true, Class: Baseline, New: baseline(MethodCho)},
	{Name: MethodMatloff, ConstantOnly: true, Class: Baseline, New: baseline(MethodMatloff)},
	{Name: MethodAgeMLE, Observes: Age, Class: Baseline, New: baseline(MethodAgeMLE)},
	{Name: MethodPoissonMLE, Class: Baseline, New: baseline(MethodPoissonMLE)},
}

// Registry is a table of estimators. Its zero value is revisit's own
// estimators (M1 … M6, G-M4 and the Poisson baselines); With adds more.
// A Registry is a value: adding to a copy leaves the original unchanged.
type Registry struct {
	extra []Method
}

// With returns r with m added after its methods. The name (and every
// alias) must be new, m.New and m.Class set.
func (r Registry) With(m Method) (Registry, error) {
	if m.Name == "" || m.New == nil || m.Class == "" {
		return r, fmt.Errorf("method %q: a name, a class and a constructor are needed", m.Name)
	}
	for _, n := range append([]string{m.Name}, m.Aliases...) {
		if _, ok := r.canonical(n); ok || strings.EqualFold(n, "all") || strings.EqualFold(n, MethodTruth) {
			return r, fmt.Errorf("method %q: the name %q is taken", m.Name, n)
		}
	}
	return Registry{extra: append(slices.Clip(r.extra), m)}, nil
}

// Methods are the registered methods in output order.
func (r Registry) Methods() []Method { return append(slices.Clone(builtin), r.extra...) }

// Names are the registered method names in output order.
func (r Registry) Names() []string {
	var out []string
	for _, m := range r.Methods() {
		out = append(out, m.Name)
	}
	return out
}

// Lookup finds a method by its name (exactly as written in
// estimates.parquet).
func (r Registry) Lookup(name string) (Method, bool) {
	for _, m := range builtin {
		if m.Name == name {
			return m, true
		}
	}
	for _, m := range r.extra {
		if m.Name == name {
			return m, true
		}
	}
	return Method{}, false
}

// Rank is name's position in output order (len(Methods) for an unknown
// name, so unknown names sort last).
func (r Registry) Rank(name string) int {
	if i := slices.Index(r.Names(), name); i >= 0 {
		return i
	}
	return len(builtin) + len(r.extra)
}

// ClassOf is the class of a method ("" for an unknown name).
func (r Registry) ClassOf(name string) Class {
	m, _ := r.Lookup(name)
	return m.Class
}

// AllMethods is every built-in estimator, in output order.
var AllMethods = Registry{}.Names()

// Applicable reports whether method can run on sampler s.
func Applicable(method string, s Sampler) bool { return Registry{}.Applicable(method, s) }

// Applicable reports whether method can run on sampler s: every method on
// constant delays, the ConstantOnly ones on nothing else.
func (r Registry) Applicable(method string, s Sampler) bool {
	m, _ := r.Lookup(method)
	return s.Constant() || !m.ConstantOnly
}

// ParseMethods reads names of built-in methods (Registry.Parse).
func ParseMethods(list []string) ([]string, error) { return Registry{}.Parse(list) }

// Parse reads method names (comma-separated lists allowed, case does not
// matter, "all" for every method, aliases such as "gm4" for G-M4) and
// returns them in output order without duplicates.
func (r Registry) Parse(list []string) ([]string, error) {
	all := r.Names()
	want := map[string]bool{}
	for _, item := range list {
		for _, name := range strings.Split(item, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			if strings.EqualFold(name, "all") {
				for _, m := range all {
					want[m] = true
				}
				continue
			}
			m, ok := r.canonical(name)
			if !ok {
				return nil, fmt.Errorf("unknown method %q (want %s or all)", name, strings.Join(all, ", "))
			}
			want[m] = true
		}
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("no method given (want %s or all)", strings.Join(all, ", "))
	}
	var out []string
	for _, m := range all {
		if want[m] {
			out = append(out, m)
		}
	}
	return out, nil
}

func (r Registry) canonical(name string) (string, bool) {
	n := strings.ToLower(strings.ReplaceAll(name, "_", "-"))
	for _, m := range r.Methods() {
		if strings.ToLower(m.Name) == n || slices.ContainsFunc(m.Aliases, func(a string) bool { return strings.ToLower(a) == n }) {
			return m.Name, true
		}
	}
	return "", false
}

// ConstantOnly are the names of r's ConstantOnly methods.
func (r Registry) ConstantOnly() []string {
	var out []string
	for _, m := range r.Methods() {
		if m.ConstantOnly {
			out = append(out, m.Name)
		}
	}
	return out
}

// CheckApplicable fails when no selected method can run on any of the
// samplers (e.g. only M3, M4, M5, cho or matloff with random delays):
// such a run would write nothing but the truth.
func (r Registry) CheckApplicable(methods []string, smp []Sampler) error {
	for _, s := range smp {
		for _, m := range methods {
			if r.Applicable(m, s) {
				return nil
			}
		}
	}
	return fmt.Errorf("none of the methods %s can run on the samplers given (%s need constant delays: add a const:Δ sampler)",
		strings.Join(methods, ", "), strings.Join(r.ConstantOnly(), ", "))
}
