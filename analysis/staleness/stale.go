package staleness

import (
	"math"
)

// PhaseAveraged is the exact staleness of a page whose update series has
// the intervals U_1…U_m, for a crawler that visits every Δ with a phase
// uniform on [0, Δ), time-averaged over the observation window
// [u_first, u_last]:
//
//	S(Δ) = Σ_i (m_i − m_i²/(2Δ)) / Σ_i U_i,   m_i = min(U_i, Δ).
//
// Derivation: at a time t the last visit lies V before t with V uniform on
// [0, Δ) (backward recurrence of a grid with uniform phase), and the copy is
// stale iff an update happened in (t − V, t], i.e. iff the age A(t) < V; so
// P(stale at t) = (1 − A(t)/Δ)⁺. Inside an interval of length U_i the age
// runs from 0 to U_i, and ∫_0^{U_i} (1 − a/Δ)⁺ da = m_i − m_i²/(2Δ).
// Equivalently S(Δ) = (1/Δ) ∫_0^Δ G_U(x) dx with G_U the age distribution of
// SPEC §3. It returns NaN when there is no interval or Δ ≤ 0.
func PhaseAveraged(intervals []float64, delta float64) float64 {
	if len(intervals) == 0 || !(delta > 0) {
		return math.NaN()
	}
	var num, den float64
	for _, u := range intervals {
		m := min(u, delta)
		num += m - m*m/(2*delta)
		den += u
	}
	if den <= 0 {
		return math.NaN()
	}
	return num / den
}

// AtPhase is the exact staleness for one visit grid s_k = t_0 + φ + kΔ
// (k ∈ ℤ, so the crawler was already visiting before the window opened):
// the fraction of [t_0, t_last] during which some update lies in
// (last visit ≤ t, t]. An update at the instant of a visit is seen by that
// visit. times are the update times, ascending, in any unit; φ is reduced
// modulo Δ. It returns NaN for fewer than 2 times or Δ ≤ 0.
func AtPhase(times []float64, delta, phase float64) float64 {
	n := len(times)
	if n < 2 || !(delta > 0) {
		return math.NaN()
	}
	t0, T := times[0], times[n-1]
	if T <= t0 {
		return math.NaN()
	}
	phase = math.Mod(phase, delta)
	if phase < 0 {
		phase += delta
	}
	// a is the last visit at or before t0.
	a := t0 + phase
	if phase > 0 {
		a -= delta
	}
	var stale float64
	j := 0
	for a < T {
		for j < n && times[j] <= a {
			j++
		}
		if j == n {
			break
		}
		u := times[j]
		// Jump straight to the visit interval holding u.
		if k := math.Floor((u - a) / delta); k >= 1 {
			a += k * delta
			if u <= a { // rounding put the visit at or past u: u is seen
				continue
			}
		}
		b := a + delta
		if u < b {
			stale += min(b, T) - max(u, t0)
		}
		a = b
	}
	return stale / (T - t0)
}

// Poisson is the staleness an exponential (Poisson) update model with rate
// λ predicts for a visit every Δ with uniform phase:
//
//	S_P(Δ) = 1 − (1 − e^{−λΔ}) / (λΔ),
//
// the formula of PhaseAveraged with G_U(x) = 1 − e^{−λx}.
func Poisson(lambda, delta float64) float64 {
	x := lambda * delta
	if !(x > 0) {
		return math.NaN()
	}
	if x < 1e-4 { // series 1 − (1 − e^{−x})/x = x/2 − x²/6 + x³/24 − …
		return x/2 - x*x/6 + x*x*x/24
	}
	return 1 + math.Expm1(-x)/x
}

// DeltaFor solves S(Δ) = ε for a non-decreasing staleness function S with
// S(0⁺) = 0 and S(∞) = 1, by bracketing from start (doubling or halving)
// and bisection to a relative precision of 1e-10. It returns NaN unless
// 0 < ε < 1.
func DeltaFor(eps float64, s func(delta float64) float64, start float64) float64 {
	if !(eps > 0 && eps < 1) || !(start > 0) {
		return math.NaN()
	}
	lo, hi := start, start
	for i := 0; s(hi) < eps; i++ {
		if i > 2000 {
			return math.Inf(1)
		}
		lo, hi = hi, hi*2
	}
	if lo == hi {
		for i := 0; s(lo) >= eps; i++ {
			if i > 2000 {
				return 0
			}
			hi, lo = lo, lo/2
		}
	}
	for hi-lo > 1e-10*hi {
		mid := (lo + hi) / 2
		if s(mid) < eps {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// ExactDelta is the largest revisit interval Δ whose phase-averaged exact
// staleness (PhaseAveraged) stays at most ε on this update series.
func ExactDelta(intervals []float64, eps float64) float64 {
	mean := 0.0
	for _, u := range intervals {
		mean += u
	}
	if len(intervals) == 0 || mean <= 0 {
		return math.NaN()
	}
	mean /= float64(len(intervals))
	return DeltaFor(eps, func(d float64) float64 { return PhaseAveraged(intervals, d) }, mean)
}

// PoissonDelta is the Δ an exponential model with rate λ needs for
// staleness ε: Δ = x/λ with 1 − (1 − e^{−x})/x = ε.
func PoissonDelta(lambda, eps float64) float64 {
	if !(lambda > 0) {
		return math.NaN()
	}
	x := DeltaFor(eps, func(x float64) float64 { return Poisson(1, x) }, 1)
	return x / lambda
}
