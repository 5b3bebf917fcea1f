package estimator

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

// MonotoneCDF returns values that are already a distribution function
// as they are, without the fit: bit for bit what the fit and the clipping
// give (Isotonic with equal weights, then [0, 1]), −0 made +0 as
// clipping does; a fresh slice, never the estimate's own.
func TestMonotoneCDFAlreadyMonotone(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for k := range 500 {
		p := make([]float64, 1+r.IntN(50))
		v := 0.0
		for i := range p {
			switch r.IntN(6) {
			case 0: // a tie
			case 1:
				v = 1
			default:
				v = min(1, v+r.Float64()/10)
			}
			p[i] = v
		}
		switch k % 5 {
		case 1:
			p[0] = math.Copysign(0, -1)
		case 2:
			p[r.IntN(len(p))] = math.NaN()
		case 3:
			p[len(p)-1] = 1.0000001
		case 4:
			p[r.IntN(len(p))] = -1e-12
		}
		in := append([]float64(nil), p...)
		want := Isotonic(p, nil)
		for i, x := range want {
			if !math.IsNaN(x) {
				want[i] = min(1, max(0, x))
			}
		}
		got := MonotoneCDF(series.CDF{P: p}, nil).P
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%v: point %d: %v, the fit gives %v", in, i, got[i], want[i])
			}
		}
		got[0] = 42
		if math.Float64bits(p[0]) != math.Float64bits(in[0]) {
			t.Fatal("MonotoneCDF returned the estimate's own slice")
		}
	}
}
