package replay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/model"
)

// A page with no interval cannot be crawled; a page with one interval can.
func TestPageWithZeroOrOneInterval(t *testing.T) {
	s, _ := estimator.ParseSampler("const:1")
	cfg := estimator.Config{H: 0.5, XMax: 4}
	if _, err := ReplayTimes([]float64{0}, s, model.NewRand(1, 1), cfg); !errors.Is(err, ErrTooShort) {
		t.Fatalf("one update: err = %v, want ErrTooShort", err)
	}
	// One interval [0, 3], visits 0.5, 1.5, 2.5: ages 0.5, 1.5, 2.5, no detection.
	es, err := ReplayVisits([]float64{0, 3}, []float64{0.5, 1.5, 2.5}, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := byMethod(es)
	checkP(t, "M2", m["M2/G"].CDF.P, []float64{0, 1. / 3, 2. / 3, 1, 1})
	// No change after the creation (detected at the first visit): M1, M3
	// and M5 have no sample and are undefined (NaN), with a note; M4 and
	// G-M4 see a = Δ, 2Δ, 3Δ (s* = −0.5, the virtual previous visit).
	checkP(t, "M4", m["M4/G"].CDF.P, []float64{0, 1. / 3, 2. / 3, 1, 1})
	checkP(t, "G-M4", m["G-M4/G"].CDF.P, []float64{0, 1. / 3, 2. / 3, 1, 1})
	for _, name := range []string{"M1", "M3", "M5"} {
		e := m[name+"/G"]
		if e.CDF.Samples != 0 || !math.IsNaN(e.CDF.P[1]) || e.Note == "" {
			t.Errorf("%s: samples %d P %v note %q, want undefined", name, e.CDF.Samples, e.CDF.P, e.Note)
		}
	}
	// M6: all pairs in the same cycle → Z = 0: G_6 = 0 on the lags seen.
	checkP(t, "M6", m["M6/G"].CDF.P, []float64{0, 0, 0, 0, 0})
	// X = 0: naive, Cho, Matloff give rate 0.
	for _, name := range []string{"naive", "cho", "matloff"} {
		if r := m[name+"/F"].Rate; r != 0 {
			t.Errorf("%s rate %g, want 0", name, r)
		}
	}
	// Truth of the single interval: G_U(x) = min(x, 3)/3, F_U = 1 from 3.
	checkP(t, "truth G", m["truth/G"].CDF.P, []float64{0, 1. / 3, 2. / 3, 1, 1})
	checkP(t, "truth F", m["truth/F"].CDF.P, []float64{0, 0, 0, 1, 1})
}

// A visit exactly at an update sees age 0 and detects that update.
func TestVisitAtUpdate(t *testing.T) {
	s, _ := estimator.ParseSampler("const:0.5")
	cfg := estimator.Config{H: 0.5, XMax: 2}
	// Updates 0, 1, 2; visits 0.5, 1.0 (at the update), 1.5.
	es, err := ReplayVisits([]float64{0, 1, 2}, []float64{0.5, 1, 1.5}, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := byMethod(es)
	// Ages 0.5, 0, 0.5 on the grid 0, 0.5, 1, …: A ≤ 0 for one of three.
	checkP(t, "M2", m["M2/G"].CDF.P, []float64{1. / 3, 1, 1, 1, 1})
	// The first visit detects the creation (a = Δ), the second the update
	// at 1 ∈ (0.5, 1] (a = Δ), the third sees a = 2Δ.
	checkP(t, "M4", m["M4/G"].CDF.P, []float64{0, 2. / 3, 1, 1, 1})
	// M1 keeps the age before the detection: A(0.5) = 0.5.
	checkP(t, "M1", m["M1/G"].CDF.P, []float64{0, 1, 1, 1, 1})
}

// λ so large that every interval is seen: with Δ = 0.001 and integer
// intervals, M3's samples D_k are the intervals up to ±Δ, so at
// half-integers M3's ECDF equals F_U exactly; M1's kept ages are the
// intervals minus less than Δ. The last update is the window's end, where
// no visit (almost surely) lands, so the last interval is never closed by a
// detection; the first visit detects the creation and opens U_1: M3 and
// M1 both see U_1…U_5 (5 samples).
func TestEveryIntervalSeen(t *testing.T) {
	times := []float64{0, 1, 3, 6, 10, 11, 13}
	u := []float64{1, 2, 3, 4, 1, 2}
	s, _ := estimator.ParseSampler("const:0.001")
	cfg := estimator.Config{H: 0.001, XMax: 5, Methods: []string{estimator.MethodM1, estimator.MethodM3}}
	es, err := ReplayTimes(times, s, model.NewRand(9, 9), cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := byMethod(es)
	for _, x := range []float64{0.5, 1.5, 2.5, 3.5, 4.5} {
		f1 := 0.0
		for _, v := range u[:5] {
			if v <= x {
				f1++
			}
		}
		if got := m["M3/G"].CDF.At(x); math.Abs(got-f1/5) > 1e-12 {
			t.Errorf("M3 at %g = %g, want %g", x, got, f1/5)
		}
		if got := m["M1/G"].CDF.At(x); math.Abs(got-f1/5) > 1e-12 {
			t.Errorf("M1 at %g = %g, want %g", x, got, f1/5)
		}
	}
}

// λ so small that every visit detects a change
// (Δ = 10 with intervals ≤ 1): X = n, so Matloff is undefined (a note, no
// crash), Cho is finite, naive is 1/Δ; M4's a_j are all Δ; M6 sees only
// pairs in different cycles (G_6 = 1 from the first lag).
func TestEveryVisitDetects(t *testing.T) {
	var times []float64
	for i := 0; i <= 100; i++ {
		times = append(times, float64(i)*0.7)
	}
	s, _ := estimator.ParseSampler("const:10")
	es, err := ReplayVisits(times, []float64{5, 15, 25, 35, 45, 55, 65}, s, estimator.Config{H: 1, XMax: 40})
	if err != nil {
		t.Fatal(err)
	}
	m := byMethod(es)
	mat := m["matloff/F"]
	if !math.IsNaN(mat.Rate) || !strings.Contains(mat.Note, "X = n") || !math.IsNaN(mat.CDF.P[1]) {
		t.Errorf("Matloff with X = n: rate %g note %q", mat.Rate, mat.Note)
	}
	// Cho: −(1/10) ln(0.5/6.5) with n = X = 6.
	if got, want := m["cho/F"].Rate, -math.Log(0.5/6.5)/10; math.Abs(got-want) > 1e-12 {
		t.Errorf("Cho rate %g, want %g", got, want)
	}
	if got := m["naive/F"].Rate; math.Abs(got-0.1) > 1e-12 {
		t.Errorf("naive rate %g, want 1/Δ = 0.1", got)
	}
	checkP(t, "M4", m["M4/G"].CDF.P, []float64{0, 1, 1, 1, 1})
	checkP(t, "M6", m["M6/G"].CDF.P, []float64{0, 1, 1, 1, 1})
}

// Matloff, Cho and naive on their own, including X = n.
func TestRateEstimators(t *testing.T) {
	if r, note := estimator.Matloff(5, 5, 1); !math.IsNaN(r) || note == "" {
		t.Errorf("Matloff X=n: %g %q", r, note)
	}
	if r, _ := estimator.Matloff(1, 2, 0.5); math.Abs(r-2*math.Ln2) > 1e-12 { // −2 ln(1/2)
		t.Errorf("Matloff(1,2,0.5) = %g", r)
	}
	if r, _ := estimator.ChoGarciaMolina(1, 2, 0.5); math.Abs(r+2*math.Log(1.5/2.5)) > 1e-12 {
		t.Errorf("Cho(1,2,0.5) = %g", r)
	}
	if r, note := estimator.AgeMLE(3, 0); !math.IsNaN(r) || note == "" {
		t.Errorf("AgeMLE with zero ages: %g %q", r, note)
	}
	// Ages of a Poisson process are Exp(λ): the MLE of λ = 2 from many draws.
	rng := model.NewRand(1, 1)
	sum := 0.0
	const n = 200000
	for range n {
		sum += rng.ExpFloat64() / 2
	}
	if r, _ := estimator.AgeMLE(n, sum); math.Abs(r-2) > 0.02 {
		t.Errorf("AgeMLE on Exp(2) ages: %g", r)
	}
}

// Clear errors for bad samplers, methods, h and x_max.
func TestBadOptions(t *testing.T) {
	for _, spec := range []string{"exp:0", "exp:-1", "const:0", "uniform:-2", "pareto:1,2", "pareto:3,0",
		"foo:1", "exp", "exp:x", "dist:nope:1", "dist:pareto:1,1"} {
		if _, err := estimator.ParseSampler(spec); err == nil {
			t.Errorf("sampler %q accepted", spec)
		}
	}
	if _, err := estimator.ParseSampler("exp:-1"); err == nil || !strings.Contains(err.Error(), "λ must be > 0") {
		t.Errorf("exp:-1: %v", err)
	}
	if _, err := estimator.ParseMethods([]string{"M2,M7"}); err == nil || !strings.Contains(err.Error(), `"M7"`) {
		t.Errorf("unknown method: %v", err)
	}
	if ms, err := estimator.ParseMethods([]string{"gm4", "m2", "ALL"}); err != nil || len(ms) != len(estimator.AllMethods) {
		t.Errorf("ParseMethods: %v %v", ms, err)
	}
	// Lower-case names in a Config select the methods too.
	s, _ := estimator.ParseSampler("const:1")
	es, err := ReplayVisits([]float64{0, 1, 4, 6}, []float64{0.5, 1.5, 2.5}, s, estimator.Config{Methods: []string{"m2", "gm4"}, H: 1, XMax: 3})
	if err != nil || len(es) != 2+2 || es[0].Method != estimator.MethodM2 || es[1].Method != estimator.MethodGM4 {
		t.Errorf("lower-case methods: %d rows, %v", len(es), err)
	}
	for _, c := range []estimator.Config{{H: 0, XMax: 1}, {H: -1, XMax: 1}, {H: 0.1, XMax: 0}, {H: math.NaN(), XMax: 1}} {
		if err := c.Check(); err == nil {
			t.Errorf("config %+v accepted", c)
		}
	}
	o := Options{Samplers: []string{"exp:0"}, H: 1, XMax: 2, Out: "x"}
	var oe *OptionError
	if _, _, err := o.Validate(); !errors.As(err, &oe) {
		t.Errorf("Validate: %v, want *OptionError", err)
	}
	// Methods that need constant delays with only random samplers: nothing
	// would be estimated (only truth rows written), a usage error.
	for _, o := range []Options{
		{Samplers: []string{"exp:1", "uniform:2"}, Methods: []string{"M3,M4,cho"}, H: 1, XMax: 2, Out: "x"},
	} {
		if _, _, err := o.Validate(); !errors.As(err, &oe) || !strings.Contains(err.Error(), "constant delays") {
			t.Errorf("Validate %v on %v: %v, want an *OptionError about constant delays", o.Methods, o.Samplers, err)
		}
	}
	// Bad derivative options are usage errors, not a NaN F_U on every page.
	for _, ro := range []estimator.RecoverOptions{{K: 4}, {K: -5}, {Extra: -1}, {H: -0.1}, {H: math.Inf(1)}, {Tol: -1}, {Tol: math.NaN()}} {
		o := Options{Samplers: []string{"exp:1"}, H: 1, XMax: 2, Out: "x", Recover: true, RecoverOpt: ro}
		if _, _, err := o.Validate(); !errors.As(err, &oe) {
			t.Errorf("Validate with recovery options %+v: %v, want an *OptionError", ro, err)
		}
	}
	if _, err := Simulate(context.Background(), SimOptions{Update: "exp:1", Samplers: []string{"exp:1"},
		Methods: []string{"M5"}, Ts: []float64{10}, Paths: 1}); !errors.As(err, &oe) {
		t.Errorf("Simulate M5 with exp:1: %v, want an *OptionError", err)
	}
	if _, err := estimator.RecoverF(estimator.ExpCDF("x", 1, estimator.Grid(0.1, 5)), estimator.RecoverOptions{K: 4}); err == nil {
		t.Error("4-point rule accepted")
	}
}

// Simulate's bundle holds no empty table: without M1 and M3 there is no
// model-vs-simulation check, so simulate_checks is left out, while the
// convergence table has one row per method × kind × T (M2: G and F, one T).
func TestSimulateBundleNoEmptyTable(t *testing.T) {
	res, err := Simulate(context.Background(), SimOptions{Update: "exp:1", Samplers: []string{"exp:2"},
		Methods: []string{"M2"}, Ts: []float64{50}, Paths: 2, Seed: 1, Recover: true})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Bundle()
	ids := map[string]int{}
	for _, tb := range b.Tables {
		ids[tb.ID] = len(tb.Rows)
		if len(tb.Rows) == 0 {
			t.Errorf("table %s has no rows", tb.ID)
		}
	}
	if ids["simulate_convergence"] != 2 {
		t.Errorf("convergence rows: %d, want 2 (M2 G and F at one T); tables %v", ids["simulate_convergence"], ids)
	}
}

// obsRecorder keeps copies of the observations.
type obsRecorder struct{ o []estimator.Obs }

func (r *obsRecorder) Observe(o *estimator.Obs) { r.o = append(r.o, *o) }

// The first visit's previous visit is the crawler's virtual one before
// the window, s_1 − S_0 with S_0 the delay s_1 = U·S_0 was drawn from
// (replicated here from the same stream: U first, then S_0), and s_1 − Δ
// for constant delays; later visits have their real predecessor. G-M4's
// first sample is then s_1 − (s_1 − S_0) = S_0.
func TestFirstVisitVirtualPrevious(t *testing.T) {
	for _, spec := range []string{"exp:2", "const:0.3", "pareto:3,1"} {
		s, _ := estimator.ParseSampler(spec)
		r := model.NewRand(5, 6)
		u := r.Float64()
		s0 := s.Delta
		if !s.Constant() {
			s0 = s.Dist.Rand(r)
		}
		rec := &obsRecorder{}
		cfg := estimator.Config{Methods: []string{estimator.MethodGM4}, H: 0.001, XMax: 20}
		if err := cfg.Check(); err != nil {
			t.Fatal(err)
		}
		e := estimator.NewPath(s, &cfg, 40, nil)
		n, err := crawl(&sliceUpdates{t: []float64{0, 5, 40}}, newVisitGen(s, model.NewRand(5, 6)), 40, []estimator.Observer{rec, e}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Finish(n)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.o) < 3 || rec.o[0].S != u*s0 || rec.o[0].Prev != u*s0-s0 {
			t.Fatalf("%s: first visit %g prev %g, want %g and %g", spec, rec.o[0].S, rec.o[0].Prev, u*s0, u*s0-s0)
		}
		for j := 1; j < len(rec.o); j++ {
			if rec.o[j].Prev != rec.o[j-1].S {
				t.Fatalf("%s: visit %d prev %g, want %g", spec, j, rec.o[j].Prev, rec.o[j-1].S)
			}
		}
		// S_0's grid bin ⌈S_0/step − 10⁻⁶⌉: the ECDF must jump there.
		g := res.Est[0].CDF
		b := int(math.Ceil(s0/g.X[1] - 1e-6))
		below := 0.0
		if b > 0 {
			below = g.P[b-1]
		}
		if !(g.P[b] > below) || g.Samples != len(rec.o) {
			t.Errorf("%s: G-M4 has no sample at S_0 = %g (bin %d) or %d samples for %d visits", spec, s0, b, g.Samples, len(rec.o))
		}
	}
}

// The same seed gives the same bits whatever the number of workers: path
// results are folded in job order, not in the order workers finish (sums of
// floats depend on their order; the demo's simulation tables differed in
// the last digit from run to run before).
func TestSimulateBitIdenticalAcrossWorkers(t *testing.T) {
	run := func(workers int) []SimRow {
		res, err := Simulate(context.Background(), SimOptions{Update: "pareto:3,1", Samplers: []string{"const:1", "exp:1"},
			Ts: []float64{100, 1000}, Paths: 12, Seed: 1, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		return res.Rows
	}
	one := run(1)
	for range 3 {
		if many := run(4); fmt.Sprintf("%#v", one) != fmt.Sprintf("%#v", many) { // %#v: every bit of every float
			t.Fatal("1 worker and 4 workers gave different results")
		}
	}
}
