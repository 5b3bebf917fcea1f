package replay

import (
	"math"

	"github.com/revisit-dev/revisit/series"
)

// Poisson rate estimators (SPEC §4.3), the classic baselines. Each gives a
// rate λ̂ and the implied exponential distribution 1 − e^{−λ̂x}, which is
// both its F_U and its G_U (the exponential is memoryless).
type poisson struct {
	m      int64   // visits
	x      int64   // X: visits j ≥ 2 with Q_{j−1,j} = 1
	first  float64 // s_1
	last   float64 // s_m
	sumAge float64 // Σ_j A(s_j)
}

func (e *poisson) add(o *Obs) {
	if e.m == 0 {
		e.first = o.S
	}
	e.m++
	e.last = o.S
	if o.Q {
		e.x++
	}
	e.sumAge += o.A
}

// rateResult is one baseline's estimate: NaN with a note when undefined.
type rateResult struct {
	rate float64
	note string
}

// Naive is λ̂ = X/(nτ) with n = m − 1 pairs of consecutive visits and nτ
// the time they span, s_m − s_1 (= (m−1)Δ for constant delays; for random
// delays the same ratio: detections per unit of observed time).
func Naive(x, n int, span float64) (float64, string) {
	if n <= 0 || !(span > 0) {
		return math.NaN(), "undefined: fewer than 2 visits"
	}
	return float64(x) / span, ""
}

// ChoGarciaMolina is the bias-reduced estimator of Cho and Garcia-Molina
// for n visits at constant interval τ with X detections:
// λ̂ = −(1/τ) ln((n − X + 0.5)/(n + 0.5)).
func ChoGarciaMolina(x, n int, tau float64) (float64, string) {
	if n <= 0 {
		return math.NaN(), "undefined: fewer than 2 visits"
	}
	return -math.Log((float64(n-x)+0.5)/(float64(n)+0.5)) / tau, ""
}

// Matloff is λ̂ = −(1/τ) ln(1 − X/n); it is undefined when every visit
// detected a change (X = n), which is reported, not a crash.
func Matloff(x, n int, tau float64) (float64, string) {
	if n <= 0 {
		return math.NaN(), "undefined: fewer than 2 visits"
	}
	if x >= n {
		return math.NaN(), "undefined: X = n (every visit detected a change)"
	}
	return -math.Log(1-float64(x)/float64(n)) / tau, ""
}

// AgeMLE is the maximum-likelihood rate from last-modified ages: under a
// Poisson process of rate λ the age at an independent visit is Exp(λ)
// (memoryless: the time back to the last update is exponential), so the
// log-likelihood of m ages is m ln λ − λ Σ A_j and λ̂ = m / Σ_j A(s_j).
// Ages at visits within one update cycle are dependent; treating them as
// independent gives a pseudo-likelihood whose maximiser is still
// consistent. (The window starts at an update, which truncates ages at
// s_j; for the long windows of real traces the effect is negligible.)
func AgeMLE(m int, sumAge float64) (float64, string) {
	if m <= 0 {
		return math.NaN(), "undefined: no visits"
	}
	if !(sumAge > 0) {
		return math.NaN(), "undefined: every age is 0"
	}
	return float64(m) / sumAge, ""
}

func (e *poisson) results(s Sampler) map[string]rateResult {
	n := int(e.m - 1)
	out := map[string]rateResult{}
	r, note := Naive(int(e.x), n, e.last-e.first)
	out[MethodNaive] = rateResult{r, note}
	if s.Constant() {
		r, note = ChoGarciaMolina(int(e.x), n, s.Delta)
		out[MethodCho] = rateResult{r, note}
		r, note = Matloff(int(e.x), n, s.Delta)
		out[MethodMatloff] = rateResult{r, note}
	}
	r, note = AgeMLE(int(e.m), e.sumAge)
	out[MethodAgeMLE] = rateResult{r, note}
	return out
}

// ExpCDF is the exponential CDF 1 − e^{−λx} on grid x (NaN for a NaN rate).
func ExpCDF(method string, rate float64, x []float64) series.CDF {
	p := make([]float64, len(x))
	for i, v := range x {
		if math.IsNaN(rate) {
			p[i] = math.NaN()
			continue
		}
		if math.IsInf(rate, 1) {
			p[i] = 1
			if v <= 0 {
				p[i] = 0
			}
			continue
		}
		p[i] = -math.Expm1(-rate * v)
	}
	return series.CDF{Method: method, X: x, P: p}
}
