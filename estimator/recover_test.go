package estimator

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

// U uniform on [0, 2]: E[U] = 1, G_U(x) = x − x²/4 on [0, 2], g_U(0) = 1,
// F_U(x) = 1 − g_U(x)/g_U(0) = x/2. G is a quadratic, for which the 5-point
// rules are exact, so with h on the grid points the recovery is exact up to
// rounding wherever the stencil stays inside [0, 2].
func TestRecoverQuadratic(t *testing.T) {
	x := newGrid(0.01, 3).x
	p := make([]float64, len(x))
	for i, v := range x {
		p[i] = v - v*v/4
		if v >= 2 {
			p[i] = 1
		}
	}
	for _, k := range []int{3, 5} {
		rec, err := RecoverF(series.CDF{X: x, P: p}, RecoverOptions{K: k, H: 0.02})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(rec.MeanU-1) > 1e-9 || rec.H != 0.02 {
			t.Errorf("K=%d: E[U] = %.12f (want 1), h = %g", k, rec.MeanU, rec.H)
		}
		for i, v := range x {
			if v <= 2-0.05 && math.Abs(rec.F.P[i]-v/2) > 1e-9 {
				t.Errorf("K=%d: F(%g) = %.12f, want %g", k, v, rec.F.P[i], v/2)
				break
			}
		}
	}
}

// Exponential G_U = 1 − e^{−x/2} (E[U] = 2) tabulated on a grid: the
// automatic h recovers E[U] and F_U = G_U closely (the rule's O(h⁴) error
// at the chosen h is far below 10⁻³).
func TestRecoverExponentialAutoH(t *testing.T) {
	c := ExpCDF("G", 0.5, newGrid(0.05, 40).x)
	rec, err := RecoverF(c, RecoverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(rec.MeanU-2) > 2e-3 || len(rec.Scan) < 10 {
		t.Errorf("E[U] = %g (want 2), h = %g, %d candidates", rec.MeanU, rec.H, len(rec.Scan))
	}
	for i, v := range c.X {
		if v < 20 && math.Abs(rec.F.P[i]-c.P[i]) > 2e-3 {
			t.Errorf("F(%g) = %g, want %g", v, rec.F.P[i], c.P[i])
			break
		}
	}
	// A flat estimate has no density at 0.
	flat := series.CDF{X: c.X, P: make([]float64, len(c.X))}
	if _, err := RecoverF(flat, RecoverOptions{H: 0.1}); err == nil {
		t.Error("flat G recovered")
	}
}

// recoverMidpoints reads a value at x_n as the mean of G_U over the bin
// (x_n − d, x_n] (M6 for random delays). U uniform on [0, 2]: G_U(x) =
// x − x²/4, whose bin mean is, by integration, (P(x_n) − P(x_n − d))/d with
// P(x) = x²/2 − x³/12; it equals G_U at the bin's midpoint minus d²/48 (the
// mean of a quadratic whose second derivative is −1/2). At the midpoints the
// recovery gives E[U] = 1 and F_U(x) = x/2 to O(d²/h) ≈ 10⁻⁴ (d = 0.01,
// h = 0.02). Read at the bin ends instead, every value but G(0) = 0 is
// shifted by half a bin, which the one-sided rule at 0 turns into a slope
// about half the true one (E[U] ≈ 2.1 here; checked as more than 5 % off).
func TestRecoverMidpointsBinMeans(t *testing.T) {
	d := 0.01
	x := newGrid(d, 3).x
	P := func(v float64) float64 {
		v = min(v, 2)
		return v*v/2 - v*v*v/12
	}
	p := make([]float64, len(x))
	for i, v := range x {
		if i == 0 {
			continue // no pair at distance 0: G_6(0) = 0
		}
		p[i] = (P(v) - P(v-d)) / d
		if v-d >= 2 {
			p[i] = 1
		}
	}
	g := series.CDF{X: x, P: p}
	rec, err := recoverMidpoints(g, RecoverOptions{H: 0.02})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(rec.MeanU-1) > 1e-3 {
		t.Errorf("E[U] = %.6f, want 1", rec.MeanU)
	}
	if len(rec.F.X) != len(x) || rec.F.X[5] != x[5] {
		t.Fatalf("F_U is not on the input grid: %v", rec.F.X[:6])
	}
	for i, v := range x {
		if v >= 0.1 && v <= 1.8 && math.Abs(rec.F.P[i]-v/2) > 2e-3 {
			t.Errorf("F(%g) = %.5f, want %g", v, rec.F.P[i], v/2)
			break
		}
	}
	plain, err := RecoverF(g, RecoverOptions{H: 0.02})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(plain.MeanU-1) < 0.05 {
		t.Errorf("bin means read at the bin ends gave E[U] = %.4f; the test cannot tell the placements apart", plain.MeanU)
	}
}
