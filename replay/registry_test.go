package replay

import (
	"math"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/model"
)

// checkMethod is the shared harness every registered method passes (as
// gonum's distuv tests every distribution with one harness): replayed on
// a Pareto page (α = 3, β = 2: E[U] = 1 h) and a Poisson page (rate 1/h),
// 4,000 updates each, by a constant and a random crawler at 20 visits per
// hour, its rows must
//   - exist exactly when it is applicable (ConstantOnly: constant delays
//     only), G and F for a Baseline, G (and F when Recoverable) otherwise;
//   - lie on the crawler's grid, with values in [0, 1] (not necessarily
//     monotone: M6 is a ratio, F_U a numerical derivative);
//   - be close to the truth when the class says so: an Unbiased G_U within
//     KS 0.035 of the Pareto page's own G_U (M6 with random delays at
//     h = 0.05 is at 0.025; the biased M1 and M3 are at 0.13, G-M4 at
//     0.043), a Baseline rate within 10 % of the Poisson page's rate 1
//     (on a Poisson page every baseline is consistent).
func checkMethod(t *testing.T, reg estimator.Registry, m estimator.Method, pareto, poisson []float64) {
	t.Helper()
	page := pareto
	if m.Class == estimator.Baseline {
		page = poisson
	}
	for _, spec := range []string{"const:0.05", "exp:20"} {
		s, err := estimator.ParseSampler(spec)
		if err != nil {
			t.Fatal(err)
		}
		cfg := estimator.Config{Methods: []string{m.Name}, H: 0.05, XMax: 4, Recover: true, Registry: reg}
		est, err := ReplayTimes(page, s, model.NewRand(3, 4), cfg)
		if err != nil {
			t.Fatalf("%s on %s: %v", m.Name, spec, err)
		}
		var truth *estimator.Estimate
		var kinds []string
		for i := range est {
			e := &est[i]
			if e.Method == estimator.MethodTruth && e.Kind == estimator.KindG {
				truth = e
			}
			if e.Method == m.Name {
				kinds = append(kinds, e.Kind)
			}
			if e.Constant != s.Constant() {
				t.Errorf("%s on %s: row %s %s says constant %v", m.Name, spec, e.Method, e.Kind, e.Constant)
			}
		}
		var want []string
		switch {
		case m.ConstantOnly && !s.Constant():
		case m.Class == estimator.Baseline:
			want = []string{estimator.KindG, estimator.KindF}
		case m.Recoverable:
			want = []string{estimator.KindG, estimator.KindF}
		default:
			want = []string{estimator.KindG}
		}
		if !slices.Equal(kinds, want) {
			t.Errorf("%s on %s: rows %v, want %v", m.Name, spec, kinds, want)
		}
		for _, e := range est {
			if e.Method != m.Name {
				continue
			}
			if !slices.Equal(e.CDF.X, truth.CDF.X) {
				t.Errorf("%s %s on %s: not on the grid", m.Name, e.Kind, spec)
			}
			for i, p := range e.CDF.P {
				if !(p >= 0 && p <= 1) {
					t.Errorf("%s %s on %s: P[%d] = %g", m.Name, e.Kind, spec, i, p)
					break
				}
			}
			if e.Kind != estimator.KindG {
				continue
			}
			switch m.Class {
			case estimator.Unbiased:
				if d := ks(e.CDF.P, truth.CDF.P); !(d < 0.035) {
					t.Errorf("%s on %s: KS %g from the true G_U, want < 0.035 (unbiased)", m.Name, spec, d)
				}
			case estimator.Baseline:
				if math.Abs(e.Rate-1) > 0.1 {
					t.Errorf("%s on %s: λ̂ = %g, want 1 ± 10 %%", m.Name, spec, e.Rate)
				}
			}
		}
	}
}

func poissonPage(n int) []float64 {
	r := model.NewRand(1, 2)
	t := []float64{0}
	for len(t) < n {
		t = append(t, t[len(t)-1]+r.ExpFloat64())
	}
	return t
}

func paretoPage(n int) []float64 {
	u := model.Pareto{Alpha: 3, Beta: 2}
	r := model.NewRand(1, 3)
	t := []float64{0}
	for len(t) < n {
		t = append(t, t[len(t)-1]+u.Rand(r))
	}
	return t
}

func TestRegistryHarness(t *testing.T) {
	pareto, poisson := paretoPage(4000), poissonPage(4000)
	var reg estimator.Registry
	for _, m := range reg.Methods() {
		t.Run(m.Name, func(t *testing.T) { checkMethod(t, reg, m, pareto, poisson) })
	}
}

// The table holds each fact once; these are the facts docs/methods.md
// states (constant delays for M3, M4, M5, cho and matloff; ages for M1,
// M2 and age-mle; F_U recovered from M2, M4, M5, M6; step estimates M3,
// M4, M5, G-M4, M6).
func TestRegistryTable(t *testing.T) {
	var reg estimator.Registry
	var constOnly, age, rec, step []string
	for _, m := range reg.Methods() {
		if m.ConstantOnly {
			constOnly = append(constOnly, m.Name)
		}
		if m.Observes == estimator.Age {
			age = append(age, m.Name)
		}
		if m.Recoverable {
			rec = append(rec, m.Name)
		}
		if m.Step {
			step = append(step, m.Name)
		}
	}
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"constant only", constOnly, []string{"M3", "M4", "M5", "cho", "matloff"}},
		{"ages", age, []string{"M1", "M2", "age-mle"}},
		{"recoverable", rec, []string{"M2", "M4", "M5", "M6"}},
		{"step", step, []string{"M3", "M4", "M5", "G-M4", "M6"}},
		{"all", reg.Names(), []string{"M1", "M2", "M3", "M4", "M5", "G-M4", "M6", "naive", "cho", "matloff", "age-mle", "poisson-mle"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	if _, err := reg.With(estimator.Method{Name: "m4", Class: estimator.Biased, New: func(*estimator.Crawl) estimator.Estimator { return nil }}); err == nil {
		t.Error("a second M4 (any case) was accepted")
	}
	if _, err := reg.With(estimator.Method{Name: "M9", Aliases: []string{"cgm"}, Class: estimator.Biased, New: func(*estimator.Crawl) estimator.Estimator { return nil }}); err == nil {
		t.Error("an alias of cho was accepted")
	}
	if _, err := reg.With(estimator.Method{Name: "M9"}); err == nil {
		t.Error("a method without class or constructor was accepted")
	}
}
