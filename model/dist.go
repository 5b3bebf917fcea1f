package model

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mathext"
)

// Dist is a distribution of positive durations.
type Dist interface {
	// CDF is F(x) = P(U ≤ x).
	CDF(x float64) float64
	// Mean is E[U]; +Inf when it does not exist.
	Mean() float64
	// AgeCDF is the age (residual life) distribution of the renewal
	// process with these intervals, G(x) = (1/E[U]) ∫_0^x (1 − F(t)) dt:
	// the fraction of time the age is ≤ x (SPEC §3, G_U).
	AgeCDF(x float64) float64
	// Rand draws one value from r.
	Rand(r *rand.Rand) float64
	// String is the spec that Parse reads back, e.g. "pareto:3,1".
	String() string
}

// Exponential has F(x) = 1 − e^{−λx}; G = F (memoryless).
type Exponential struct{ Rate float64 }

func (d Exponential) CDF(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return -math.Expm1(-d.Rate * x)
}
func (d Exponential) Mean() float64             { return 1 / d.Rate }
func (d Exponential) AgeCDF(x float64) float64  { return d.CDF(x) }
func (d Exponential) Rand(r *rand.Rand) float64 { return r.ExpFloat64() / d.Rate }
func (d Exponential) String() string            { return fmt.Sprintf("exp:%g", d.Rate) }

// Pareto is the Lomax (Pareto type II) law with F̄(x) = (1 + x/β)^{−α}:
// E[U] = β/(α−1) for α > 1 and G(x) = 1 − (1 + x/β)^{−(α−1)} (SPEC §4.1).
type Pareto struct{ Alpha, Beta float64 }

func (d Pareto) CDF(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return -math.Expm1(-d.Alpha * math.Log1p(x/d.Beta))
}
func (d Pareto) Mean() float64 {
	if d.Alpha <= 1 {
		return math.Inf(1)
	}
	return d.Beta / (d.Alpha - 1)
}
func (d Pareto) AgeCDF(x float64) float64 {
	if d.Alpha <= 1 {
		return math.NaN()
	}
	if x <= 0 {
		return 0
	}
	return -math.Expm1(-(d.Alpha - 1) * math.Log1p(x/d.Beta))
}

// Rand inverts the survival function: β((1−u)^{−1/α} − 1).
func (d Pareto) Rand(r *rand.Rand) float64 {
	u := r.Float64()
	return d.Beta * math.Expm1(-math.Log1p(-u)/d.Alpha)
}
func (d Pareto) String() string { return fmt.Sprintf("pareto:%g,%g", d.Alpha, d.Beta) }

// Weibull has F̄(x) = exp(−(x/ν)^k): E[U] = νΓ(1 + 1/k) and
// G(x) = P(1/k, (x/ν)^k), the regularized lower incomplete gamma function.
type Weibull struct{ K, Scale float64 }

func (d Weibull) CDF(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return -math.Expm1(-math.Pow(x/d.Scale, d.K))
}
func (d Weibull) Mean() float64 { return d.Scale * math.Gamma(1+1/d.K) }
func (d Weibull) AgeCDF(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return mathext.GammaIncReg(1/d.K, math.Pow(x/d.Scale, d.K))
}
func (d Weibull) Rand(r *rand.Rand) float64 {
	return d.Scale * math.Pow(r.ExpFloat64(), 1/d.K)
}
func (d Weibull) String() string { return fmt.Sprintf("weibull:%g,%g", d.K, d.Scale) }

// Lognormal has ln U ~ N(μ, σ²): E[U] = e^{μ+σ²/2} and
// G(x) = x F̄(x)/E[U] + Φ((ln x − μ − σ²)/σ).
type Lognormal struct{ Mu, Sigma float64 }

func (d Lognormal) CDF(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return phi((math.Log(x) - d.Mu) / d.Sigma)
}
func (d Lognormal) Mean() float64 { return math.Exp(d.Mu + d.Sigma*d.Sigma/2) }
func (d Lognormal) AgeCDF(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return x*(1-d.CDF(x))/d.Mean() + phi((math.Log(x)-d.Mu-d.Sigma*d.Sigma)/d.Sigma)
}
func (d Lognormal) Rand(r *rand.Rand) float64 { return math.Exp(d.Mu + d.Sigma*r.NormFloat64()) }
func (d Lognormal) String() string            { return fmt.Sprintf("lognormal:%g,%g", d.Mu, d.Sigma) }

func phi(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// Uniform is uniform on [A, B], 0 ≤ A < B.
type Uniform struct{ A, B float64 }

func (d Uniform) CDF(x float64) float64 {
	switch {
	case x <= d.A:
		return 0
	case x >= d.B:
		return 1
	}
	return (x - d.A) / (d.B - d.A)
}
func (d Uniform) Mean() float64 { return (d.A + d.B) / 2 }

// AgeCDF integrates F̄: x/E for x ≤ A, then (A + ((B−A)² − (B−x)²)/(2(B−A)))/E.
func (d Uniform) AgeCDF(x float64) float64 {
	m := d.Mean()
	switch {
	case x <= 0:
		return 0
	case x <= d.A:
		return x / m
	case x >= d.B:
		return 1
	}
	w := d.B - d.A
	return (d.A + (w*w-(d.B-x)*(d.B-x))/(2*w)) / m
}
func (d Uniform) Rand(r *rand.Rand) float64 { return d.A + (d.B-d.A)*r.Float64() }
func (d Uniform) String() string            { return fmt.Sprintf("uniform:%g,%g", d.A, d.B) }

// Constant is the point mass at C: F is a step at C, G(x) = min(x, C)/C.
type Constant struct{ C float64 }

func (d Constant) CDF(x float64) float64 {
	if x < d.C {
		return 0
	}
	return 1
}
func (d Constant) Mean() float64 { return d.C }
func (d Constant) AgeCDF(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return math.Min(x, d.C) / d.C
}
func (d Constant) Rand(*rand.Rand) float64 { return d.C }
func (d Constant) String() string          { return fmt.Sprintf("const:%g", d.C) }

// Mixture draws from component i with probability Weights[i] (normalised):
// F = Σ w_i F_i, E[U] = Σ w_i E_i, G(x) = Σ w_i E_i G_i(x) / E[U].
type Mixture struct {
	Weights []float64
	Parts   []Dist
}

func (d Mixture) total() float64 {
	s := 0.0
	for _, w := range d.Weights {
		s += w
	}
	return s
}
func (d Mixture) CDF(x float64) float64 {
	s := 0.0
	for i, p := range d.Parts {
		s += d.Weights[i] * p.CDF(x)
	}
	return s / d.total()
}
func (d Mixture) Mean() float64 {
	s := 0.0
	for i, p := range d.Parts {
		s += d.Weights[i] * p.Mean()
	}
	return s / d.total()
}
func (d Mixture) AgeCDF(x float64) float64 {
	num, den := 0.0, 0.0
	for i, p := range d.Parts {
		m := d.Weights[i] * p.Mean()
		num += m * p.AgeCDF(x)
		den += m
	}
	return num / den
}
func (d Mixture) Rand(r *rand.Rand) float64 {
	u := r.Float64() * d.total()
	for i, w := range d.Weights {
		if u < w {
			return d.Parts[i].Rand(r)
		}
		u -= w
	}
	return d.Parts[len(d.Parts)-1].Rand(r)
}
func (d Mixture) String() string {
	s := "mix:"
	for i, p := range d.Parts {
		if i > 0 {
			s += "+"
		}
		s += fmt.Sprintf("%g*%s", d.Weights[i], p)
	}
	return s
}

// NewRand returns the generator every random draw in revisit comes from:
// PCG seeded from seed (and a stream number, so that independent streams —
// one per page, per path — are reproducible and do not overlap).
func NewRand(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, stream^0x9e3779b97f4a7c15))
}
