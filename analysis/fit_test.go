package analysis

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/model"
)

func draw(d model.Dist, n int, seed uint64) []float64 {
	r := model.NewRand(seed, 1)
	x := make([]float64, n)
	for i := range x {
		x[i] = d.Rand(r)
	}
	return x
}

// TestFitRecovery draws n = 20,000 values from known distributions
// (model.Dist.Rand, seeded) and checks that the MLE recovers the
// parameters and that the lowest AIC picks the true family. Tolerances are
// about 4 asymptotic standard errors at this n (e.g. exponential λ: SE =
// λ/√n ≈ 0.7 %; lognormal σ: σ/√(2n) ≈ 0.5 %; Weibull k: ≈ 0.78k/√n ≈ 0.55 %;
// Lomax α: the α–β correlation inflates it to a few %, 12 % is allowed).
func TestFitRecovery(t *testing.T) {
	const n = 20000
	cases := []struct {
		d      model.Dist
		family string
		want   []float64
		tol    []float64 // relative
	}{
		{model.Exponential{Rate: 0.25}, FamilyExponential, []float64{0.25}, []float64{0.03}},
		{model.Pareto{Alpha: 2.5, Beta: 3}, FamilyPareto, []float64{2.5, 3}, []float64{0.12, 0.15}},
		{model.Pareto{Alpha: 1.2, Beta: 0.5}, FamilyPareto, []float64{1.2, 0.5}, []float64{0.08, 0.1}},
		{model.Weibull{K: 0.6, Scale: 5}, FamilyWeibull, []float64{0.6, 5}, []float64{0.025, 0.04}},
		{model.Weibull{K: 2, Scale: 0.3}, FamilyWeibull, []float64{2, 0.3}, []float64{0.025, 0.02}},
		{model.Lognormal{Mu: 1, Sigma: 1.2}, FamilyLognormal, []float64{1, 1.2}, []float64{0.04, 0.025}},
	}
	for i, c := range cases {
		x := draw(c.d, n, uint64(100+i))
		fits, err := FitAll(x)
		if err != nil {
			t.Fatalf("%v: %v", c.d, err)
		}
		if fits[0].Family != c.family {
			t.Errorf("%v: best AIC family %s (AIC %.1f), want %s", c.d, fits[0].Family, fits[0].AIC, c.family)
		}
		for _, f := range fits {
			if f.Family != c.family {
				continue
			}
			for j, p := range f.Params {
				if math.Abs(p.Value-c.want[j]) > c.tol[j]*c.want[j] {
					t.Errorf("%v: %s = %.4f, want %.4f ± %.0f%%", c.d, p.Name, p.Value, c.want[j], 100*c.tol[j])
				}
			}
			// The KS distance of the true family's fit is of the order of
			// the sampling noise, 1.36/√n ≈ 0.0096 at the 5 % level.
			if f.KS > 0.0096 {
				t.Errorf("%v: KS of the %s fit = %.4f > 1.36/√n", c.d, f.Family, f.KS)
			}
			t.Logf("%v: %s %s KS=%.4f AIC=%.1f", c.d, f.Family, f.ParamString(), f.KS, f.AIC)
		}
	}
}

// TestFitExponentialHand checks the closed forms on a sample worked by
// hand: x = 1, 2, 3 → λ̂ = 3/6 = 0.5, ℓ = 3 ln 0.5 − 3 = −5.0794415;
// ln x = 0, ln 2, ln 3 → μ̂ = ln 6 / 3 = 0.5972532.
func TestFitExponentialHand(t *testing.T) {
	x := []float64{1, 2, 3}
	f, err := FitExponential(x)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.Params[0].Value-0.5) > 1e-15 || math.Abs(f.LogLik-(3*math.Log(0.5)-3)) > 1e-12 {
		t.Errorf("exponential fit %+v", f)
	}
	// KS: F(x) = 1 − e^{−x/2} at 1, 2, 3 = 0.39347, 0.63212, 0.77687; the
	// ECDF steps are 1/3, 2/3, 1 → D = max(0.39347−0, 1/3−0.39347,
	// 0.63212−1/3, 2/3−0.63212, 0.77687−2/3, 1−0.77687) = 0.39347.
	if math.Abs(f.KS-(1-math.Exp(-0.5))) > 1e-12 {
		t.Errorf("KS = %.6f, want 0.393469", f.KS)
	}
	l, err := FitLognormal(x)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(l.Params[0].Value-math.Log(6)/3) > 1e-12 {
		t.Errorf("lognormal μ = %g, want ln6/3", l.Params[0].Value)
	}
	for _, bad := range [][]float64{nil, {1}, {1, 0}, {1, -2}, {1, math.NaN()}} {
		if _, err := FitAll(bad); err == nil {
			t.Errorf("FitAll(%v): no error", bad)
		}
	}
}

// TestFitParetoLightTail: for exponential data the Lomax MLE runs off to
// β → ∞ (Boundary) and its likelihood equals the exponential's (within
// 0.01 %), so AIC (one more parameter) prefers the exponential.
func TestFitParetoLightTail(t *testing.T) {
	x := draw(model.Exponential{Rate: 1}, 5000, 9)
	p, _ := FitPareto(x)
	e, _ := FitExponential(x)
	if p.LogLik < e.LogLik-1e-4*math.Abs(e.LogLik) {
		t.Errorf("Lomax ℓ %.3f below exponential ℓ %.3f", p.LogLik, e.LogLik)
	}
	if p.AIC <= e.AIC-2 {
		t.Errorf("Lomax AIC %.2f clearly better than exponential %.2f on exponential data", p.AIC, e.AIC)
	}
}
