package estimator

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/model"
)

// E[G_U(S)] against closed forms.
func TestKeptFractionClosedForms(t *testing.T) {
	mu := 1.5
	u := model.Exponential{Rate: mu}
	for _, c := range []struct {
		spec string
		want float64
		how  string
	}{
		// U ~ Exp(μ), S ~ Exp(λ): E[1 − e^{−μS}] = μ/(λ+μ).
		{"exp:2", mu / (2 + mu), "μ/(λ+μ)"},
		// S = Δ: G_U(Δ) = 1 − e^{−μΔ}.
		{"const:0.4", 1 - math.Exp(-mu*0.4), "1 − e^{−μΔ}"},
		// S ~ U[0, 2/λ]: E[1 − e^{−μS}] = 1 − (1 − e^{−2μ/λ})/(2μ/λ).
		{"uniform:3", 1 - (1-math.Exp(-2*mu/3))/(2*mu/3), "1 − (1 − e^{−b})/b, b = 2μ/λ"},
	} {
		s, err := ParseSampler(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := KeptFraction(u, s); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("%s: E[G_U(S)] = %.8f, want %.8f (%s)", c.spec, got, c.want, c.how)
		}
		// For exponential U, Ḡ_1(x) = e^{−μx} (M1 is unbiased for Poisson updates).
		for _, x := range []float64{0, 0.3, 1, 3} {
			if got := M1Tail(u, s, x); math.Abs(got-math.Exp(-mu*x)) > 1e-6 {
				t.Errorf("%s: Ḡ_1(%g) = %.8f, want e^{−μx} = %.8f", c.spec, x, got, math.Exp(-mu*x))
			}
		}
	}
	// Pareto delays: E[G_U(S)] = E[1 − e^{−μS}] against a direct Simpson
	// integral of the density of S (a different route to the same number).
	s, _ := ParseSampler("pareto:3,2")
	p := s.Dist.(model.Pareto)
	dens := func(x float64) float64 { return p.Alpha / p.Beta * math.Pow(1+x/p.Beta, -p.Alpha-1) }
	want := simpson(func(x float64) float64 { return (1 - math.Exp(-mu*x)) * dens(x) }, 0, 2000, 400000)
	if got := KeptFraction(u, s); math.Abs(got-want) > 1e-5 {
		t.Errorf("pareto delays: E[G_U(S)] = %.8f, direct integral %.8f", got, want)
	}
}

// M3's limit: for Pareto U with Δ, Ḡ_3(x_n) = (G(x_{n+1}) − G(x_n))/G(Δ)
// and E[D_3] = Δ/G(Δ), with G(x) = 1 − (1 + x/β)^{−(α−1)}.
func TestM3ClosedForms(t *testing.T) {
	u := model.Pareto{Alpha: 3, Beta: 1}
	G := func(x float64) float64 { return 1 - math.Pow(1+x, -2) }
	if got, want := MeanD3(u, 0.5), 0.5/G(0.5); math.Abs(got-want) > 1e-12 {
		t.Errorf("E[D_3] = %g, want %g", got, want)
	}
	if got, want := M3Tail(u, 0.5, 1), (G(1.5)-G(1))/G(0.5); math.Abs(got-want) > 1e-12 {
		t.Errorf("Ḡ_3(1) = %g, want %g", got, want)
	}
	// Σ_n Δ·Ḡ_3(x_n) = E[D_3] (the mean of a lattice variable from its tail).
	sum := 0.0
	for n := 0; n < 200000; n++ {
		sum += 0.5 * M3Tail(u, 0.5, float64(n)*0.5)
	}
	if math.Abs(sum-MeanD3(u, 0.5)) > 1e-4 {
		t.Errorf("Σ Δ Ḡ_3 = %g, E[D_3] = %g", sum, MeanD3(u, 0.5))
	}
}
