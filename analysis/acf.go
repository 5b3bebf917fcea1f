package analysis

import (
	"math"

	"github.com/revisit-dev/revisit/internal/fft"

	"gonum.org/v1/gonum/stat/distuv"
)

// directACFWork is the largest n·maxLag for which ACF sums directly;
// beyond it the FFT route (O(n log n)) is used.
const directACFWork = 1 << 22

// ACF is the sample autocorrelation of the interval sequence (SPEC §5) for
// lags 0…maxLag: ρ(k) = Σ_{t=1}^{n−k} (x_t − x̄)(x_{t+k} − x̄) / Σ_t (x_t − x̄)²
// (the standard biased estimator, divisor n at every lag, so the sequence
// is positive semi-definite). Long series are computed through the FFT
// (zero-padded to a power of two ≥ 2n, so there is no circular
// wrap-around); short ones directly; both give the same numbers up to
// rounding. maxLag is capped at n−1. A constant series gives NaN for k ≥ 1.
func ACF(x []float64, maxLag int) []float64 {
	n := len(x)
	if n == 0 {
		return nil
	}
	if maxLag > n-1 {
		maxLag = n - 1
	}
	if maxLag < 0 {
		maxLag = 0
	}
	mean := sum(x) / float64(n)
	var c []float64
	if n*(maxLag+1) <= directACFWork {
		d := make([]float64, n)
		for i, v := range x {
			d[i] = v - mean
		}
		c = autocovDirect(d, maxLag)
	} else {
		c = autocovFFT(x, mean, maxLag)
	}
	rho := make([]float64, maxLag+1)
	for k := range rho {
		if c[0] == 0 {
			rho[k] = math.NaN()
			continue
		}
		rho[k] = c[k] / c[0]
	}
	if c[0] != 0 {
		rho[0] = 1
	}
	return rho
}

// autocovFFT returns Σ_t d_t d_{t+k} for k = 0…maxLag, d_t = x_t − mean,
// by the Wiener–Khinchin route: |FFT(d padded)|², inverse FFT, divided
// by m, the padded length (a power of two, 2n ≤ m < 4n). It runs in
// place (fft.Pow2): the padded d, written straight from x, becomes its
// power spectrum and then the autocovariances, with one scratch array:
// 2m values (16 bytes per m) at the peak, where
// fourier.FFT's Coefficients and Sequence needed separate arrays for d,
// the copy of it, the coefficients and the inverse (5m values and more).
// The numbers are the same bits (autocovFFTGonum in the tests).
func autocovFFT(x []float64, mean float64, maxLag int) []float64 {
	m := 2
	for m < 2*len(x) {
		m *= 2
	}
	c := make([]float64, m)
	for i, v := range x {
		c[i] = v - mean
	}
	tr := fft.NewPow2(m)
	tr.Forward(c)
	// |coefficient|² in the packed order, as fourier.FFT's Coefficients
	// (the complex coefficients), the squares and Sequence (back to the
	// packed order, the imaginary parts 0) would leave them.
	im := 0.0
	c[0] = c[0]*c[0] + im*im
	for i := 1; i < m/2; i++ {
		re, im := c[2*i-1], c[2*i]
		c[2*i-1], c[2*i] = re*re+im*im, 0
	}
	c[m-1] = c[m-1]*c[m-1] + im*im
	tr.Backward(c)
	out := make([]float64, maxLag+1)
	for k := range out {
		out[k] = c[k] / float64(m)
	}
	return out
}

// PowerLaw is the fit ρ(k) ≈ c·k^{−γ} of SPEC §5 and the Hurst exponent
// it implies, H = 1 − γ/2, as fitted: not checked against [0, 1] nor
// against the series' length. The reported H(ACF) is Hurst's (HurstACF),
// which is NaN with a note below MinHurstLen intervals or outside [0, 1].
type PowerLaw struct {
	C, Gamma float64
	H        float64
	SE       float64 // standard error of H: SE(γ)/2 from the OLS slope
	R2       float64
	Lags     int // positive lags used in the fit
	MaxLag   int
}

// FitACFPowerLaw fits ln ρ(k) = ln c − γ ln k by ordinary least squares
// over the lags 1…len(rho)−1 where ρ(k) > 0 (the logarithm needs positive
// values: negative and zero autocorrelations are left out, which biases γ
// down — H up — for short-memory series whose ρ fluctuates around 0; the
// number of lags used is reported). With fewer than 3 positive lags the
// fit is undefined and every field but Lags is NaN. The SE is the OLS
// slope's, which ignores the correlation between neighbouring ρ(k) and so
// understates the uncertainty.
func FitACFPowerLaw(rho []float64) PowerLaw {
	var xs, ys []float64
	for k := 1; k < len(rho); k++ {
		if rho[k] > 0 {
			xs = append(xs, math.Log(float64(k)))
			ys = append(ys, math.Log(rho[k]))
		}
	}
	pl := PowerLaw{Lags: len(xs), MaxLag: len(rho) - 1}
	if len(xs) < 3 {
		nan := math.NaN()
		pl.C, pl.Gamma, pl.H, pl.SE, pl.R2 = nan, nan, nan, nan, nan
		return pl
	}
	l := ols(xs, ys)
	pl.C = math.Exp(l.intercept)
	pl.Gamma = -l.slope
	pl.H = 1 - pl.Gamma/2
	pl.SE = l.se / 2
	pl.R2 = l.r2
	return pl
}

// LjungBox is the portmanteau test of independence on the first h
// autocorrelations of a series of length n:
// Q = n(n+2) Σ_{k=1}^{h} ρ(k)²/(n−k), asymptotically χ²_h under i.i.d.
// data. It returns Q and its p-value P(χ²_h > Q).
func LjungBox(rho []float64, n, h int) (q, p float64) {
	if h > len(rho)-1 {
		h = len(rho) - 1
	}
	if h < 1 || n <= h {
		return math.NaN(), math.NaN()
	}
	for k := 1; k <= h; k++ {
		q += rho[k] * rho[k] / float64(n-k)
	}
	q *= float64(n) * float64(n+2)
	return q, distuv.ChiSquared{K: float64(h)}.Survival(q)
}

// line is an OLS fit y = intercept + slope·x with the slope's standard
// error and R².
type line struct {
	slope, intercept, se, r2 float64
}

func ols(x, y []float64) line {
	n := float64(len(x))
	mx, my := sum(x)/n, sum(y)/n
	sxx, sxy, syy := 0.0, 0.0, 0.0
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	if sxx == 0 {
		return line{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	}
	b := sxy / sxx
	a := my - b*mx
	rss := syy - b*sxy
	if rss < 0 {
		rss = 0
	}
	se := math.NaN()
	if len(x) > 2 {
		se = math.Sqrt(rss / (n - 2) / sxx)
	}
	r2 := math.NaN()
	if syy > 0 {
		r2 = 1 - rss/syy
	}
	return line{slope: b, intercept: a, se: se, r2: r2}
}

// autocovDirect returns c_k = Σ_{t=0}^{n−1−k} d_t d_{t+k} for k = 0…maxLag
// (maxLag < len(d)), each sum taken in the order t = 0, 1, … as a loop
// per lag would: the same bits. Four lags share one sweep over d, which
// reads d once for four sums instead of four times.
func autocovDirect(d []float64, maxLag int) []float64 {
	n := len(d)
	c := make([]float64, maxLag+1)
	k := 0
	for ; k+3 <= maxLag; k += 4 {
		var s0, s1, s2, s3 float64
		t := 0
		for ; t+k+3 < n; t++ {
			x := d[t]
			s0 += x * d[t+k]
			s1 += x * d[t+k+1]
			s2 += x * d[t+k+2]
			s3 += x * d[t+k+3]
		}
		for ; t+k+2 < n; t++ { // lag k+3 has no more terms
			x := d[t]
			s0 += x * d[t+k]
			s1 += x * d[t+k+1]
			s2 += x * d[t+k+2]
		}
		for ; t+k+1 < n; t++ {
			x := d[t]
			s0 += x * d[t+k]
			s1 += x * d[t+k+1]
		}
		for ; t+k < n; t++ {
			s0 += d[t] * d[t+k]
		}
		c[k], c[k+1], c[k+2], c[k+3] = s0, s1, s2, s3
	}
	for ; k <= maxLag; k++ {
		s := 0.0
		for t := 0; t+k < n; t++ {
			s += d[t] * d[t+k]
		}
		c[k] = s
	}
	return c
}
