package estimates

import (
	"fmt"
	"math"
	"strings"

	"github.com/revisit-dev/revisit/estimator"
)

// Curves is what curve a row of estimates.parquet keeps.
type Curves string

const (
	// CurvesCompact keeps Knots points of each curve (Compact): a few
	// hundred bytes a row instead of the whole grid, whose error
	// against the truth is stored beside it.
	CurvesCompact Curves = "compact"
	// CurvesFull keeps every grid point.
	CurvesFull Curves = "full"
)

// ParseCurves reads a --curves value.
func ParseCurves(s string) (Curves, error) {
	switch c := Curves(strings.ToLower(s)); c {
	case CurvesCompact, CurvesFull:
		return c, nil
	}
	return "", fmt.Errorf("--curves %q: want compact or full", s)
}

// Knots is the number of points of a compact curve.
const Knots = 32

// KnotIndices is the indices into a grid of points values x_0 … x_n kept
// by a compact curve of k ≥ 3 knots: i_0 = 0, i_{k−1} = n and, between,
// i_j = min(n − (k−1−j), max(round(n^{(j−1)/(k−2)}), i_{j−1} + 1)): a grid
// x_i = iΔ is sampled at x_0 = 0 and log-spaced x from Δ to x_max (one
// step apart where log spacing would repeat an index), k distinct indices
// ascending. A grid of at most k points is kept whole.
func KnotIndices(points, k int) []int {
	idx := make([]int, min(points, k))
	if points <= k {
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	n := points - 1
	ln := math.Log(float64(n))
	for j := 1; j < k; j++ {
		i := int(math.Round(math.Exp(ln * float64(j-1) / float64(k-2))))
		i = min(n-(k-1-j), max(i, idx[j-1]+1))
		idx[j] = i
	}
	return idx
}

// Compact replaces the curve of every row of est whose grid has more than
// knots points by its values at KnotIndices (the rows of one page ×
// sampler share their grid, so they share their knots) and marks it
// Compact. Rows without a curve (Poisson baselines) and short grids are
// left as they are. The values kept are the estimate's own at those grid
// points, bit for bit; their errors must have been stored first
// (estimator.StoreErrors).
func Compact(est []estimator.Estimate, knots int) {
	for i := range est {
		c := &est[i].CDF
		if len(c.X) <= knots || len(c.X) != len(c.P) {
			continue
		}
		idx := KnotIndices(len(c.X), knots)
		x, p := make([]float64, len(idx)), make([]float64, len(idx))
		for j, k := range idx {
			x[j], p[j] = c.X[k], quantize(c.P[k])
		}
		c.X, c.P = x, p
		est[i].Compact = true
	}
}

// Quantum is the resolution of a compact curve's values: they are
// rounded to multiples of 2⁻¹⁶ (≈ 1.5·10⁻⁵), far below any difference a
// figure or a schedule can show, so that their float64s end in zero bits
// and compress to about two bytes each.
const Quantum = 1.0 / (1 << 16)

// quantize rounds p to the nearest multiple of Quantum (NaN and ±Inf
// stay as they are).
func quantize(p float64) float64 {
	if math.IsNaN(p) || math.IsInf(p, 0) {
		return p
	}
	return math.Round(p/Quantum) * Quantum
}
