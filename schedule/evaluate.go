package schedule

import (
	"math"
	"sort"
)

// Realized is the exact realised freshness, over the window [t0, t1), of
// a page whose true updates happened at times (ascending; updates before
// t0 count, they set the age at t0) when it is visited every Δ with a
// phase uniform on [0, Δ): the time average of P(fresh at t).
//
// At time t the last visit lies V before t with V uniform on [0, Δ), and
// the copy is stale iff an update fell in (t − V, t], i.e. iff the age
// A(t) = t − (last update ≤ t) is below V: P(stale at t) = (1 − A(t)/Δ)⁺.
// Between consecutive updates u_j ≤ t < u_{j+1} the age is t − u_j, so a
// stretch [a, b] contributes ∫ (1 − s/Δ) ds over s ∈ [a − u_j, b − u_j]
// ∩ [0, Δ] = (q − p) − (q² − p²)/(2Δ). Before the first update the copy
// is fresh (there is nothing to miss). It is 1 − (1/Δ)∫₀^Δ Ĝ over the
// window's time-average age distribution Ĝ (WindowCurve): the Freshness
// of that curve, for any sequence of updates. A page not visited at all
// (Δ = +Inf, the limit) has no copy: it is stale from its first update
// on. It returns NaN for an empty window or Δ ≤ 0.
func Realized(times []float64, t0, t1, delta float64) float64 {
	if !(t1 > t0) || !(delta > 0) {
		return math.NaN()
	}
	j := sort.SearchFloat64s(times, t0) // first update ≥ t0
	// The last update ≤ t0, if any, starts the first stretch.
	if j < len(times) && times[j] == t0 {
		j++
	}
	j-- // times[j] ≤ t0 (j = −1: none)
	stale := 0.0
	for ; j < len(times); j++ {
		var u float64
		a := t0
		if j >= 0 {
			u = times[j]
			if u >= t1 {
				break
			}
			a = math.Max(t0, u)
		}
		b := t1
		if j+1 < len(times) {
			b = math.Min(t1, times[j+1])
		}
		if j < 0 || b <= a {
			continue
		}
		p := a - u
		q := b - u
		if q > delta {
			q = delta
		}
		if q > p {
			stale += (q - p) - (q*q-p*p)/(2*delta) // Δ = +Inf: q − p
		}
	}
	return 1 - stale/(t1-t0)
}

// PageFreshness is each page's realised freshness (Realized) under the
// rates f (per unit) over [t0, t1).
func PageFreshness(times [][]float64, f []float64, t0, t1 float64) []float64 {
	out := make([]float64, len(times))
	for i, ts := range times {
		out[i] = Realized(ts, t0, t1, 1/f[i])
	}
	return out
}

// PlanFreshness is the importance-weighted mean realised freshness
// Σ w_i Realized_i / Σ w_i of a plan (rates f, per unit) on true update
// times over [t0, t1); w nil means 1 for every page. Pages with a NaN
// result (none here for t1 > t0) are left out.
func PlanFreshness(times [][]float64, f, w []float64, t0, t1 float64) float64 {
	num, den := 0.0, 0.0
	for i, ts := range times {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		r := Realized(ts, t0, t1, 1/f[i])
		if math.IsNaN(r) || wi == 0 {
			continue
		}
		num += wi * r
		den += wi
	}
	return num / den
}
