package estimator

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

func closeAll(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !(math.Abs(a[i]-b[i]) <= tol) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

// Hand examples: pooled blocks are weighted means (computed by hand).
func TestIsotonicHand(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		y, w []float64
		want []float64
	}{
		{"increasing", []float64{0, 0.2, 0.2, 1}, nil, []float64{0, 0.2, 0.2, 1}},
		{"one violation", []float64{1, 3, 2}, nil, []float64{1, 2.5, 2.5}},
		{"weighted", []float64{1, 3, 2}, []float64{1, 1, 3}, []float64{1, 2.25, 2.25}},                       // (3 + 3·2)/4
		{"decreasing", []float64{3, 2, 1}, nil, []float64{2, 2, 2}},                                          // (3+2+1)/3
		{"cascade", []float64{1, 4, 5, 0}, nil, []float64{1, 3, 3, 3}},                                       // 5,0 → 2.5 < 4: (4+5+0)/3
		{"NaN skipped", []float64{0.5, nan, 0.2, 0.9}, nil, []float64{0.35, 0.35, 0.35, 0.9}},                // (0.5+0.2)/2, carried
		{"zero weights", []float64{0, 0.7, 0.1, 0.2}, []float64{0, 2, 0, 2}, []float64{0, 0.45, 0.45, 0.45}}, // leading 0 kept
		{"leading above", []float64{0.9, 0.1, 0.3}, []float64{0, 1, 1}, []float64{0.1, 0.1, 0.3}},            // 0.9 lowered to the first fitted value
		{"nothing to fit", []float64{nan, nan}, nil, []float64{nan, nan}},
	} {
		if got := Isotonic(c.y, c.w); !closeAll(got, c.want, 1e-12) {
			t.Errorf("%s: Isotonic(%v, %v) = %v, want %v", c.name, c.y, c.w, got, c.want)
		}
	}
	// M6's evidence: bin 0 has no pair; bins 1 and 2 hold 10 and 1 pairs.
	g := MonotoneCDF(series.CDF{X: []float64{0, 1, 2}, P: []float64{0, 0.5, 0.2}}, []int64{0, 10, 1})
	if want := []float64{0, 5.2 / 11, 5.2 / 11}; !closeAll(g.P, want, 1e-12) {
		t.Errorf("M6 weighted: %v, want %v", g.P, want)
	}
	g = MonotoneCDF(series.CDF{P: []float64{-0.2, 0.5, 1.3, 1.1}}, nil)
	if want := []float64{0, 0.5, 1, 1}; !closeAll(g.P, want, 1e-12) {
		t.Errorf("clipped: %v, want %v", g.P, want)
	}
}

// minMaxRef is the isotonic fit by the min–max formula, O(n³):
// z_i = max_{j ≤ i} min_{k ≥ i} (Σ_{j..k} w y)/(Σ_{j..k} w).
func minMaxRef(y, w []float64) []float64 {
	n := len(y)
	z := make([]float64, n)
	for i := range n {
		best := math.Inf(-1)
		for j := 0; j <= i; j++ {
			lo := math.Inf(1)
			for k := i; k < n; k++ {
				sw, swy := 0.0, 0.0
				for l := j; l <= k; l++ {
					sw += w[l]
					swy += w[l] * y[l]
				}
				lo = min(lo, swy/sw)
			}
			best = max(best, lo)
		}
		z[i] = best
	}
	return z
}

// exhaustiveRef is the least-squares non-decreasing fit with values in
// [lo, hi] found by trying every partition of 0…n−1 into runs (2^(n−1)):
// the optimum is constant on each of its level sets, at the clipped
// weighted mean of the run, so the best monotone candidate is it.
func exhaustiveRef(y, w []float64, lo, hi float64) ([]float64, float64) {
	n := len(y)
	best, bestSSE := []float64(nil), math.Inf(1)
	for mask := range 1 << (n - 1) { // bit i: a cut after i
		z := make([]float64, n)
		start := 0
		for i := range n {
			if i == n-1 || mask>>i&1 == 1 {
				sw, swy := 0.0, 0.0
				for l := start; l <= i; l++ {
					sw += w[l]
					swy += w[l] * y[l]
				}
				for l := start; l <= i; l++ {
					z[l] = min(hi, max(lo, swy/sw))
				}
				start = i + 1
			}
		}
		ok := true
		for i := 1; i < n; i++ {
			ok = ok && z[i] >= z[i-1]
		}
		if s := sse(y, w, z); ok && s < bestSSE {
			best, bestSSE = z, s
		}
	}
	return best, bestSSE
}

func sse(y, w, z []float64) float64 {
	s := 0.0
	for i := range y {
		s += w[i] * (y[i] - z[i]) * (y[i] - z[i])
	}
	return s
}

// PAVA against two naive references on 3,000 random small inputs: the
// min–max formula (unconstrained) and the exhaustive search over runs
// (unconstrained, and within [0, 1] for MonotoneCDF).
func TestIsotonicBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for trial := range 3000 {
		n := 1 + r.IntN(8)
		y, w := make([]float64, n), make([]float64, n)
		wi := make([]int64, n)
		for i := range y {
			y[i] = -0.5 + 2*r.Float64()
			if trial%3 == 0 { // ties
				y[i] = float64(r.IntN(4)) / 3
			}
			wi[i] = 1 + r.Int64N(9)
			w[i] = float64(wi[i])
		}
		got := Isotonic(y, w)
		if ref := minMaxRef(y, w); !closeAll(got, ref, 1e-9) {
			t.Fatalf("y %v w %v: PAVA %v, min–max %v", y, w, got, ref)
		}
		inf := math.Inf(1)
		if ref, s := exhaustiveRef(y, w, -inf, inf); !closeAll(got, ref, 1e-9) || sse(y, w, got) > s+1e-12 {
			t.Fatalf("y %v w %v: PAVA %v (SSE %g), exhaustive %v (SSE %g)", y, w, got, sse(y, w, got), ref, s)
		}
		c := MonotoneCDF(series.CDF{P: y}, wi)
		if ref, s := exhaustiveRef(y, w, 0, 1); !closeAll(c.P, ref, 1e-9) {
			t.Fatalf("y %v w %v: MonotoneCDF %v (SSE %g), exhaustive in [0,1] %v (SSE %g)", y, w, c.P, sse(y, w, c.P), ref, s)
		}
		eq := Isotonic(y, nil)
		ones := make([]float64, n)
		for i := range ones {
			ones[i] = 1
		}
		if ref := minMaxRef(y, ones); !closeAll(eq, ref, 1e-9) {
			t.Fatalf("y %v equal weights: PAVA %v, min–max %v", y, eq, ref)
		}
	}
}
