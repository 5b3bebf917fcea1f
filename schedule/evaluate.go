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
// is fresh. A page not visited at all (Δ = +Inf) keeps the copy the
// crawler took last before the window, at t0: fresh until its first update
// after t0 (the limit Δ → ∞ of the uniform phase would instead make it
// stale from any update before t0, which no crawler that stopped visiting
// a page at t0 sees). It returns NaN for an empty window or Δ ≤ 0.
func Realized(times []float64, t0, t1, delta float64) float64 {
	if !(t1 > t0) || !(delta > 0) {
		return math.NaN()
	}
	if math.IsInf(delta, 1) {
		j := sort.Search(len(times), func(k int) bool { return times[k] > t0 })
		if j == len(times) || times[j] >= t1 {
			return 1
		}
		return (times[j] - t0) / (t1 - t0)
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
			stale += (q - p) - (q*q-p*p)/(2*delta)
		}
	}
	return 1 - stale/(t1-t0)
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
