package analysis

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

// TestWMRDKSHand checks WMRD and KS on values worked out by hand.
func TestWMRDKSHand(t *testing.T) {
	cases := []struct {
		name     string
		h, g     []float64
		wmrd, ks float64
	}{
		// |Δ| = 0.1, 0.1, 0.2, 0.1 → Σ = 0.5; (h+g)/2 = 0.05, 0.35, 0.6, 0.85 → Σ = 1.85;
		// w = 0.5/1.85 = 0.270270…; κ = 0.2.
		{"four points", []float64{0, 0.4, 0.7, 0.9}, []float64{0.1, 0.3, 0.5, 0.8}, 0.5 / 1.85, 0.2},
		// identical curves: w = 0, κ = 0.
		{"identical", []float64{0.2, 0.5, 1}, []float64{0.2, 0.5, 1}, 0, 0},
		// H ≡ 1, G ≡ 0 on 3 points: Σ|Δ| = 3, Σ(H+G)/2 = 1.5 → w = 2 (the maximum); κ = 1.
		{"disjoint", []float64{1, 1, 1}, []float64{0, 0, 0}, 2, 1},
	}
	for _, c := range cases {
		if w := WMRD(c.h, c.g); math.Abs(w-c.wmrd) > 1e-12 {
			t.Errorf("%s: WMRD = %.12f, want %.12f", c.name, w, c.wmrd)
		}
		if k := KSDistance(c.h, c.g); math.Abs(k-c.ks) > 1e-12 {
			t.Errorf("%s: KS = %g, want %g", c.name, k, c.ks)
		}
	}
	if !math.IsNaN(WMRD([]float64{0, 0}, []float64{0, 0})) {
		t.Error("WMRD of two zero curves should be NaN")
	}
	if !math.IsNaN(WMRD([]float64{0}, []float64{0, 1})) || !math.IsNaN(KSDistance(nil, nil)) {
		t.Error("mismatched or empty input should give NaN")
	}
}

// TestCompareGrid checks that Compare restricts to [0, x_max] and
// evaluates a non-step estimate at the truth's grid points.
func TestCompareGrid(t *testing.T) {
	truth := series.CDF{X: []float64{0, 1, 2, 3}, P: []float64{0, 0.5, 0.75, 1}}
	est := series.CDF{Method: "M2", X: []float64{0, 1, 2, 3}, P: []float64{0, 0.25, 0.75, 1}}
	// x_max = 2 keeps x = 0, 1, 2: |Δ| = 0, 0.25, 0 → Σ = 0.25; Σ(H+G)/2 = 0 + 0.375 + 0.75 = 1.125;
	// w = 0.25/1.125 = 0.2222…; κ = 0.25.
	e, err := Compare(est, truth, 2, false, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.Points != 3 || math.Abs(e.WMRD-0.25/1.125) > 1e-12 || math.Abs(e.KS-0.25) > 1e-12 {
		t.Errorf("got %+v, want 3 points, w = %g, κ = 0.25", e, 0.25/1.125)
	}
}

// TestCompareStepInterpolation checks SPEC §4.2's interpolation of a step
// estimate: an estimate known at x = 0, 1 as 0 and 1, truth G(x) = x² given
// exactly. With 1 extra point per step the grid is 0, 0.5, 1; the
// interpolated estimate is 0, 0.5, 1; the truth 0, 0.25, 1.
// Σ|Δ| = 0.25, Σ(H+G)/2 = 0 + 0.375 + 1 = 1.375 → w = 0.181818…; κ = 0.25.
func TestCompareStepInterpolation(t *testing.T) {
	truth := series.CDF{X: []float64{0, 1}, P: []float64{0, 1}}
	est := series.CDF{Method: "M4", X: []float64{0, 1}, P: []float64{0, 1}}
	square := func(xs []float64) []float64 {
		g := make([]float64, len(xs))
		for i, x := range xs {
			g[i] = x * x
		}
		return g
	}
	e, err := Compare(est, truth, 0, IsStepMethod("M4"), 1, square)
	if err != nil {
		t.Fatal(err)
	}
	if e.Points != 3 || math.Abs(e.WMRD-0.25/1.375) > 1e-12 || math.Abs(e.KS-0.25) > 1e-12 {
		t.Errorf("got %+v, want 3 points, w = %g, κ = 0.25", e, 0.25/1.375)
	}
	// Without the exact truth it is known only at the 2 grid points, where
	// the estimate is exact: no error, and no fine points pretended.
	e, _ = Compare(est, truth, 0, true, 9, nil)
	if e.Points != 2 || e.WMRD != 0 || e.KS != 0 {
		t.Errorf("grid truth: got %+v, want the 2 grid points and no error", e)
	}
	// extra ≤ 0 (the command line's --extra 0 arrives as −1): the grid
	// points only.
	for _, extra := range []int{0, -1} {
		if e, _ := Compare(est, truth, 0, true, extra, square); e.Points != 2 {
			t.Errorf("extra %d: %d points, want the 2 grid points", extra, e.Points)
		}
	}
	if _, err := Compare(est, series.CDF{X: []float64{5}, P: []float64{1}}, 1, false, 0, nil); err == nil {
		t.Error("no grid point in [0, x_max]: no error")
	}
}
