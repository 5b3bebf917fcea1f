package schedule

import "math"

// Freshness is the time-averaged freshness of a page visited every Δ at a
// phase independent of its updates, for a stationary renewal process with
// age distribution G (piecewise linear through (0, 0) and the knots x with
// values g, extended with its last slope up to 1):
//
//	φ(Δ) = (1/Δ) ∫₀^Δ (1 − G(t)) dt.
//
// At time t after a visit the copy is fresh iff no update fell in
// (visit, visit + t], i.e. iff the residual life R (time to the next
// update) at the visit exceeds t; for a stationary renewal process seen
// at an independent time R has the age distribution G_U, so
// P(fresh at t) = 1 − G_U(t). Δ = +Inf gives the limit 1 − G(∞); Δ ≤ 0
// gives 1.
func Freshness(x, g []float64, delta float64) float64 {
	if !(delta > 0) {
		return 1
	}
	px, pg, s := 0.0, 0.0, 0.0
	var gv, h float64
	for k := range g {
		if x[k] > px {
			s = (g[k] - pg) / (x[k] - px)
		}
		if delta <= x[k] {
			_, h = segment(gv, h, s, delta-px)
			return h / delta
		}
		gv, h = segment(gv, h, s, x[k]-px)
		px, pg = x[k], g[k]
	}
	if math.IsInf(delta, 1) {
		if s > 0 {
			return 0
		}
		return 1 - gv
	}
	_, h = segment(gv, h, s, delta-px)
	return h / delta
}

// freshnessD is Freshness from the D values of ToD.
func freshnessD[T real](x, d []T, delta float64) float64 {
	if !(delta > 0) {
		return 1
	}
	if math.IsInf(delta, 1) {
		g, _ := gAt(x, d, math.MaxFloat64)
		return 1 - g
	}
	_, h := gAt(x, d, delta)
	return h / delta
}

// PoissonFreshness is φ for Poisson updates of rate λ (Cho and
// Garcia-Molina): G(t) = 1 − e^{−λt}, φ(Δ) = (1 − e^{−λΔ})/(λΔ).
// λΔ = 0 gives 1 and Δ = +Inf gives 0.
func PoissonFreshness(lambda, delta float64) float64 {
	x := lambda * delta
	switch {
	case math.IsInf(x, 1):
		return 0
	case !(x > 0):
		return 1
	case x < 1e-8:
		return 1 - x/2
	}
	return -math.Expm1(-x) / x
}
