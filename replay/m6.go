package replay

import (
	"fmt"
	"math"

	"github.com/revisit-dev/revisit/series"
)

// m6 is M6 (SPEC §4.1), the estimator for random delays: over all pairs of
// visits i < j, W(y_n) counts the pairs with (s_j − s_i)° = y_n and Z(y_n)
// those with Q_ij = 1, and G_6(y_n) = Z(y_n)/W(y_n) → G_U as h → 0.
//
// It never compares all Θ(m²) pairs. Only pairs with y° ≤ y_N matter, and
// visits arrive in time order, so each new visit j is paired with the
// earlier visits still inside the window [s_j − y_N, s_j) (a sweep whose
// left edge only moves forward): the cost is O(m + pairs within x_max).
// Q_ij = 1 exactly when s_i and s_j lie in different update cycles, and the
// earlier visits of j's own cycle are the most recent ones, so the pairs of
// the window split into a same-cycle run (counted in W only) and the rest
// (counted in W and Z): Z = W − same-cycle pairs, cycle by cycle. Bins with
// no pair (W = 0) carry the previous value forward (0 before the first).
type m6 struct {
	g     grid
	w, z  []int64
	s     []float64 // visit times inside the window, oldest first from head
	c     []int64   // their update cycles
	head  int
	pairs int64
}

func newM6(g grid) *m6 {
	return &m6{g: g, w: make([]int64, g.n+1), z: make([]int64, g.n+1)}
}

func (e *m6) add(o *Obs) {
	inv, limit := e.g.inv, e.g.n
	// Drop visits that can no longer pair with o or any later visit.
	for e.head < len(e.s) && binOf(o.S-e.s[e.head], inv, limit) > limit {
		e.head++
	}
	if e.head > 4096 && e.head*2 > len(e.s) {
		n := copy(e.s, e.s[e.head:])
		copy(e.c, e.c[e.head:])
		e.s, e.c, e.head = e.s[:n], e.c[:n], 0
	}
	// Every visit from head on pairs with o inside the grid (bins are
	// monotone in the distance), so the loops bin without the limit check:
	// ceilBin is binOf for 0 ≤ y·inv ≤ limit.
	s, c, w, z := e.s[e.head:], e.c[e.head:], e.w, e.z
	i := len(s) - 1
	for ; i >= 0 && c[i] == o.Cycle; i-- { // same cycle: Q_ij = 0
		w[ceilBin(o.S-s[i], inv)]++
	}
	for ; i >= 0; i-- { // different cycles: Q_ij = 1
		b := ceilBin(o.S-s[i], inv)
		w[b]++
		z[b]++
	}
	e.pairs += int64(len(e.s) - e.head)
	e.s = append(e.s, o.S)
	e.c = append(e.c, o.Cycle)
}

// ceilBin is ⌈y·inv − 10⁻⁹⌉ for y·inv ≥ 0 small enough for an int: binOf
// without its range checks, for M6's inner loops.
func ceilBin(y, inv float64) int {
	v := y*inv - binTol
	b := int(v)
	if float64(b) < v {
		b++
	}
	return b
}

func (e *m6) cdf() (series.CDF, string) {
	return ratioCDF(e.g.x, e.w, e.z, e.pairs)
}

// ratioCDF is G_6 = Z/W with empty bins carried forward.
func ratioCDF(x []float64, w, z []int64, pairs int64) (series.CDF, string) {
	p := make([]float64, len(x))
	empty := 0
	last := 0.0
	for n := range p {
		if w[n] == 0 {
			if n > 0 {
				empty++
			}
			p[n] = last
			continue
		}
		p[n] = float64(z[n]) / float64(w[n])
		last = p[n]
	}
	note := ""
	if pairs == 0 {
		for i := range p {
			p[i] = math.NaN()
		}
		note = "no pairs of visits within x_max"
	} else if empty > 0 {
		note = fmt.Sprintf("%d of %d bins had no pair (value carried forward)", empty, len(p)-1)
	}
	return series.CDF{Method: MethodM6, X: x, P: p, Samples: int(pairs)}, note
}
