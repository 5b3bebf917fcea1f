package model

import (
	"math"
)

// Quantiler is implemented by distributions with a closed-form inverse CDF.
type Quantiler interface {
	// Quantile is F⁻¹(p) = inf{x : F(x) ≥ p} for p ∈ [0, 1).
	Quantile(p float64) float64
}

// Quantile is F⁻¹(p) = inf{x : F(x) ≥ p}: the closed form when d has one
// (Quantiler), otherwise bisection on d.CDF to a relative precision of
// 1e-12 (used for mixtures). p is clamped to [0, 1 − 2⁻⁵³].
func Quantile(d Dist, p float64) float64 {
	if p <= 0 {
		p = 0
	}
	if p >= 1 {
		p = math.Nextafter(1, 0)
	}
	if q, ok := d.(Quantiler); ok {
		return q.Quantile(p)
	}
	hi := 1.0
	for d.CDF(hi) < p {
		hi *= 2
		if hi > 1e300 {
			return math.Inf(1)
		}
	}
	lo := 0.0
	for i := 0; i < 200 && hi-lo > 1e-12*hi; i++ {
		mid := (lo + hi) / 2
		if d.CDF(mid) >= p {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// Quantile is −ln(1 − p)/λ.
func (d Exponential) Quantile(p float64) float64 { return -math.Log1p(-p) / d.Rate }

// Quantile is β((1 − p)^{−1/α} − 1).
func (d Pareto) Quantile(p float64) float64 { return d.Beta * math.Expm1(-math.Log1p(-p)/d.Alpha) }

// Quantile is ν(−ln(1 − p))^{1/k}.
func (d Weibull) Quantile(p float64) float64 {
	return d.Scale * math.Pow(-math.Log1p(-p), 1/d.K)
}

// Quantile is exp(μ + σΦ⁻¹(p)) with Φ⁻¹(p) = −√2 erfc⁻¹(2p).
func (d Lognormal) Quantile(p float64) float64 {
	return math.Exp(d.Mu + d.Sigma*normQuantile(p))
}

// Quantile is A + p(B − A).
func (d Uniform) Quantile(p float64) float64 { return d.A + p*(d.B-d.A) }

// Quantile is C for every p.
func (d Constant) Quantile(float64) float64 { return d.C }

// normQuantile is Φ⁻¹(p), the standard normal quantile.
func normQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }
