package series

import (
	"math"
	"testing"
)

// Hand-computed: H = (0, .5, 1), G = (0, .25, 1):
// Σ|H−G| = 0.25, Σ(H+G)/2 = (0 + .375 + 1) = 1.375, so w = 0.25/1.375;
// κ = 0.25.
func TestWMRDAndKS(t *testing.T) {
	h, g := []float64{0, .5, 1}, []float64{0, .25, 1}
	if w := WMRD(h, g); math.Abs(w-0.25/1.375) > 1e-15 {
		t.Errorf("WMRD = %v", w)
	}
	if k := KS(h, g); k != 0.25 {
		t.Errorf("KS = %v", k)
	}
	for _, bad := range [][2][]float64{{nil, nil}, {{1}, {1, 2}}, {{0, 0}, {0, 0}}} {
		if !math.IsNaN(WMRD(bad[0], bad[1])) {
			t.Errorf("WMRD(%v, %v) not NaN", bad[0], bad[1])
		}
	}
	if !math.IsNaN(KS([]float64{0, math.NaN()}, []float64{0, 1})) {
		t.Error("KS of an undefined estimate is not NaN")
	}
}

func TestCDFAtAndLinear(t *testing.T) {
	c := CDF{X: []float64{0, 1, 2}, P: []float64{0, 0.5, 1}}
	for _, tc := range []struct{ x, at, lin float64 }{
		{-1, 0, 0}, {0, 0, 0}, {0.5, 0, 0.25}, {1, 0.5, 0.5}, {1.5, 0.5, 0.75}, {3, 1, 1},
	} {
		if got := c.At(tc.x); got != tc.at {
			t.Errorf("At(%g) = %g, want %g", tc.x, got, tc.at)
		}
		if got := c.Linear(tc.x); got != tc.lin {
			t.Errorf("Linear(%g) = %g, want %g", tc.x, got, tc.lin)
		}
	}
}
