package estimator

import (
	"math"

	"github.com/revisit-dev/revisit/model"
)

// Closed forms of SPEC §4.1 for a renewal update process with intervals
// from u and a crawler with delays from s, used by Simulate to check the
// simulations against the model.

// ExpectG is E[G_U(x + S)] = G_U(x) + (1/E[U]) ∫_0^∞ F̄_S(s) F̄_U(x + s) ds
// (integrating E[G_U(x+S)] − G_U(x) = E ∫_x^{x+S} g_U by parts, with
// g_U = F̄_U/E[U]). Constant S is exact: G_U(x + Δ); uniform S integrates
// over its support; otherwise Simpson's rule on s = t/(1−t)·E[S].
func ExpectG(u model.Dist, s Sampler, x float64) float64 {
	if s.Constant() {
		return u.AgeCDF(x + s.Delta)
	}
	mu := u.Mean()
	f := func(v float64) float64 { return (1 - s.Dist.CDF(v)) * (1 - u.CDF(x+v)) / mu }
	var integral float64
	if un, ok := s.Dist.(model.Uniform); ok {
		integral = simpson(f, un.A, un.B, 1000) // F̄_S = 1 on [0, A]: below
		if un.A > 0 {
			integral += simpson(func(v float64) float64 { return (1 - u.CDF(x+v)) / mu }, 0, un.A, 2000)
		}
	} else {
		scale := 1 / s.Rate
		g := func(t float64) float64 {
			if t >= 1 {
				return 0
			}
			v := t / (1 - t) * scale
			r := f(v) * scale / ((1 - t) * (1 - t))
			if math.IsNaN(r) || math.IsInf(r, 0) {
				return 0
			}
			return r
		}
		integral = simpson(g, 0, 1, 1000)
	}
	return u.AgeCDF(x) + integral
}

// KeptFraction is M1's p = P(R_U < S) = E[G_U(S)] (SPEC §4.1).
func KeptFraction(u model.Dist, s Sampler) float64 { return ExpectG(u, s, 0) }

// M1Tail is Ḡ_1(x) = E[G_U(x+S) − G_U(x)] / E[G_U(S)], the survival
// function M1's kept ages converge to.
func M1Tail(u model.Dist, s Sampler, x float64) float64 {
	return (ExpectG(u, s, x) - u.AgeCDF(x)) / KeptFraction(u, s)
}

// M3Tail is Ḡ_3(x_n) = (G_U(x_{n+1}) − G_U(x_n)) / G_U(Δ), the survival
// function of M3's samples for constant delays Δ.
func M3Tail(u model.Dist, delta, x float64) float64 {
	return (u.AgeCDF(x+delta) - u.AgeCDF(x)) / u.AgeCDF(delta)
}

// MeanD3 is E[D_3] = Δ / G_U(Δ), the mean of M3's samples.
func MeanD3(u model.Dist, delta float64) float64 { return delta / u.AgeCDF(delta) }

// simpson integrates f over [a, b] with n (even) panels.
func simpson(f func(float64) float64, a, b float64, n int) float64 {
	if n%2 == 1 {
		n++
	}
	h := (b - a) / float64(n)
	s := f(a) + f(b)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(a+float64(i)*h)
	}
	return s * h / 3
}
