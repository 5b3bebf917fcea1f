package replay

import "math"

// wmrd is SPEC §5's weighted mean relative difference of an estimate H
// against the truth G on the same grid: Σ|H − G| / Σ (H + G)/2. NaN when
// the estimate is undefined or both are 0 everywhere. It is a private copy
// for simulate and the replay summary; package analysis has the official
// one.
func wmrd(h, g []float64) float64 {
	num, den := 0.0, 0.0
	for i := range h {
		num += math.Abs(h[i] - g[i])
		den += (h[i] + g[i]) / 2
	}
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

// ks is κ = max_n |H(x_n) − G(x_n)| (SPEC §5); NaN if H is undefined.
func ks(h, g []float64) float64 {
	m := 0.0
	for i := range h {
		d := math.Abs(h[i] - g[i])
		if math.IsNaN(d) {
			return math.NaN()
		}
		m = max(m, d)
	}
	return m
}

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
