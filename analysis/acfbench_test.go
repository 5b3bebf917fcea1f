package analysis

import (
	"testing"

	"github.com/revisit-dev/revisit/model"
)

// BenchmarkAutocovFFT is the ACF's FFT route on 4·10⁶ exponential
// intervals (padded to 2²³): in place (autocovFFT) and through gonum's
// fourier.FFT (autocovFFTGonum, the route before).
func BenchmarkAutocovFFT(b *testing.B) {
	x := draw(model.Exponential{Rate: 1}, 4000000, 1)
	mean := sum(x) / float64(len(x))
	b.Run("inplace", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			autocovFFT(x, mean, 100)
		}
	})
	b.Run("gonum", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			autocovFFTGonum(x, mean, 100)
		}
	})
}
