package replay

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
	x := series.Grid(0.01, 3)
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
	c := ExpCDF("G", 0.5, series.Grid(0.05, 40))
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
