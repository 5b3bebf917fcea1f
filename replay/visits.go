package replay

import (
	"github.com/revisit-dev/revisit/estimator"
	"math"
	"math/rand/v2"
)

// visitSource yields visit times in increasing order; before is the
// crawler's virtual visit before the first one (valid after the first
// next).
type visitSource interface {
	next() float64
	before() float64
}

// visitGen draws the visits of Sampler s from r.
type visitGen struct {
	s     estimator.Sampler
	r     *rand.Rand
	j     int
	start float64
	cur   float64
	prev0 float64 // s_1 − S_0
}

func newVisitGen(s estimator.Sampler, r *rand.Rand) *visitGen { return &visitGen{s: s, r: r, j: -1} }

func (g *visitGen) next() float64 {
	g.j++
	if g.s.Constant() {
		// s_j = s_1 + jΔ, computed by multiplication so that visit
		// differences are multiples of Δ up to one rounding.
		if g.j == 0 {
			g.start = g.r.Float64() * g.s.Delta
			g.prev0 = g.start - g.s.Delta
		}
		return g.start + float64(g.j)*g.s.Delta
	}
	if g.j == 0 {
		u := g.r.Float64() // drawn before S_0, in every version: a seed's streams stay the same
		s0 := g.s.Dist.Rand(g.r)
		g.cur = u * s0
		g.prev0 = g.cur - s0
		return g.cur
	}
	g.cur += g.s.Dist.Rand(g.r)
	return g.cur
}

func (g *visitGen) before() float64 { return g.prev0 }

// sliceVisits yields given visit times, then +Inf. The virtual visit
// before the first is prev0.
type sliceVisits struct {
	v     []float64
	i     int
	prev0 float64
}

func (s *sliceVisits) before() float64 { return s.prev0 }

func (s *sliceVisits) next() float64 {
	if s.i >= len(s.v) {
		return math.Inf(1)
	}
	s.i++
	return s.v[s.i-1]
}
