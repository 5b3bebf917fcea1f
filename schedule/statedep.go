package schedule

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/revisit-dev/revisit/model"
)

// State-dependent revisit timing (experimental; docs/methods.md#schedule-statedep).
//
// A constant-rate plan visits page i every Δ_i whatever it saw. A crawler
// that sees only whether the page changed since its previous visit can
// instead choose each delay from what it saw: after a visit that found a
// change, at the end of a delay ℓ, the page's age at that visit lies in
// [0, ℓ); with no other information (the stationary renewal process of
// the page's Ĝ, earlier visits ignored) it has the density ĝ(a)/Ĝ(ℓ)
// there, so the time X from that visit to the next update has the
// survival function
//
//	S_ℓ(x) = (Ĝ(x + ℓ) − Ĝ(x)) / Ĝ(ℓ)        (S_∞(x) = 1 − Ĝ(x)/Ĝ(∞): nothing known),
//
// non-increasing for a concave Ĝ. A visit at time x after that visit that
// finds no change leaves S_ℓ(x) of the belief. The policy visits when the
// conditional probability of a change since the last visit reaches p
// (Munford and Shahani's rule for inspecting a renewal process): the
// visits after a change are at S_ℓ(τ_k) = (1 − p)^k, no closer than the
// crawler's step d_min, and a new belief starts at each visit that finds
// a change (ℓ = the delay that ended there) or, when the page stays quiet
// beyond Ĝ's support (S_ℓ = 0: longer than any stretch Ĝ allows), from
// nothing known. For Poisson pages S_ℓ(x) = e^{−λx} for every ℓ: the
// delays are all −ln(1 − p)/λ, a constant-rate plan.

// ageCurve is a concave age distribution Γ through the origin: knots
// x[0] = 0 < x[1] < … < x[M] with values g (g[0] = 0), linear between
// them and flat (at g[M] = Γ(∞) ≤ 1) after the last. It is the Ĝ a plan
// is solved on, with the gu plan's extension beyond its last knot (the
// last slope until 1) as a knot. cum[j] = ∫₀^{x[j]} Γ.
type ageCurve struct {
	x, g, cum []float64
}

// newAgeCurve is the curve through the origin and the knots x (> 0,
// ascending) with values g (concave, non-decreasing, ≤ 1).
func newAgeCurve(x, g []float64) ageCurve {
	c := ageCurve{x: append([]float64{0}, x...), g: append([]float64{0}, g...)}
	c.cum = make([]float64, len(c.x))
	for j := 1; j < len(c.x); j++ {
		c.cum[j] = c.cum[j-1] + (c.x[j]-c.x[j-1])*(c.g[j]+c.g[j-1])/2
	}
	return c
}

// last is the index of the last knot; Γ is flat from x[last] on.
func (c *ageCurve) last() int { return len(c.x) - 1 }

// slope is Γ's slope on segment j ([x[j], x[j+1]]; 0 from the last knot).
func (c *ageCurve) slope(j int) float64 {
	if j >= c.last() {
		return 0
	}
	return (c.g[j+1] - c.g[j]) / (c.x[j+1] - c.x[j])
}

// seg is the segment holding x: the last j with x[j] ≤ x.
func (c *ageCurve) seg(x float64) int {
	return sort.Search(len(c.x), func(k int) bool { return c.x[k] > x }) - 1
}

// at is Γ(x) for x ≥ 0.
func (c *ageCurve) at(x float64) float64 {
	j := c.seg(x)
	return c.g[j] + c.slope(j)*(x-c.x[j])
}

// integral is ∫₀^l Γ for l ≥ 0.
func (c *ageCurve) integral(l float64) float64 {
	j := c.seg(l)
	return c.cum[j] + (l-c.x[j])*(c.g[j]+c.at(l))/2
}

// meanAge is the expected age of the page at a visit that found a change
// after a delay ℓ, under the belief that its age then has the density
// Γ′/Γ(ℓ) on [0, ℓ): (ℓΓ(ℓ) − ∫₀^ℓ Γ)/Γ(ℓ) (the solver's D(ℓ)/Γ(ℓ)); for ℓ =
// +Inf (nothing known) the mean of Γ/Γ(∞).
func (c *ageCurve) meanAge(l float64) float64 {
	if math.IsInf(l, 1) {
		return c.meanWait(l)
	}
	return l - c.integral(l)/c.at(l)
}

// meanWait is E[X] = ∫₀^∞ S_ℓ, the expected time from a visit that found
// a change (belief ℓ) to the next update: ∫₀^ℓ (Γ(∞) − Γ) / Γ(ℓ), and for
// ℓ = +Inf ∫₀^{x[M]} (Γ(∞) − Γ) / Γ(∞).
func (c *ageCurve) meanWait(l float64) float64 {
	inf := c.g[c.last()]
	if math.IsInf(l, 1) {
		end := c.x[c.last()]
		return (inf*end - c.integral(end)) / inf
	}
	return (inf*l - c.integral(l)) / c.at(l)
}

// curveFromD rebuilds the piecewise-linear Ĝ of a prepared page from its
// knots and D values (ToD: the slope of segment k is 2ΔD/Δ(x²)), through
// the origin, capped at 1 with a knot where it reaches 1, and with the
// extension beyond the last knot (its last slope until 1) as a knot;
// knots are divided by scale (a page on the prior: Ĝ_i(x) = Ĝ_0(x·scale)).
// concave projects the values first (exact curves are planned as they
// are, and need not be concave).
func curveFromD[T real](x, d []T, scale float64, concaveFirst bool) ageCurve {
	xs := make([]float64, 0, len(x)+2)
	gs := make([]float64, 0, len(x)+2)
	px, pd, pg, s := 0.0, 0.0, 0.0, 0.0
	for k := range d {
		xk, dk := float64(x[k]), float64(d[k])
		if xk > px {
			s = math.Max(0, 2*(dk-pd)/(xk*xk-px*px))
		}
		g := pg + s*(xk-px)
		xs, gs = append(xs, xk), append(gs, g)
		px, pd, pg = xk, dk, g
	}
	if concaveFirst {
		concave(xs, gs, nil)
	}
	var cx, cg []float64
	px, pg = 0, 0
	for k := range xs {
		g := math.Max(gs[k], pg)
		if g >= 1 {
			if pg < 1 { // reaches 1 inside the segment
				cx, cg = append(cx, px+(1-pg)*(xs[k]-px)/(g-pg)), append(cg, 1)
			}
			pg = 1
			break
		}
		if xs[k] > px {
			cx, cg = append(cx, xs[k]), append(cg, g)
		}
		px, pg = xs[k], g
	}
	if n := len(cx); pg < 1 && n >= 1 {
		x0, g0 := 0.0, 0.0
		if n >= 2 {
			x0, g0 = cx[n-2], cg[n-2]
		}
		if s := (cg[n-1] - g0) / (cx[n-1] - x0); s > 0 {
			cx, cg = append(cx, cx[n-1]+(1-cg[n-1])/s), append(cg, 1)
		}
	}
	if scale > 0 && scale != 1 {
		for k := range cx {
			cx[k] /= scale
		}
	}
	return newAgeCurve(cx, cg)
}

// cycle walks the belief S_ℓ forward in time from a visit that found a
// change (or from nothing known, ℓ = +Inf): x is the time since that
// visit, ia and ib the segments of Γ holding x and x + ℓ. φ(x) = Γ(x +
// ℓ) − Γ(x) (Γ(∞) − Γ(x) for ℓ = +Inf) is linear between the knots and
// the knots shifted by −ℓ, so the walk solves each step exactly and costs
// O(1) per knot passed.
type cycle struct {
	c      *ageCurve
	l      float64
	norm   float64 // φ(0): Γ(ℓ), or Γ(∞)
	x      float64
	ia, ib int
}

func newCycle(c *ageCurve, l float64) cycle {
	y := cycle{c: c, l: l}
	if math.IsInf(l, 1) {
		y.norm = c.g[c.last()]
	} else {
		y.norm = c.at(l)
		y.ib = c.seg(l)
	}
	return y
}

// phi is φ at the current x.
func (y *cycle) phi() float64 {
	c := y.c
	ga := c.g[y.ia] + c.slope(y.ia)*(y.x-c.x[y.ia])
	if math.IsInf(y.l, 1) {
		return math.Max(0, y.norm-ga)
	}
	gb := c.g[y.ib] + c.slope(y.ib)*(y.x+y.l-c.x[y.ib])
	return math.Max(0, gb-ga)
}

// survival is S_ℓ at the current x.
func (y *cycle) survival() float64 { return y.phi() / y.norm }

// moveTo moves x forward to to (≥ x).
func (y *cycle) moveTo(to float64) {
	c := y.c
	y.x = to
	for y.ia < c.last() && c.x[y.ia+1] <= to {
		y.ia++
	}
	if !math.IsInf(y.l, 1) {
		for y.ib < c.last() && c.x[y.ib+1] <= to+y.l {
			y.ib++
		}
	}
}

// seek moves x forward to the first x' ≥ x with S_ℓ(x') ≤ target (> 0
// reaches the last knot at the latest, where φ = 0).
func (y *cycle) seek(target float64) {
	c := y.c
	want := target * y.norm
	for {
		f := y.phi()
		if f <= want {
			return
		}
		na, nb := math.Inf(1), math.Inf(1) // the next knot of x, and of x + ℓ (as x)
		if y.ia < c.last() {
			na = c.x[y.ia+1]
		}
		sa, sb := c.slope(y.ia), 0.0
		if !math.IsInf(y.l, 1) {
			if y.ib < c.last() {
				nb = c.x[y.ib+1] - y.l
			}
			sb = c.slope(y.ib)
		}
		next := math.Min(na, nb)
		if d := sa - sb; d > 0 {
			if to := y.x + (f-want)/d; to <= next {
				y.moveTo(math.Max(to, y.x))
				return
			}
		}
		if math.IsInf(next, 1) { // φ > 0 constant: cannot happen below Γ's last knot
			y.moveTo(math.Inf(1))
			return
		}
		y.moveTo(math.Max(next, y.x))
		// Rounding in x + ℓ must not hold a pointer back on the knot it
		// just reached.
		if next == na && y.ia < c.last() && c.x[y.ia+1] <= next {
			y.ia++
		}
		if next == nb && y.ib < c.last() && c.x[y.ib+1]-y.l <= next {
			y.ib++
		}
	}
}

// step moves from the current visit to the next: the first x' with
// S_ℓ(x') ≤ (1 − p)·S_ℓ(x), q = 1 − p, and no sooner than x + dmin.
// It returns the survival there.
func (y *cycle) step(q, dmin float64) float64 {
	from := y.x
	y.seek(q * y.survival())
	if y.x < from+dmin {
		y.moveTo(from + dmin)
	}
	return y.survival()
}

// ruleKind is a family of policies a page can be planned on.
type ruleKind uint8

const (
	ruleNever     ruleKind = iota // never visited: no copy
	ruleConstant                  // every 1/f from a uniform phase, whatever it saw (the constant-rate plans)
	ruleBackoff                   // delay d₀ + k·â, â the estimated age (meanAge): back off while the page stays quiet
	ruleThreshold                 // visit when P(change since the last visit) reaches p = 1 − e^{−θ}
)

// rule is one page's policy: its family and parameters (constant: a the
// rate f; backoff: a = d₀ and k; threshold: a = θ).
type rule struct {
	kind ruleKind
	a, k float64
}

func (r rule) String() string {
	switch r.kind {
	case ruleConstant:
		return fmt.Sprintf("constant 1/%.3g", 1/r.a)
	case ruleBackoff:
		return fmt.Sprintf("backoff %.3g + %.3g·â", r.a, r.k)
	case ruleThreshold:
		return fmt.Sprintf("threshold p = %.3g", -math.Expm1(-r.a))
	}
	return "never"
}

// crawler returns the delay function of the rule on curve c for
// crawlTimes (a fresh state: nothing known at its first call) and its
// first delay, from nothing known. Delays are at least dmin.
func (r rule) crawler(c *ageCurve, dmin float64) (next func(changed bool, v float64) float64, first float64) {
	switch r.kind {
	case ruleConstant:
		d := 1 / r.a
		return func(bool, float64) float64 { return d }, d
	case ruleBackoff:
		m0 := c.meanAge(math.Inf(1))
		m, anchor, prev := m0, math.NaN(), math.NaN()
		next = func(changed bool, v float64) float64 {
			if math.IsNaN(anchor) {
				anchor = v
			} else if changed {
				m, anchor = c.meanAge(v-prev), v
			}
			prev = v
			return math.Max(dmin, r.a+r.k*(m+v-anchor))
		}
		return next, math.Max(dmin, r.a+r.k*m0)
	case ruleThreshold:
		q := math.Exp(-r.a)
		y := newCycle(c, math.Inf(1))
		probe := y
		probe.step(q, dmin)
		last, at := math.NaN(), math.NaN() // the visit the belief started at; the current visit
		next = func(changed bool, v float64) float64 {
			switch {
			case math.IsNaN(last):
				last = v
			case changed:
				y = newCycle(c, v-at)
				last = v
			case y.survival() == 0: // quiet beyond Γ's support: nothing known
				y = newCycle(c, math.Inf(1))
				last = v
			}
			at = v
			y.step(q, dmin)
			return math.Max(dmin, last+y.x-v) // ≥ dmin up to rounding
		}
		return next, probe.x
	}
	return func(bool, float64) float64 { return math.Inf(1) }, math.Inf(1)
}

// renewalPath draws n update times, the first at 0, of a renewal process
// whose interval distribution is F̂ = 1 − γ/γ(0⁺), γ = Γ′ (a stationary
// renewal process has the age distribution of density (1 − F_U)/E[U]:
// Γ/Γ(∞), the time Γ leaves at age +∞ not being there).
// Γ is piecewise linear, so F̂ puts its mass on the knots; each interval
// is spread uniformly over the segment below its knot (F̄ linear between
// the knots), so that no lattice of knots is there for a policy to
// exploit.
func (c *ageCurve) renewalPath(n int, r *rand.Rand) []float64 {
	m := c.last()
	s0 := c.slope(0)
	ts := make([]float64, n)
	for i := 1; i < n; i++ {
		u := r.Float64() * s0
		// the last segment whose slope is ≥ u: the interval ends at its end
		j := max(sort.Search(m, func(k int) bool { return c.slope(k) < u })-1, 0)
		ts[i] = ts[i-1] + c.x[j+1] - r.Float64()*(c.x[j+1]-c.x[j])
	}
	return ts
}

// Sizes of the planning simulation: the synthetic updates per page, the
// share of them the crawlers run before the measured window, and the
// grids of candidates (backoff: k and d₀ = Δ_c·2^{j/2} for j in
// [dLo, dHi], Δ_c the page's delay in the gu plan; threshold: θ
// log-spaced) and of constant rates (f_c·2^{j/4}, |j| ≤ rateSpan).
const (
	synthUpdates = 1000
	synthWarm    = 0.1
	synthBatches = 10
	dLo, dHi     = -6, 4
	thetaCount   = 4
	rateSpan     = 24
)

// gainZ is how many standard errors a rule's simulated gain must exceed
// 0 by to count: each page takes the best of many noisy gains, and
// without the margin it would adopt rules for their noise.
const gainZ = 2

var backoffKs = []float64{1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2}

// Families of state-dependent rules a plan may choose besides constant
// timing (a bit set): the back-off rules (the plan's), the threshold
// rules (to measure them), both, or none (the plan is then gu's, up to
// the grid of rates).
type families uint8

const (
	famBackoff families = 1 << iota
	famThreshold
)

// parseFamilies reads a comma-separated list of families: backoff,
// threshold, none.
func parseFamilies(s string) (families, error) {
	var f families
	for _, w := range strings.Split(s, ",") {
		switch strings.TrimSpace(strings.ToLower(w)) {
		case "backoff":
			f |= famBackoff
		case "threshold":
			f |= famThreshold
		case "none":
		default:
			return 0, fmt.Errorf("state-dependent rules %q: want backoff, threshold or none, comma-separated", s)
		}
	}
	return f, nil
}

// candidates are the state-dependent rules of the families a page is
// scored on, around the delay dc.
func candidates(dc float64, fam families) []rule {
	var out []rule
	for _, k := range backoffKs {
		if fam&famBackoff == 0 {
			break
		}
		for j := dLo; j <= dHi; j++ {
			out = append(out, rule{kind: ruleBackoff, a: dc * math.Pow(2, float64(j)/2), k: k})
		}
	}
	for j := range thetaCount {
		if fam&famThreshold == 0 {
			break
		}
		out = append(out, rule{kind: ruleThreshold, a: 0.1 * math.Pow(30, float64(j)/float64(thetaCount-1))})
	}
	return out
}

// vertex is a point of a page's frontier: rule r predicts visit rate rate
// and freshness phi.
type vertex struct {
	r         rule
	rate, phi float64
}

// options scores page i's rules under its Γ and returns the upper concave
// hull of (rate, freshness), from never visited (rate 0, freshness 1 −
// Γ(∞)): the freshness the page can get at each visit rate.
// Constant-rate rules are scored exactly (Problem.Predicted, the curve gu
// is solved on). A state-dependent rule is simulated on a synthetic
// renewal path of Γ (renewalPath; the same path and phase for every rule:
// common random numbers), and scored as the constant-rate freshness under
// Γ at its simulated rate plus its simulated gain over constant timing on
// the same path at the same rate (Realized, exact), less gainZ standard
// errors of that gain (batch means over synthBatches stretches of the
// path): a control variate, so that where no rule gains for sure the
// frontier is the gu plan's curve.
func (p *Problem) options(i int, c *ageCurve, fc, dmin float64, fam families, rng *rand.Rand) []vertex {
	exact := func(f float64) float64 {
		phi, _ := p.Predicted(i, f)
		return phi
	}
	pts := []vertex{{r: rule{kind: ruleNever}, rate: 0, phi: exact(0)}}
	for j := -rateSpan; j <= rateSpan; j++ {
		f := fc * math.Pow(2, float64(j)/4)
		pts = append(pts, vertex{r: rule{kind: ruleConstant, a: f}, rate: f, phi: exact(f)})
	}
	cands := candidates(1/fc, fam)
	if len(cands) == 0 {
		return hull(pts)
	}
	path := c.renewalPath(synthUpdates, rng)
	first := int(synthWarm * synthUpdates)
	edges := make([]float64, synthBatches+1)
	for b := range edges {
		edges[b] = path[first+b*(len(path)-1-first)/synthBatches]
	}
	w0, w1 := edges[0], edges[synthBatches]
	phase := rng.Float64()
	gains := make([]float64, synthBatches)
	for _, r := range cands {
		next, d1 := r.crawler(c, dmin)
		fresh, visits := crawlBatches(path, -phase*d1, edges, next)
		n := 0
		for _, v := range visits {
			n += v
		}
		if n == 0 {
			continue
		}
		rate := float64(n) / (w1 - w0)
		// The gain in each stretch, and their mean weighted by length.
		g := 0.0
		for b := range gains {
			l := edges[b+1] - edges[b]
			gains[b] = fresh[b]/l - Realized(path, edges[b], edges[b+1], 1/rate)
			g += gains[b] * l / (w1 - w0)
		}
		ss := 0.0
		for b := range gains {
			wb := (edges[b+1] - edges[b]) / (w1 - w0)
			ss += wb * wb * (gains[b] - g) * (gains[b] - g)
		}
		if lo := g - gainZ*math.Sqrt(ss*synthBatches/(synthBatches-1)); lo > 0 {
			pts = append(pts, vertex{r: r, rate: rate, phi: exact(rate) + lo})
		}
	}
	return hull(pts)
}

// hull is the upper concave hull of the points by rate, up to its highest
// freshness (only rising segments are worth a visit).
func hull(pts []vertex) []vertex {
	slices.SortStableFunc(pts, func(a, b vertex) int { return cmp.Compare(a.rate, b.rate) })
	h := pts[:1]
	for _, v := range pts[1:] {
		if v.rate == h[len(h)-1].rate {
			if v.phi > h[len(h)-1].phi {
				h[len(h)-1] = v
			}
			continue
		}
		for len(h) >= 2 {
			a, b := h[len(h)-2], h[len(h)-1]
			// b on or below the chord a→v: drop it.
			if (b.phi-a.phi)*(v.rate-a.rate) <= (v.phi-a.phi)*(b.rate-a.rate) {
				h = h[:len(h)-1]
				continue
			}
			break
		}
		h = append(h, v)
	}
	for len(h) >= 2 && h[len(h)-1].phi <= h[len(h)-2].phi {
		h = h[:len(h)-1]
	}
	return h
}

// between is the rule part of the way (frac) from vertex a to b of a
// hull, predicted on the chord: a constant rate, or a backoff's d₀ or a
// threshold's θ in between (log-linear) when both are of one family (and
// k); ok is false when they are not.
func between(a, b vertex, frac float64) (v vertex, ok bool) {
	lerp := func(x, y float64) float64 { return math.Exp(math.Log(x) + frac*(math.Log(y)-math.Log(x))) }
	v = vertex{rate: a.rate + frac*(b.rate-a.rate), phi: a.phi + frac*(b.phi-a.phi)}
	switch {
	case a.r.kind == ruleConstant && b.r.kind == ruleConstant:
		v.r = rule{kind: ruleConstant, a: v.rate}
	case a.r.kind == b.r.kind && a.r.k == b.r.k && a.r.kind != ruleNever:
		v.r = rule{kind: a.r.kind, a: lerp(a.r.a, b.r.a), k: a.r.k}
	default:
		return vertex{}, false
	}
	return v, true
}

// statePolicy is a state-dependent plan: a rule per page and what it
// predicts under the pages' Ĝ.
type statePolicy struct {
	Rules []rule
	// Rate and Fresh are each page's predicted visit rate (per unit) and
	// freshness; Budget is their total rate and MeanFresh the
	// importance-weighted mean freshness.
	Rate, Fresh       []float64
	Budget, MeanFresh float64
	// Saturated says every page is at the last point of its frontier and
	// the budget is not all spent.
	Saturated bool
	Dmin      float64 // the smallest delay (units)

	curves []ageCurve
}

// Counts is how many pages each family of rules got (never, constant,
// backoff, threshold).
func (sp *statePolicy) Counts() [4]int {
	var n [4]int
	for _, r := range sp.Rules {
		n[r.kind]++
	}
	return n
}

// planStateDep plans the state-dependent policy on a prepared problem at
// its budget: every page's frontier (options: the best rule for each
// visit rate under its Ĝ, constant-rate timing among them), then the
// budget spent on the segments of largest weighted marginal freshness
// w_i ΔΦ/ΔR first — the Lagrangian solution for concave frontiers, as
// the solver's for the constant-rate plans. The page at the multiplier
// gets a rule in between (between); where none is (two families), it
// stays at the vertex before and the budget left goes on to the next
// segments that fit. Pages that never changed and are not
// on the prior get the min rate, as in the other plans; pages of
// importance 0 are never visited. Host limits are not supported. dmin >
// 0 is the smallest delay (the crawler's step); seed and the page ids
// seed each page's synthetic path.
func (p *Problem) planStateDep(ids []int64, dmin float64, fam families, seed uint64) (*statePolicy, error) {
	if !p.prepared {
		return nil, fmt.Errorf("schedule: planStateDep before Prepare")
	}
	if p.Limits != nil {
		return nil, fmt.Errorf("schedule: the state-dependent plan does not support host limits")
	}
	if !(dmin > 0) {
		return nil, fmt.Errorf("schedule: state-dependent plan: smallest delay %g: want > 0", dmin)
	}
	n := p.n()
	gu, err := p.Solve(PlanGU)
	if err != nil {
		return nil, err
	}
	sp := &statePolicy{Rules: make([]rule, n), Rate: make([]float64, n), Fresh: make([]float64, n), Dmin: dmin, curves: make([]ageCurve, n)}
	hulls := make([][]vertex, n)
	budget := p.Budget
	var todo []int
	for i := range n {
		switch {
		case p.Unchanged(i) && !p.OnPrior(i):
			if p.MinRate > 0 {
				sp.Rules[i] = rule{kind: ruleConstant, a: p.MinRate}
			}
			sp.Rate[i] = p.MinRate
			sp.Fresh[i], _ = p.Predicted(i, p.MinRate)
			budget -= p.MinRate
		case p.w(i) > 0:
			todo = append(todo, i)
		}
	}
	each(len(todo), func(j int) {
		i := todo[j]
		c := p.curve(i)
		fc := gu.F[i]
		if !(fc > 0) {
			fc = c.slope(0) // never visited by gu: around its update rate
		}
		hulls[i] = p.options(i, &c, fc, dmin, fam, stateRand(seed, ids[i]))
		sp.curves[i] = c
	})
	type segment struct {
		page, k int
		value   float64 // w ΔΦ/ΔR
	}
	var segs []segment
	for i, h := range hulls {
		if h != nil {
			sp.Fresh[i] = h[0].phi
		}
		for k := 1; k < len(h); k++ {
			segs = append(segs, segment{page: i, k: k, value: p.w(i) * (h[k].phi - h[k-1].phi) / (h[k].rate - h[k-1].rate)})
		}
	}
	sort.SliceStable(segs, func(a, b int) bool { return segs[a].value > segs[b].value })
	at := make([]int, n) // each page's vertex; −1: in between, −2: no further
	left := budget
	for _, s := range segs {
		h := hulls[s.page]
		if left <= 0 || at[s.page] != s.k-1 {
			continue
		}
		a, b := h[s.k-1], h[s.k]
		if dr := b.rate - a.rate; dr <= left {
			at[s.page] = s.k
			left -= dr
			continue
		}
		v, ok := between(a, b, left/(b.rate-a.rate)) // the page at the multiplier
		if !ok {
			at[s.page] = -2 - at[s.page]
			continue
		}
		sp.Rules[s.page], sp.Rate[s.page], sp.Fresh[s.page] = v.r, v.rate, v.phi
		at[s.page] = -1
		left = 0
	}
	sp.Saturated = left > 0
	for i, h := range hulls {
		k := at[i]
		if k <= -2 {
			k = -2 - k
		}
		if h != nil && k >= 0 {
			v := h[k]
			sp.Rules[i], sp.Rate[i], sp.Fresh[i] = v.r, v.rate, v.phi
		}
	}
	num, den := 0.0, 0.0
	for i := range n {
		sp.Budget += sp.Rate[i]
		num += p.w(i) * sp.Fresh[i]
		den += p.w(i)
	}
	sp.MeanFresh = num / den
	return sp, nil
}

// stateRand is the random source of page id's synthetic path and phases.
func stateRand(seed uint64, id int64) *rand.Rand {
	return model.NewRand(seed, uint64(id)^0x5ade9e7d)
}

// each runs fn(0 … n−1) on up to GOMAXPROCS goroutines.
func each(n int, fn func(j int)) {
	var wg sync.WaitGroup
	next := make(chan int, n)
	for j := range n {
		next <- j
	}
	close(next)
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				fn(j)
			}
		}()
	}
	wg.Wait()
}

// curve is page i's Ĝ after Prepare as an ageCurve (its own, or the
// prior's stretched to its rate); exact curves are projected onto the
// concave CDFs, which the policy's belief needs.
func (p *Problem) curve(i int) ageCurve {
	switch {
	case p.OnPrior(i):
		return curveFromD(p.prior.x, p.prior.d, float64(p.scale[i]), false)
	case p.st != nil:
		x, d := p.st.knots(i)
		return curveFromD(x, d, 1, p.Exact)
	default:
		x, d := p.Curves.knots(i)
		return curveFromD(x, d, 1, p.Exact)
	}
}

// simulate runs page i's rule on its true update times (ascending, in
// units; updates before t0 count) over [start, t1) and measures the
// evaluation window [t0, t1): the fraction of it during which the copy
// was fresh (no update since the last visit; before the page's first
// update the copy is fresh) and the visits made in it. The crawler's
// copy is taken at start − u·d₁, u uniform from r and d₁ its first delay
// from nothing known (the phase a constant crawler has); start ≤ t0 lets
// it run into its state before the window. A page never visited has no
// copy (stale from its first update on).
func (sp *statePolicy) simulate(i int, times []float64, start, t0, t1 float64, r *rand.Rand) (fresh float64, visits int) {
	if sp.Rules[i].kind == ruleNever {
		return Realized(times, t0, t1, math.Inf(1)), 0
	}
	next, d1 := sp.Rules[i].crawler(&sp.curves[i], sp.Dmin)
	return crawlTimes(times, start-r.Float64()*d1, t0, t1, next)
}

// crawlTimes runs a crawler over update times from a visit at s0 (its copy
// taken then) to t1: next(changed, v) is the delay after the visit at v,
// changed whether an update fell since the visit before. It returns the
// fraction of [t0, t1) with a fresh copy (no update since the last
// visit; before the first update the copy is fresh) and the visits in
// [t0, t1).
func crawlTimes(times []float64, s0, t0, t1 float64, next func(changed bool, v float64) float64) (fresh float64, visits int) {
	f, n := crawlBatches(times, s0, []float64{t0, t1}, next)
	return f[0] / (t1 - t0), n[0]
}

// crawlBatches is crawlTimes over consecutive windows [edges[b],
// edges[b+1]): the fresh time and the visits in each.
func crawlBatches(times []float64, s0 float64, edges []float64, next func(changed bool, v float64) float64) (fresh []float64, visits []int) {
	fresh = make([]float64, len(edges)-1)
	visits = make([]int, len(edges)-1)
	t0, t1 := edges[0], edges[len(edges)-1]
	j := sort.Search(len(times), func(k int) bool { return times[k] > s0 }) // updates ≤ s0
	b := 0                                                                  // the window of the current time
	v := s0
	d := next(false, s0)
	for v < t1 {
		w := v + d // the next visit
		// Fresh from v until the first update after it, or w.
		end := w
		if j < len(times) && times[j] < end {
			end = times[j]
		}
		for a := math.Max(v, t0); a < math.Min(end, t1); {
			for b+1 < len(fresh) && edges[b+1] <= a {
				b++
			}
			e := math.Min(math.Min(end, t1), edges[b+1])
			fresh[b] += e - a
			a = e
		}
		if w >= t1 {
			break
		}
		k := j
		for k < len(times) && times[k] <= w {
			k++
		}
		if w >= t0 {
			for b+1 < len(visits) && edges[b+1] <= w {
				b++
			}
			visits[b]++
		}
		d = next(k > j, w)
		j, v = k, w
	}
	return fresh, visits
}
