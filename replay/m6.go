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
// the window split into a same-cycle run and the rest: each pair costs one
// increment, of same(y_n) or of Z(y_n), and W = same + Z, counted cycle by
// cycle. Bins with no pair (W = 0) carry the previous value forward (0
// before the first).
//
// Binning: for random delays the visit times are scaled once and kept as
// integers q = round(s/h·2²⁰) (a resolution of 2⁻²⁰ bins, far below any
// clock; coarser only for windows of ≥ 2⁴² bins, see m6Bits), and a pair's
// bin is ⌈(q_j − q_i)/2²⁰⌉, exact in integer arithmetic (pairBin). For constant
// delays the visits are s_1 + jΔ and the grid step is Δ, so a pair's bin is
// its lag L = j − i, exactly, and no pair is visited at all: W(L) = m − L,
// and the same-cycle pairs at lag L are Σ_c max(0, k_c − L) over the update
// cycles c holding k_c visits, from a histogram of the k_c: O(m + N).
type m6 struct {
	g       grid
	lattice bool // constant delays: bin = lag
	same, z []int64
	sig     []int64 // quantized visit times q = round(s/h·2^qBits) inside the window, oldest first from head
	c       []int64 // their update cycles
	head    int
	pairs   int64
	bits    int // resolution of the quantized times: 2^−bits bins (m6Bits); −1: window too long

	// lattice: visits per cycle
	m      int64   // visits
	k      int64   // visits in the current cycle
	cycle  int64   // the current cycle
	kCount []int64 // kCount[k] = cycles with k visits (closed ones)
}

// newM6 is M6 on grid g for visits in a window ending at end (in units).
func newM6(g grid, lattice bool, end float64) *m6 {
	return &m6{g: g, lattice: lattice, bits: m6Bits(end, g.inv), same: make([]int64, g.n+1), z: make([]int64, g.n+1)}
}

// qBits is the resolution of M6's visit times for random delays: 2^−20 of
// a bin (5·10⁻⁸ h for h = 0.05 h).
const qBits = 20

// m6Bits is the resolution 2^−bits bins at which visit times up to end can
// be quantized without overflowing an int64 (|q| < 2^62, so q_j + 2^bits
// cannot overflow either): qBits, or fewer when the window holds 2^42 bins
// or more (e.g. 10⁹ s at h = 10⁻⁴ s); −1 when even whole bins overflow.
func m6Bits(end, inv float64) int {
	n := end * inv // bins in the window
	if n < 1<<(62-qBits) {
		return qBits
	}
	if !(n < 1<<62) {
		return -1
	}
	_, exp := math.Frexp(n) // n < 2^exp
	return 62 - exp
}

// quantize is a visit time in units of 2^−bits bins: round(s/h·2^bits).
func quantize(s, inv float64, bits int) int64 {
	return int64(math.Round(math.Ldexp(s*inv, bits)))
}

// pairBin is M6's bin of the pair (i, j) for random delays, exactly in
// integers: ⌈(q_j − q_i)/2^bits⌉, given adj = q_j + 2^bits − 1.
func pairBin(adj, qi int64, bits int) int { return int((adj - qi) >> (uint(bits) & 63)) }

func (e *m6) add(o *Obs) {
	if e.lattice {
		e.addLattice(o)
		return
	}
	if e.bits < 0 {
		return
	}
	limit, bits := int64(e.g.n), e.bits
	q := quantize(o.S, e.g.inv, bits)
	adj := q + 1<<bits - 1
	// Drop visits that can no longer pair with o or any later visit.
	for e.head < len(e.sig) && int64(pairBin(adj, e.sig[e.head], bits)) > limit {
		e.head++
	}
	if e.head > 4096 && e.head*2 > len(e.sig) {
		n := copy(e.sig, e.sig[e.head:])
		copy(e.c, e.c[e.head:])
		e.sig, e.c, e.head = e.sig[:n], e.c[:n], 0
	}
	// Every visit from head on is within the grid: bin ≤ limit.
	s, c, same, z := e.sig[e.head:], e.c[e.head:], e.same, e.z
	i := len(s) - 1
	if bits == qBits { // the usual case: a constant shift keeps the loop tight
		for ; i >= 0 && c[i] == o.Cycle; i-- { // same cycle: Q_ij = 0
			same[(adj-s[i])>>qBits]++
		}
		for ; i >= 0; i-- { // different cycles: Q_ij = 1
			z[(adj-s[i])>>qBits]++
		}
	} else {
		for ; i >= 0 && c[i] == o.Cycle; i-- {
			same[pairBin(adj, s[i], bits)]++
		}
		for ; i >= 0; i-- {
			z[pairBin(adj, s[i], bits)]++
		}
	}
	e.pairs += int64(len(s))
	e.sig = append(e.sig, q)
	e.c = append(e.c, o.Cycle)
}

// addLattice counts the visits of each update cycle.
func (e *m6) addLattice(o *Obs) {
	if e.m > 0 && o.Cycle != e.cycle {
		e.closeCycle()
	}
	e.cycle = o.Cycle
	e.k++
	e.m++
}

func (e *m6) closeCycle() {
	for int64(len(e.kCount)) <= e.k {
		e.kCount = append(e.kCount, 0)
	}
	e.kCount[e.k]++
	e.k = 0
}

// finishLattice turns the cycle histogram into same(L) and Z(L):
// W(L) = max(0, m − L), same(L) = Σ_{k>L} (k − L)·kCount[k]. It runs once.
func (e *m6) finishLattice() {
	if !e.lattice || e.m == 0 {
		return
	}
	if e.k > 0 {
		e.closeCycle()
	}
	n := len(e.kCount)
	var s0, s1 int64 // Σ_{k>L} kCount[k] and Σ_{k>L} k·kCount[k]
	for k := n - 1; k > e.g.n; k-- {
		s0 += e.kCount[k]
		s1 += int64(k) * e.kCount[k]
	}
	e.pairs = 0
	for L := e.g.n; L >= 1; L-- {
		same := s1 - int64(L)*s0
		w := max(0, e.m-int64(L))
		e.same[L] = same
		e.z[L] = w - same
		e.pairs += w
		if L < n {
			s0 += e.kCount[L]
			s1 += int64(L) * e.kCount[L]
		}
	}
	e.m, e.kCount = 0, nil
}

// w is W = same + Z.
func (e *m6) w() []int64 {
	e.finishLattice()
	w := make([]int64, len(e.z))
	for i := range w {
		w[i] = e.same[i] + e.z[i]
	}
	return w
}

func (e *m6) cdf() (series.CDF, string) {
	e.finishLattice()
	c, note := ratioCDF(e.g.x, e.w(), e.z, e.pairs)
	if !e.lattice && e.bits < 0 {
		note = fmt.Sprintf("not run: the window holds ≥ 2^62 bins of width %g (h is too small for it)", e.g.step)
	}
	return c, note
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
