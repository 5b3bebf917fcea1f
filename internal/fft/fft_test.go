package fft

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
)

// series is n values from a seeded source, some of them repeated and
// zero so that the butterflies see exact cancellations too.
func series(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, n)
	for i := range x {
		switch rng.IntN(5) {
		case 0:
			x[i] = 0
		case 1:
			x[i] = 1
		default:
			x[i] = rng.NormFloat64() * 10
		}
	}
	return x
}

// naiveDFT is the definition X_k = Σ_j x_j e^{−2πi jk/n}, k = 0…n/2,
// summed directly in O(n²).
func naiveDFT(x []float64) []complex128 {
	n := len(x)
	out := make([]complex128, n/2+1)
	for k := range out {
		var s complex128
		for j, v := range x {
			s += complex(v, 0) * cmplx.Exp(complex(0, -2*math.Pi*float64(j*k)/float64(n)))
		}
		out[k] = s
	}
	return out
}

// unpack reads Forward's packed order (c[0] the sum, then the real and
// imaginary parts of coefficients 1…n/2−1, then coefficient n/2) back
// into complex coefficients 0…n/2.
func unpack(c []float64) []complex128 {
	n := len(c)
	out := make([]complex128, n/2+1)
	out[0] = complex(c[0], 0)
	for k := 1; k < n/2; k++ {
		out[k] = complex(c[2*k-1], c[2*k])
	}
	out[n/2] = complex(c[n-1], 0)
	return out
}

// TestForwardIsTheDFT: Forward's coefficients equal the DFT summed from
// its definition, within rounding (the sums have n terms of size ≤ 10·n).
func TestForwardIsTheDFT(t *testing.T) {
	for _, n := range []int{2, 4, 8, 16, 32, 64, 128, 256} {
		x := series(n, uint64(n))
		c := append([]float64(nil), x...)
		NewPow2(n).Forward(c)
		got, want := unpack(c), naiveDFT(x)
		tol := 1e-12 * float64(n) * float64(n) * 10
		for k := range want {
			if cmplx.Abs(got[k]-want[k]) > tol {
				t.Fatalf("n %d, k %d: Forward %v, definition %v", n, k, got[k], want[k])
			}
		}
	}
}

// TestBackwardInvertsForward: Backward is the unnormalized inverse, so
// Backward(Forward(x)) = n·x.
func TestBackwardInvertsForward(t *testing.T) {
	for _, n := range []int{2, 4, 8, 64, 1024} {
		x := series(n, uint64(n)+7)
		c := append([]float64(nil), x...)
		tr := NewPow2(n)
		tr.Forward(c)
		tr.Backward(c)
		for i := range x {
			if math.Abs(c[i]/float64(n)-x[i]) > 1e-12*(1+math.Abs(x[i]))*float64(n) {
				t.Fatalf("n %d, i %d: round trip %v, want %v", n, i, c[i]/float64(n), x[i])
			}
		}
	}
}

// TestSameBitsAsGonum: the port runs gonum's arithmetic statement for
// statement, so Forward gives the same bits as fourier.FFT's Coefficients
// and Backward as its Sequence.
func TestSameBitsAsGonum(t *testing.T) {
	for _, n := range []int{2, 4, 8, 16, 512, 4096} {
		x := series(n, uint64(n)+3)
		g := fourier.NewFFT(n)
		want := g.Coefficients(nil, x)
		c := append([]float64(nil), x...)
		tr := NewPow2(n)
		tr.Forward(c)
		got := unpack(c)
		for k := range want {
			if real(got[k]) != real(want[k]) || imag(got[k]) != imag(want[k]) {
				t.Fatalf("n %d, k %d: Forward %v, gonum %v", n, k, got[k], want[k])
			}
		}
		wantSeq := g.Sequence(nil, want)
		tr.Backward(c)
		for i := range wantSeq {
			if c[i] != wantSeq[i] {
				t.Fatalf("n %d, i %d: Backward %v, gonum %v", n, i, c[i], wantSeq[i])
			}
		}
	}
}
