package schedule

import (
	"math"
)

// priorCurve is the corpus's prior for the pages a plan knows little
// about (Problem.Prior): the mean Ĝ_0 of the pages with a usable estimate
// (their age distributions after the concave projection: the age
// distribution of a page drawn at random from the corpus, whose freshness
// at any Δ is the mean of theirs) as D values on a log-spaced grid, and
// the mean m of their λ̂.
type priorCurve struct {
	x, d    []float64
	dInf, m float64
	pages   int // pages averaged
}

// Sizes of the prior: knots of Ĝ_0, and the pages averaged at most
// (evenly spaced among the usable ones, so that 18 M pages cost no more
// than 16 Ki).
const (
	priorKnots = 64
	priorPages = 1 << 14
)

// setPrior ends Prepare: with Prior set and pages that never changed or
// have no usable estimate, it computes the prior and plans those pages on
// it. A page watched for a time E without a usable estimate gets the
// rate λ̃ = m/(1 + mE) — the posterior mean of a Poisson rate under a
// gamma prior of one pseudo-change in one mean interval 1/m (shape 1,
// rate 1/m), after no change seen in E: m for a page never watched
// (created after the training window), about 1/E for one watched long —
// and the prior's shape stretched to that rate, Ĝ_i(x) = Ĝ_0(x λ̃/m).
// Its λ̂ becomes λ̃ (for the Poisson plans).
func (p *Problem) setPrior() error {
	p.prepared = true
	if !p.Prior || p.Exact {
		return nil
	}
	n := p.n()
	var usable []int
	unknown := 0
	msum := 0.0
	for i := range n {
		if p.Unchanged(i) {
			unknown++
			continue
		}
		usable = append(usable, i)
		msum += p.Lambda[i]
	}
	if unknown == 0 || len(usable) == 0 {
		return nil
	}
	pr := &priorCurve{m: msum / float64(len(usable))}
	if len(usable) > priorPages {
		k := len(usable) / priorPages
		sub := usable[:0]
		for j := 0; j < len(usable); j += k {
			sub = append(sub, usable[j])
		}
		usable = sub
	}
	pr.pages = len(usable)
	lo, hi := math.Inf(1), 0.0
	for _, i := range usable {
		a, b := p.extent(i)
		lo, hi = math.Min(lo, a), math.Max(hi, b)
	}
	pr.x = make([]float64, priorKnots)
	g := make([]float64, priorKnots)
	for k := range pr.x {
		pr.x[k] = lo * math.Pow(hi/lo, float64(k)/float64(priorKnots-1))
		if hi == lo {
			pr.x[k] = lo * float64(k+1)
		}
	}
	for _, i := range usable {
		for k, x := range pr.x {
			g[k] += p.g(i, x)
		}
	}
	for k := range g {
		g[k] = math.Min(1, g[k]/float64(len(usable)))
	}
	pr.dInf = ToD(pr.x, g)
	pr.d = g
	p.prior = pr
	p.scale = make([]float32, n)
	for i := range n {
		if !p.Unchanged(i) {
			continue
		}
		e := 0.0
		switch {
		case p.st != nil:
			e = p.st.watchedOf(i)
		case p.Watched != nil && p.Watched[i] > 0:
			e = p.Watched[i]
		}
		s := 1 / (1 + pr.m*e)
		p.scale[i] = float32(s)
		s = float64(p.scale[i])
		p.Lambda[i] = pr.m * s
		p.dInf[i] = pr.dInf / s
		p.onPrior++
	}
	return nil
}

// extent is the first knot of page i's Ĝ and the age at which it reaches
// its last value (the last knot, or where its last slope reaches 1).
func (p *Problem) extent(i int) (first, last float64) {
	var x, d []float64
	if p.st != nil {
		x32, d32 := p.st.knots(i)
		x, d = make([]float64, len(x32)), make([]float64, len(d32))
		for k := range x32 {
			x[k], d[k] = float64(x32[k]), float64(d32[k])
		}
	} else {
		x, d = p.Curves.knots(i)
	}
	first, last = x[0], x[len(x)-1]
	if n := len(x); n >= 1 {
		x0, d0 := 0.0, 0.0
		if n > 1 {
			x0, d0 = x[n-2], d[n-2]
		}
		s := 2 * (d[n-1] - d0) / (x[n-1]*x[n-1] - x0*x0)
		if g, _ := gAt(x, d, last); s > 0 && g < 1 {
			last += (1 - g) / s
		}
	}
	return first, last
}

// g is page i's Ĝ(x) (after Prepare: from its D values).
func (p *Problem) g(i int, x float64) float64 {
	if p.st != nil {
		xs, ds := p.st.knots(i)
		v, _ := gAt(xs, ds, x)
		return v
	}
	xs, ds := p.Curves.knots(i)
	v, _ := gAt(xs, ds, x)
	return v
}
