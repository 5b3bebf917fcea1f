package transform

import (
	"slices"
	"sort"

	"github.com/revisit-dev/revisit/series"
)

// IntervalCDF is the empirical inter-update distribution of a sample path,
// F_U(x) = #{U_i ≤ x} / n, evaluated on grid (SPEC §3). It is exact for
// the path: no estimate is involved.
func IntervalCDF(intervals, grid []float64) series.CDF {
	u := slices.Clone(intervals)
	slices.Sort(u)
	p := make([]float64, len(grid))
	n := float64(len(u))
	for i, x := range grid {
		if n > 0 {
			p[i] = float64(upperBound(u, x)) / n
		}
	}
	return series.CDF{Method: "truth F_U", X: slices.Clone(grid), P: p, Samples: len(u)}
}

// AgeCDF is the age (residual) distribution of a sample path, the fraction
// of time the age is ≤ x: G_U(x) = Σ_i min(U_i, x) / Σ_i U_i (SPEC §3),
// evaluated on grid by Age in O(n log n + len(grid)).
func AgeCDF(intervals, grid []float64) series.CDF {
	a := NewAge(intervals)
	return series.CDF{Method: "truth G_U", X: slices.Clone(grid), P: a.At(grid), Samples: len(a.u)}
}

// Age is the exact G_U(x) = Σ_i min(U_i, x) / Σ_i U_i of fixed intervals
// (SPEC §3) prepared once — sorted, with prefix sums — for many
// evaluations (one page's many estimate rows): at ascending points a
// merge walk costs O(n + m) instead of a sort per call.
type Age struct {
	u      []float64 // sorted
	prefix []float64 // prefix[k] = u[0] + … + u[k−1]
}

// NewAge prepares the intervals (copied: the caller's slice is left as is).
func NewAge(intervals []float64) *Age {
	u := slices.Clone(intervals)
	slices.Sort(u)
	prefix := make([]float64, len(u)+1)
	for i, v := range u {
		prefix[i+1] = prefix[i] + v
	}
	return &Age{u: u, prefix: prefix}
}

// At evaluates G_U at xs (ascending for the merge walk; a point below its
// predecessor is searched afresh): with k = #{U_i ≤ x}, the intervals
// ≤ x contribute themselves and the others x each:
// G_U(x) = (prefix[k] + (n − k)·x) / prefix[n]; 0 for x ≤ 0 or no time.
func (a *Age) At(xs []float64) []float64 {
	n := len(a.u)
	total := a.prefix[n]
	g := make([]float64, len(xs))
	k := 0
	for i, x := range xs {
		if total <= 0 || x <= 0 {
			continue
		}
		if i > 0 && x < xs[i-1] { // not ascending: search afresh
			k = upperBound(a.u, x)
		}
		for k < n && a.u[k] <= x {
			k++
		}
		g[i] = (a.prefix[k] + float64(n-k)*x) / total
	}
	return g
}

// MeanInterval is E[U] of the path, Σ U_i / n (0 for no intervals).
func MeanInterval(intervals []float64) float64 {
	if len(intervals) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range intervals {
		s += v
	}
	return s / float64(len(intervals))
}

// upperBound is the number of elements of sorted u that are ≤ x.
func upperBound(u []float64, x float64) int {
	return sort.Search(len(u), func(i int) bool { return u[i] > x })
}

// AgeQuantile is the q-quantile of the path's age distribution G_U, the
// smallest x with G_U(x) = Σ_i min(U_i, x)/Σ_i U_i ≥ q, for 0 < q ≤ 1.
// G_U is continuous and piecewise linear with knots at the sorted
// intervals U_(k): on [U_(k), U_(k+1)] it is (P_k + (n − k)x)/ΣU with
// P_k = Σ_{i≤k} U_(i), so x = (q·ΣU − P_k)/(n − k) on the first segment
// that reaches q; O(n log n). It is 0 when there is no positive interval.
func AgeQuantile(intervals []float64, q float64) float64 {
	u := slices.Clone(intervals)
	slices.Sort(u)
	total := 0.0
	for _, v := range u {
		total += v
	}
	if !(total > 0) || !(q > 0) {
		return 0
	}
	q = min(q, 1)
	target := q * total
	n := len(u)
	prefix := 0.0 // P_k, the sum of the k smallest intervals
	for k := 0; k < n; k++ {
		// G_U(U_(k+1))·ΣU = P_k + (n − k)·U_(k+1)
		if prefix+float64(n-k)*u[k] >= target {
			return max(0, (target-prefix)/float64(n-k))
		}
		prefix += u[k]
	}
	return u[n-1]
}
