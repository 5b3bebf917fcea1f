package replay

import (
	"math"

	"github.com/revisit-dev/revisit/series"
)

// wmrd and ks are SPEC §5's error measures (series.WMRD, series.KS).
func wmrd(h, g []float64) float64 { return series.WMRD(h, g) }
func ks(h, g []float64) float64   { return series.KS(h, g) }

// meanCI is the mean of v (NaNs left out) and the half-width of its 95 %
// normal confidence interval, 1.96·sd/√n; n is the number of values used.
func meanCI(v []float64) (mean, half float64, n int) {
	s := 0.0
	for _, x := range v {
		if !math.IsNaN(x) {
			s += x
			n++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	mean = s / float64(n)
	if n < 2 {
		return mean, math.NaN(), n
	}
	ss := 0.0
	for _, x := range v {
		if !math.IsNaN(x) {
			ss += (x - mean) * (x - mean)
		}
	}
	return mean, 1.96 * math.Sqrt(ss/float64(n-1)/float64(n)), n
}
