package model

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/dsp/fourier"
)

// FGNAutocov is the autocovariance of unit-variance fractional Gaussian
// noise with Hurst exponent H at lag k:
// γ(k) = ½(|k+1|^{2H} − 2|k|^{2H} + |k−1|^{2H}).
// γ(0) = 1; H = ½ gives white noise (γ(k) = 0 for k ≠ 0); for H ≠ ½,
// γ(k) ~ H(2H−1)k^{2H−2} as k → ∞.
func FGNAutocov(k int, hurst float64) float64 {
	if k < 0 {
		k = -k
	}
	if k == 0 {
		return 1
	}
	e := 2 * hurst
	fk := float64(k)
	return 0.5 * (math.Pow(fk+1, e) - 2*math.Pow(fk, e) + math.Pow(fk-1, e))
}

// FGN draws n values of fractional Gaussian noise with Hurst exponent
// hurst ∈ (0, 1), mean 0 and unit variance, exactly (no approximation in
// the covariance) by the Davies–Harte circulant-embedding method: the
// autocovariance γ(0..N) of FGNAutocov is embedded in a circulant of size
// m = 2N (N = the next power of two ≥ n, so the FFTs are fast), its
// eigenvalues λ_k are the real FFT of the first row, and
// X_j = Σ_k √(λ_k/m) Z_k e^{2πijk/m} with Hermitian standard complex
// Gaussian Z is a stationary Gaussian sequence with covariance γ. The
// first n values are returned (a prefix of FGN is FGN). For FGN the
// eigenvalues are non-negative for every H ∈ (0, 1); a negative one
// (beyond rounding) is reported as an error rather than hidden.
//
// All randomness comes from r. H = ½ gives i.i.d. N(0, 1); H > ½ is
// long-range dependent (the increments of fractional Brownian motion).
func FGN(n int, hurst float64, r *rand.Rand) ([]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("fgn: length %d, need at least 1", n)
	}
	if !(hurst > 0 && hurst < 1) {
		return nil, fmt.Errorf("fgn: Hurst exponent %g outside (0, 1)", hurst)
	}
	if r == nil {
		return nil, fmt.Errorf("fgn: nil random source")
	}
	half := 1
	for half < n {
		half *= 2
	}
	m := 2 * half
	row := make([]float64, m)
	for j := 0; j <= half; j++ {
		row[j] = FGNAutocov(j, hurst)
	}
	for j := 1; j < half; j++ {
		row[m-j] = row[j]
	}
	fft := fourier.NewFFT(m)
	eig := fft.Coefficients(nil, row) // length half+1; real because row is symmetric
	coeff := make([]complex128, half+1)
	for k, c := range eig {
		lam := real(c)
		if lam < 0 {
			if lam < -1e-9*float64(m) {
				return nil, fmt.Errorf("fgn: circulant eigenvalue %d is %g < 0 for H = %g (embedding not non-negative definite)", k, lam, hurst)
			}
			lam = 0
		}
		if k == 0 || k == half {
			coeff[k] = complex(math.Sqrt(lam/float64(m))*r.NormFloat64(), 0)
			continue
		}
		s := math.Sqrt(lam / (2 * float64(m)))
		coeff[k] = complex(s*r.NormFloat64(), s*r.NormFloat64())
	}
	x := fft.Sequence(nil, coeff)
	return x[:n:n], nil
}
