package estimator

import (
	"fmt"
	"math"
	"sync"

	"github.com/revisit-dev/revisit/series"
)

// m6 is M6 (SPEC §4.1), the estimator for random delays: over all pairs of
// visits i < j, W(y_n) counts the pairs with (s_j − s_i)° = y_n and Z(y_n)
// those with Q_ij = 1, and G_6(y_n) = Z(y_n)/W(y_n) → G_U as h → 0.
//
// It never compares all Θ(m²) pairs. Only pairs with y° ≤ y_N matter, and
// visits arrive in time order, so each new visit j is paired with the
// earlier visits still inside the window [s_j − y_N, s_j) (a sweep whose
// left edge only moves forward): the cost is O(m + pairs within x_max),
// one histogram increment per pair, m6Block visits at a time (sweep).
// Visits are paired in chunks of m6Chunk, each split over two goroutines
// with their own histograms (integer counts, summed: exact and
// deterministic); memory is the window plus one chunk.
//
// The histogram of the visits' bins alone does not determine W: the bin
// of a pair depends on where both visits lie inside their bins (visits at
// 0.3h and 1.2h are 1 bin apart, at 0.3h and 1.4h 2 bins). Exactly, with
// q = 2²⁰·c + r, a pair's bin is (c_j − c_i) + [r_j > r_i], so splitting
// the visits into k groups by offset r turns the pairs across groups into
// cross-correlations of per-cell counts (FFTs) and leaves 1/k of the
// pairs; on the 2,000-page corpus of bench/replay-ingest.sh the
// transforms (of length span + x_max) cost about as much as the pairs they
// replace (docs/methods.md#m6), so the pairs are counted one by one.
//
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
	head    int     // sig[head:] may still pair with later visits
	done    int     // sig[:done] are paired; sig[done:] wait for the next flush
	chunk   int     // visits per flush (m6Chunk)
	split   bool
	same2   []int64 // the second half's histograms, summed by finish
	z2      []int64
	pairs   int64
	gd      *Guard // stops the sweep on cancellation or too many pairs (nil: never)
	bits    int    // resolution of the quantized times: 2^−bits bins (m6Bits); −1: window too long

	// lattice: visits per cycle
	m      int64   // visits
	k      int64   // visits in the current cycle
	cycle  int64   // the current cycle
	kCount []int64 // kCount[k] = closed cycles with k visits, k ≤ N
	// Closed cycles with more than N visits contribute to every lag alike:
	// only their number and their total visits are kept, so memory is
	// O(N) whatever the visits per cycle.
	bigCycles, bigVisits int64
}

// newM6 is M6 on grid g for visits in a window ending at end (in units).
// gd, if not nil, is polled while pairing: a cancelled context or more
// than its pair cap stops M6 with gd.err set.
func newM6(g grid, lattice bool, end float64, gd *Guard) *m6 {
	return &m6{g: g, lattice: lattice, bits: m6Bits(end, g.inv), chunk: m6Chunk, split: g.n <= m6SplitMax,
		same: make([]int64, g.n+1), z: make([]int64, g.n+1), gd: gd}
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
	if e.bits < 0 || e.gd.Stopped() {
		return
	}
	e.sig = append(e.sig, quantize(o.S, e.g.inv, e.bits))
	e.c = append(e.c, o.Cycle)
	if len(e.sig)-e.done >= e.chunk {
		e.flush()
	}
}

// m6Chunk is the number of visits M6 collects before pairing them; each
// chunk is split in two halves paired on two goroutines into separate
// histograms that are summed at the end (integer counts: the result does
// not depend on the split).
const m6Chunk = 1 << 14

// m6SplitMax is the largest grid (bins) for which M6 splits its chunks:
// the second half needs histograms of its own (16 bytes per bin).
const m6SplitMax = 1 << 20

// flush pairs the visits collected since the last flush with every
// earlier visit within x_max, then drops the visits no later visit can
// pair with. When the guard stops the sweep (cancelled, or more pairs than
// its cap) the counts are incomplete and gd.err says why.
func (e *m6) flush() {
	lo, hi := e.done, len(e.sig)
	if lo == hi || e.gd.Stopped() {
		return
	}
	budget := int64(math.MaxInt64)
	if e.gd != nil && e.gd.capPairs > 0 {
		budget = e.gd.capPairs - e.pairs
	}
	var ok bool
	if mid := lo + (hi-lo)/2; e.split && mid > lo {
		if e.same2 == nil {
			e.same2, e.z2 = make([]int64, len(e.same)), make([]int64, len(e.z))
		}
		var p2 int64
		var ok2 bool
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			p2, ok2 = e.sweep(mid, hi, e.same2, e.z2, budget)
		}()
		var p1 int64
		p1, ok = e.sweep(lo, mid, e.same, e.z, budget)
		wg.Wait()
		e.pairs += p1 + p2
		ok = ok && ok2
	} else {
		var p int64
		p, ok = e.sweep(lo, hi, e.same, e.z, budget)
		e.pairs += p
	}
	if !ok {
		if e.gd.cancelled() {
			e.gd.err = e.gd.ctx.Err()
		} else {
			e.gd.err = &LimitError{SkipMaxPairs, float64(e.pairs), e.gd.maxPairs}
		}
		return
	}
	e.done = hi
	// Visits beyond x_max of the last one cannot pair with any later visit.
	limit, last := e.g.n, e.sig[hi-1]+1<<e.bits-1
	for e.head < hi && pairBin(last, e.sig[e.head], e.bits) > limit {
		e.head++
	}
	if e.head > 4096 && e.head*2 > len(e.sig) {
		n := copy(e.sig, e.sig[e.head:])
		copy(e.c, e.c[e.head:])
		e.sig, e.c, e.done, e.head = e.sig[:n], e.c[:n], e.done-e.head, 0
	}
}

// sweep pairs each visit j in [a, b) with the earlier visits i within
// x_max (bin ≤ N), counting same-cycle pairs in same and the others in z,
// and returns the number of pairs. It only reads e.sig and e.c, so two
// sweeps over disjoint ranges may run at once. It gives up (ok = false)
// when the guard's context is done or its pairs exceed budget, checking
// before every block of m6Block visits.
//
// Pair (i, j) is same-cycle when i lies in j's run, the maximal stretch
// of consecutive visits with j's cycle (Q_ij = 0 exactly then). The
// visits j are taken m6Block at a time, j0 … j1−1, and their pairs fall
// into three parts: the earlier visits every j of the block pairs with,
// i ∈ [L, j0) with L = min(lo_{j1−1}, j0) (lo_j is the first visit
// within x_max of j, which only moves forward); the leading edge of the
// window, i ∈ [lo_j, L); and the block itself, i ∈ [j0, j). In the first
// part, i lies in the run of j exactly when i is at or after the start
// of j0's run and j is in it: pairBlock pairs all 8 visits with the
// earlier visits before that start (in z) and, when the block stays in
// j0's run, with those after it (in same); the rest is paired one pair
// at a time, as are the other two parts (about m6Block²/2 pairs a
// block).
func (e *m6) sweep(a, b int, same, z []int64, budget int64) (pairs int64, ok bool) {
	limit, bits := e.g.n, e.bits
	sig, cyc := e.sig, e.c
	one := int64(1)<<(uint(bits)&63) - 1
	lo := e.head
	rs := a // the start of a's run; visits before head pair with none
	for rs > lo && cyc[rs-1] == cyc[a] {
		rs--
	}
	var adj [m6Block]int64 // q_j + 2^bits − 1 of the block's visits
	var los, rss [m6Block]int
	for j0 := a; j0 < b; j0 += m6Block {
		if pairs > budget || e.gd.cancelled() {
			return pairs, false
		}
		k := min(m6Block, b-j0)
		for t := range k {
			j := j0 + t
			if j > a && cyc[j] != cyc[j-1] {
				rs = j
			}
			adj[t] = sig[j] + one
			for pairBin(adj[t], sig[lo], bits) > limit { // lo ≤ j: a visit pairs with itself at bin 0
				lo++
			}
			los[t], rss[t] = lo, rs
			pairs += int64(j - lo)
		}
		L := min(los[k-1], j0)
		for t := range k { // [lo_j, L) and [j0, j), before and from j's run
			j, aj, r := j0+t, adj[t], rss[t]
			for _, rg := range [2][2]int{{los[t], L}, {max(j0, los[t]), j}} {
				for i := rg[0]; i < min(r, rg[1]); i++ {
					z[pairBin(aj, sig[i], bits)]++
				}
				for i := max(r, rg[0]); i < rg[1]; i++ {
					same[pairBin(aj, sig[i], bits)]++
				}
			}
		}
		if L == j0 {
			continue
		}
		// i ∈ [L, j0): before the start of j0's run every pair is in z;
		// from it on, the first kk visits of the block (those in j0's
		// run) count in same.
		kk := 0
		for kk < k && rss[kk] == rss[0] {
			kk++
		}
		mid := min(max(rss[0], L), j0)
		if k == m6Block {
			pairBlock(z, &adj, sig[L:mid], bits, limit)
			if kk == m6Block {
				pairBlock(same, &adj, sig[mid:j0], bits, limit)
				continue
			}
		} else {
			for i := L; i < mid; i++ {
				for _, aj := range adj[:k] {
					z[pairBin(aj, sig[i], bits)]++
				}
			}
		}
		for i := mid; i < j0; i++ { // j0's run, which the block leaves
			for _, aj := range adj[:kk] {
				same[pairBin(aj, sig[i], bits)]++
			}
			for _, aj := range adj[kk:k] {
				z[pairBin(aj, sig[i], bits)]++
			}
		}
	}
	return pairs, true
}

// m6Block is the number of visits sweep pairs with the same earlier
// visits at once: for each earlier visit the block's pairs fall into a
// few neighbouring bins, so the histogram is walked once per block
// rather than once per visit, and the block's times stay in registers.
const m6Block = 8

// pairBlock adds to h the pairs of the m6Block visits whose
// q_j + 2^bits − 1 are adj with each earlier visit of sig, all within
// x_max of every one of them (bin ≤ limit).
func pairBlock(h []int64, adj *[m6Block]int64, sig []int64, bits, limit int) {
	h = h[:limit+1]
	sh := uint(bits) & 63
	a0, a1, a2, a3, a4, a5, a6, a7 := adj[0], adj[1], adj[2], adj[3], adj[4], adj[5], adj[6], adj[7]
	for _, si := range sig {
		h[(a0-si)>>sh]++
		h[(a1-si)>>sh]++
		h[(a2-si)>>sh]++
		h[(a3-si)>>sh]++
		h[(a4-si)>>sh]++
		h[(a5-si)>>sh]++
		h[(a6-si)>>sh]++
		h[(a7-si)>>sh]++
	}
}

// finish completes the counts: the lattice's from its cycle histogram,
// the sweep's by pairing the last collected visits and summing the two
// halves' histograms. It may be called more than once.
func (e *m6) finish() {
	if e.lattice {
		e.finishLattice()
		return
	}
	e.flush()
	if e.same2 != nil {
		for i := range e.same {
			e.same[i] += e.same2[i]
			e.z[i] += e.z2[i]
		}
		e.same2, e.z2 = nil, nil
	}
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
	if e.k > int64(e.g.n) {
		e.bigCycles++
		e.bigVisits += e.k
		e.k = 0
		return
	}
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
	n := len(e.kCount) // ≤ N+1: longer cycles are in bigCycles, bigVisits
	// Σ_{k>L} kCount[k] and Σ_{k>L} k·kCount[k], starting at L = N
	s0, s1 := e.bigCycles, e.bigVisits
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
	e.m, e.kCount, e.bigCycles, e.bigVisits = 0, nil, 0, 0
}

// w is W = same + Z.
func (e *m6) w() []int64 {
	e.finish()
	w := make([]int64, len(e.z))
	for i := range w {
		w[i] = e.same[i] + e.z[i]
	}
	return w
}

func (e *m6) cdf() (series.CDF, string) {
	e.finish()
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
