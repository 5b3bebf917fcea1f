package series

import (
	"math"
	"sort"
)

// CDF is a distribution function tabulated on a grid: P[i] = H(X[i]), with X
// ascending. Every estimator of SPEC §4 returns this one shape, and so does
// the ground truth of SPEC §3, so that errors (WMRD, KS) can be computed
// between any two of them.
type CDF struct {
	Method  string    // SPEC name: "M2", "M6", "truth G_U", …
	X       []float64 // grid points, ascending (x_n = nΔ or y_n = nh), in the series' unit
	P       []float64 // values in [0, 1], non-decreasing for a proper CDF
	Samples int       // number of samples (or pairs) the estimate used
}

// At evaluates the CDF as a right-continuous step function through the grid
// points: the value at the largest grid point ≤ x (0 left of the grid).
func (c CDF) At(x float64) float64 { return c.atIndex(sort.SearchFloat64s(c.X, x), x) }

// atIndex is At(x) given i = sort.SearchFloat64s(c.X, x).
func (c CDF) atIndex(i int, x float64) float64 {
	if i < len(c.X) && c.X[i] == x {
		return c.P[i]
	}
	if i == 0 {
		return 0
	}
	return c.P[i-1]
}

// Linear evaluates the CDF by linear interpolation between grid points,
// constant beyond the last one and 0 left of the first one.
func (c CDF) Linear(x float64) float64 {
	n := len(c.X)
	if n == 0 || x < c.X[0] {
		return 0
	}
	if x >= c.X[n-1] {
		return c.P[n-1]
	}
	return c.linearIndex(sort.SearchFloat64s(c.X, x), x)
}

// linearIndex is Linear(x) for X[0] ≤ x < X[n−1], given
// i = sort.SearchFloat64s(c.X, x).
func (c CDF) linearIndex(i int, x float64) float64 {
	if c.X[i] == x {
		return c.P[i]
	}
	x0, x1 := c.X[i-1], c.X[i]
	return c.P[i-1] + (c.P[i]-c.P[i-1])*(x-x0)/(x1-x0)
}

// AtEach is At at every point of xs, and LinearEach is Linear: the same
// values, found by one walk along the grid while xs ascend (O(len(xs) +
// len(X)) instead of a binary search per point). A point below its
// predecessor, a NaN, or a grid that is not ascending (where a binary
// search's answer is not a walk's) is searched as At and Linear do.
func (c CDF) AtEach(xs []float64) []float64 {
	out := make([]float64, len(xs))
	w := c.walk()
	for k, x := range xs {
		out[k] = c.atIndex(w.index(xs, k), x)
	}
	return out
}

// LinearEach: see AtEach.
func (c CDF) LinearEach(xs []float64) []float64 {
	out := make([]float64, len(xs))
	n := len(c.X)
	w := c.walk()
	for k, x := range xs {
		i := w.index(xs, k)
		switch {
		case n == 0 || x < c.X[0]:
			out[k] = 0
		case x >= c.X[n-1]:
			out[k] = c.P[n-1]
		default:
			out[k] = c.linearIndex(i, x)
		}
	}
	return out
}

// gridWalk finds sort.SearchFloat64s(x, xs[k]), the first grid index
// with x[i] ≥ xs[k], for k = 0, 1, …: by walking on from the previous
// point's index while the points ascend on an ascending grid, else by a
// search.
type gridWalk struct {
	x      []float64
	sorted bool
	i      int
}

func (c CDF) walk() gridWalk {
	sorted := len(c.X) != 1 || c.X[0] == c.X[0]
	for i := 1; i < len(c.X) && sorted; i++ {
		sorted = c.X[i-1] <= c.X[i] // false for a NaN too
	}
	return gridWalk{x: c.X, sorted: sorted}
}

func (w *gridWalk) index(xs []float64, k int) int {
	x := xs[k]
	if !w.sorted || x != x || k > 0 && !(x >= xs[k-1]) { // after a NaN too: x ≥ NaN is false
		w.i = sort.SearchFloat64s(w.x, x)
		return w.i
	}
	for w.i < len(w.x) && w.x[w.i] < x {
		w.i++
	}
	return w.i
}

// WMRD is the weighted mean relative difference of SPEC §5 between an
// estimate H and the truth G on common grid points x_n:
// w = Σ_n |H(x_n) − G(x_n)| / Σ_n (H(x_n) + G(x_n))/2.
// It is 0 for identical curves and NaN when both are 0 everywhere, when H
// holds NaN (an undefined estimate), or when the slices are empty or of
// different lengths.
func WMRD(h, g []float64) float64 {
	if len(h) != len(g) || len(h) == 0 {
		return math.NaN()
	}
	num, den := 0.0, 0.0
	for i := range h {
		num += math.Abs(h[i] - g[i])
		den += (h[i] + g[i]) / 2
	}
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

// KS is the Kolmogorov–Smirnov distance of SPEC §5 on common grid points,
// κ = max_n |H(x_n) − G(x_n)|; NaN when H holds NaN or the slices are
// empty or of different lengths.
func KS(h, g []float64) float64 {
	if len(h) != len(g) || len(h) == 0 {
		return math.NaN()
	}
	// math.Max(k, d) over the points, without its call per point: +Inf
	// wins over NaN, NaN over any number.
	k, nan := 0.0, false
	for i := range h {
		d := math.Abs(h[i] - g[i])
		switch {
		case d > k:
			k = d
		case d != d:
			nan = true
		}
	}
	if nan && !math.IsInf(k, 1) {
		return math.NaN()
	}
	return k
}
