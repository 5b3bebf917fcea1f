package estimator

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
	// For IrregularMLE: the delays τ_j = s_j − s_{j−1} of the visits that
	// detected a change (one per detection, so at most the updates in the
	// window), and Σ τ_j over the visits that did not.
	tauChanged []float64
	sumTauSame float64
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
	if o.J > 0 {
		if tau := o.S - o.Prev; o.Q {
			e.tauChanged = append(e.tauChanged, tau)
		} else {
			e.sumTauSame += tau
		}
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

// IrregularMLE is the maximum-likelihood Poisson rate from changed /
// unchanged observations at irregular delays (docs/methods.md#poisson-mle):
// a visit at delay τ_i after the previous one detects a change (c_i = 1)
// with probability 1 − e^{−λτ_i} under a Poisson process of rate λ, so λ̂
// maximises Π_i (1 − e^{−λτ_i})^{c_i} e^{−λτ_i(1−c_i)}. The score
// Σ_{c_i=1} τ_i/(e^{λτ_i} − 1) − Σ_{c_i=0} τ_i is strictly decreasing in
// λ, so the root is unique; it is found by Newton steps kept inside a
// bracket (bisection when a step leaves it), to full float64 precision.
// tauChanged are the delays of the visits that detected a change and
// sumTauSame the sum of the others' delays (their only sufficient
// statistic). With a constant τ it is Matloff's −(1/τ) ln(1 − X/n).
// λ̂ = 0 when no visit detected a change; undefined (NaN, with a note)
// when every visit did (the likelihood grows without bound) or when there
// is no pair of visits.
func IrregularMLE(tauChanged []float64, sumTauSame float64) (float64, string) {
	if len(tauChanged) == 0 && !(sumTauSame > 0) {
		return math.NaN(), "undefined: fewer than 2 visits"
	}
	if len(tauChanged) == 0 {
		return 0, ""
	}
	if !(sumTauSame > 0) {
		return math.NaN(), "undefined: every visit detected a change"
	}
	// score(λ) and its derivative; τ/(e^{λτ}−1) with expm1 for small λτ.
	score := func(l float64) (f, df float64) {
		f = -sumTauSame
		for _, t := range tauChanged {
			em := math.Expm1(l * t)
			if math.IsInf(em, 1) {
				continue // the term and its derivative are 0
			}
			f += t / em
			df -= t * t * (em + 1) / (em * em)
		}
		return f, df
	}
	var sumC float64
	for _, t := range tauChanged {
		sumC += t
	}
	// Bracket the root: score > 0 at lo, < 0 at hi. Both searches and the
	// first Newton step start at l0: its score is computed once.
	l0 := float64(len(tauChanged)) / (sumC + sumTauSame)
	f0, df0 := score(l0)
	at := func(x float64) (f, df float64) {
		if x == l0 {
			return f0, df0
		}
		return score(x)
	}
	l := l0
	lo, hi := l, l
	for i := 0; i < 2100; i++ {
		if f, _ := at(lo); f > 0 {
			break
		}
		lo /= 2
	}
	for i := 0; i < 2100; i++ {
		if f, _ := at(hi); f < 0 {
			break
		}
		hi *= 2
	}
	for i := 0; i < 200; i++ {
		f, df := at(l)
		if f == 0 {
			return l, ""
		}
		if f > 0 {
			lo = l
		} else {
			hi = l
		}
		next := l - f/df
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if next == l || hi-lo <= 4*math.Nextafter(hi, math.Inf(1))-4*hi {
			return next, ""
		}
		l = next
	}
	return l, ""
}

// result is the baseline name's estimate from the crawl's counts (only
// that one is computed: poisson-mle's root finding is the costly one).
func (e *poisson) result(name string, s Sampler) rateResult {
	n := int(e.m - 1)
	var r float64
	var note string
	switch name {
	case MethodNaive:
		r, note = Naive(int(e.x), n, e.last-e.first)
	case MethodCho:
		r, note = ChoGarciaMolina(int(e.x), n, s.Delta)
	case MethodMatloff:
		r, note = Matloff(int(e.x), n, s.Delta)
	case MethodAgeMLE:
		r, note = AgeMLE(int(e.m), e.sumAge)
	case MethodPoissonMLE:
		r, note = IrregularMLE(e.tauChanged, e.sumTauSame)
	default:
		return rateResult{math.NaN(), "unknown baseline " + name}
	}
	return rateResult{r, note}
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
