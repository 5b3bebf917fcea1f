package analysis

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/model"
)

// autocovDirect sums four lags per sweep: every sum must be the plain
// per-lag loop's, bit for bit, for every n and maxLag (the tails where
// the longer lags run out of terms included).
func TestAutocovDirectBitIdentical(t *testing.T) {
	r := model.NewRand(7, 1)
	for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 31, 128, 1001} {
		d := make([]float64, n)
		for i := range d {
			d[i] = r.NormFloat64() * math.Exp(3*r.Float64())
		}
		for _, maxLag := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 100} {
			if maxLag > n-1 {
				continue
			}
			got := autocovDirect(d, maxLag)
			for k := 0; k <= maxLag; k++ {
				s := 0.0
				for i := 0; i+k < n; i++ {
					s += d[i] * d[i+k]
				}
				if math.Float64bits(got[k]) != math.Float64bits(s) {
					t.Fatalf("n %d maxLag %d lag %d: %v, the per-lag loop gives %v", n, maxLag, k, got[k], s)
				}
			}
		}
	}
}
