package staleness

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/model"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// Hand-built series: updates at 0, 1, 4, 10 (intervals 1, 3, 6; T = 10).
func TestHandBuilt(t *testing.T) {
	times := []float64{0, 1, 4, 10}
	u := []float64{1, 3, 6}
	cases := []struct {
		name string
		got  float64
		want float64
	}{
		// Δ = 2: m = 1, 2, 2; m − m²/4 = 0.75, 1, 1; Σ = 2.75; / 10.
		{"phase-averaged Δ=2", PhaseAveraged(u, 2), 0.275},
		// Δ = 20 (> every U): Σ(U − U²/40) = (1−1/40)+(3−9/40)+(6−36/40) = 10 − 46/40 = 8.85; / 10.
		{"phase-averaged Δ=20", PhaseAveraged(u, 20), 0.885},
		// Δ = 0.5 (< every U): each interval gives 0.5 − 0.25/1 = 0.25; 3·0.25/10.
		{"phase-averaged Δ=0.5", PhaseAveraged(u, 0.5), 0.075},
		// Phase 0, visits 0,2,4,…: only [0,2) is stale from the update at 1 → 1/10.
		{"phase 0, Δ=2", AtPhase(times, 2, 0), 0.1},
		// Phase 1, visits −1,1,3,5,…: stale [0,1) (update at 0 after visit −1)
		// and [4,5) (update at 4 after visit 3); update 10 at the window end adds 0 → 2/10.
		{"phase 1, Δ=2", AtPhase(times, 2, 1), 0.2},
		// Phase 0.5, visits 0.5, 2.5, 4.5, …: stale [0,0.5), [1,2.5), [4,4.5) → 2.5/10.
		{"phase 0.5, Δ=2", AtPhase(times, 2, 0.5), 0.25},
		// Visiting at exactly every update instant never leaves the copy stale
		// except between visits: Δ = 1, phase 0 hits 0,1,4,10 → 0.
		{"phase 0, Δ=1", AtPhase(times, 1, 0), 0},
		// Poisson λΔ = 1: 1 − (1 − e^{−1}) = e^{−1}.
		{"Poisson λΔ=1", Poisson(1, 1), math.Exp(-1)},
		// Poisson λΔ = 2: 1 − (1 − e^{−2})/2 = (1 + e^{−2})/2.
		{"Poisson λΔ=2", Poisson(0.5, 4), (1 + math.Exp(-2)) / 2},
	}
	for _, c := range cases {
		if !near(c.got, c.want, 1e-12) {
			t.Errorf("%s = %.15g, want %.15g", c.name, c.got, c.want)
		}
	}
}

// The phase average of AtPhase is PhaseAveraged. AtPhase is piecewise
// linear in the phase, so the midpoint rule on 4,000 phases is within 1e-6.
func TestPhaseAverageMatchesClosedForm(t *testing.T) {
	rng := model.NewRand(3, 0)
	times := []float64{0}
	for i := 0; i < 60; i++ {
		times = append(times, times[len(times)-1]+model.Pareto{Alpha: 1.5, Beta: 1}.Rand(rng))
	}
	u := make([]float64, len(times)-1)
	for i := range u {
		u[i] = times[i+1] - times[i]
	}
	for _, d := range []float64{0.3, 1, 2.7, 10} {
		const m = 4000
		avg := 0.0
		for k := 0; k < m; k++ {
			avg += AtPhase(times, d, (float64(k)+0.5)/m*d)
		}
		avg /= m
		if want := PhaseAveraged(u, d); !near(avg, want, 1e-4) {
			t.Errorf("Δ=%g: mean over phases %.8f, closed form %.8f", d, avg, want)
		}
	}
}

// For exponential intervals the exact staleness and the Poisson formula
// agree: S = A/B with A = mean of f(U) = m − m²/2Δ, B = mean of U. The
// tolerance is 4 standard errors of the ratio by the delta method,
// Var(A/B) ≈ Var(f − S·U)/(n·E[U]²), estimated from the sample.
func TestExponentialAgrees(t *testing.T) {
	rng := model.NewRand(11, 0)
	const n = 20000
	u := make([]float64, n)
	for i := range u {
		u[i] = rng.ExpFloat64() // rate 1
	}
	mean := 0.0
	for _, x := range u {
		mean += x
	}
	mean /= n
	for _, d := range []float64{0.2, 1, 5} {
		s := PhaseAveraged(u, d)
		var v float64
		for _, x := range u {
			m := math.Min(x, d)
			r := m - m*m/(2*d) - s*x
			v += r * r
		}
		se := math.Sqrt(v/n) / (mean * math.Sqrt(n))
		p := Poisson(1/mean, d) // the Poisson model with the sample's rate
		if !near(s, p, 4*se) {
			t.Errorf("Δ=%g: exact %.5f, Poisson %.5f, tolerance 4·%.5f", d, s, p, se)
		}
		// Δ_ε agree as well: S is steep enough that a 4-SE band on S maps
		// to a few per cent on Δ; check within 5 %.
		de, dp := ExactDelta(u, 0.1), PoissonDelta(1/mean, 0.1)
		if math.Abs(de/dp-1) > 0.05 {
			t.Errorf("Δ_0.1: exact %.5f, Poisson %.5f", de, dp)
		}
	}
}

// For Lomax (Pareto II) intervals F̄(x) = (1 + x/β)^{−α}, the age law is
// G(x) = 1 − (1 + x/β)^{−(α−1)} and, since ln(1 + y) ≤ y,
// G(x) ≤ 1 − e^{−λx} with λ = (α−1)/β = 1/E[U]: the age is stochastically
// larger than under Poisson. S(Δ) = (1/Δ)∫_0^Δ G, so the real staleness is
// LOWER than the Poisson prediction at the same rate (updates come in
// bursts that one visit catches together, separated by long quiet spells
// when the copy stays fresh), and the Δ that keeps staleness ≤ ε is LONGER:
// a Poisson-planned crawler over-provisions. Closed form:
// S(Δ) = 1 − β/((α−2)Δ) · (1 − (1 + Δ/β)^{−(α−2)}) for α ≠ 2.
func TestParetoDirection(t *testing.T) {
	const alpha, beta = 2.5, 1.5 // E[U] = 1, finite variance
	rng := model.NewRand(12, 0)
	const n = 200000
	u := make([]float64, n)
	mean := 0.0
	for i := range u {
		u[i] = model.Pareto{Alpha: alpha, Beta: beta}.Rand(rng)
		mean += u[i]
	}
	mean /= n
	for _, d := range []float64{0.5, 1, 3} {
		s := PhaseAveraged(u, d)
		theory := 1 - beta/((alpha-2)*d)*(1-math.Pow(1+d/beta, -(alpha-2)))
		if !near(s, theory, 0.01) {
			t.Errorf("Δ=%g: exact %.4f, Lomax closed form %.4f", d, s, theory)
		}
		// The gap has the sign theory gives and about its size
		// (Poisson(1, Δ) − closed form: 0.017 at Δ = 0.5, 0.044 at 3).
		p := Poisson(1/mean, d)
		if gap, want := p-s, Poisson(1, d)-theory; !(gap > 0) || !near(gap, want, 0.01) {
			t.Errorf("Δ=%g: Poisson − exact = %.4f, theory %.4f", d, gap, want)
		}
	}
	lomax := func(d float64) float64 { return 1 - beta/((alpha-2)*d)*(1-math.Pow(1+d/beta, -(alpha-2))) }
	for _, eps := range []float64{0.1, 0.3} {
		de, dp := ExactDelta(u, eps), PoissonDelta(1/mean, eps)
		dt := DeltaFor(eps, lomax, 1)
		if !(de > dp) || math.Abs(de/dt-1) > 0.03 {
			t.Errorf("Δ_%g: exact %.4f, Lomax theory %.4f, Poisson %.4f: want exact ≈ theory > Poisson", eps, de, dt, dp)
		}
	}
}

// DeltaFor inverts the Poisson formula: S(x) at the solution is ε, and the
// hand-built series' Δ for ε = 0.275 is 2 (first case of TestHandBuilt).
func TestDeltaFor(t *testing.T) {
	for _, eps := range []float64{0.01, 0.1, 0.5, 0.9} {
		d := PoissonDelta(2, eps)
		if !near(Poisson(2, d), eps, 1e-9) {
			t.Errorf("ε=%g: S(Δ=%g) = %g", eps, d, Poisson(2, d))
		}
	}
	if d := ExactDelta([]float64{1, 3, 6}, 0.275); !near(d, 2, 1e-8) {
		t.Errorf("hand-built Δ for ε=0.275 = %g, want 2", d)
	}
	if d := PoissonDelta(1, 1.5); !math.IsNaN(d) {
		t.Errorf("ε ≥ 1 should be NaN, got %g", d)
	}
}
