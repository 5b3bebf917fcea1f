package estimator

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

// StoreErrors' second range: on x ≤ MeanRange·E[U] the error of a row is
// the comparison restricted to those grid points, computed here by hand
// for a non-step method (M2, compared at the grid points) on a grid
// 0, 1, …, 30 with E[U] = 1.5: x ≤ 15.
func TestStoreErrorsMeanRange(t *testing.T) {
	var xs, g, h []float64
	for i := 0; i <= 30; i++ {
		x := float64(i)
		xs = append(xs, x)
		g = append(g, math.Min(x/20, 1))
		h = append(h, math.Min(x/18, 1))
	}
	est := []Estimate{
		{Method: MethodTruth, Kind: KindG, CDF: series.CDF{Method: MethodTruth, X: xs, P: g}},
		{Method: MethodM2, Kind: KindG, CDF: series.CDF{Method: MethodM2, X: xs, P: h}},
	}
	if err := StoreErrors(Registry{}, est, nil, 1.5); err != nil {
		t.Fatal(err)
	}
	var num, den, ks float64
	for i := 0; i <= 15; i++ {
		d := math.Abs(h[i] - g[i])
		num += d
		den += (h[i] + g[i]) / 2
		ks = math.Max(ks, d)
	}
	e := est[1].ErrMean
	if e == nil || math.Abs(e.WMRD-num/den) > 1e-12 || math.Abs(e.KS-ks) > 1e-12 || e.XMax != 15 || e.Points != 16 {
		t.Fatalf("ErrMean = %+v, want WMRD %g KS %g on 16 points to 15", e, num/den, ks)
	}
	// on the whole grid the KS is at x = 18 (|1 − 0.9|), larger
	if full := est[1].Err; math.Abs(full.KS-0.1) > 1e-12 || full.XMax != 30 {
		t.Fatalf("Err = %+v, want KS 0.1 on the whole grid", full)
	}
	if em := est[0].ErrMean; em == nil || !math.IsNaN(em.KS) {
		t.Fatalf("truth row's ErrMean = %+v, want NoError", em)
	}
}
