package estimator

import (
	"math"
	"slices"
	"sort"

	"github.com/revisit-dev/revisit/series"
)

// The grid of a URL seen without ground truth (docs/methods.md#observed-grid).
// M6's bin n holds the pairs of visits i < j with (s_j − s_i)° = y_n,
// y° = h⌈y/h⌉; a bin without a pair (W(y_n) = 0) is no evidence, and on
// an archive's sparse or clustered captures a grid chosen from the
// changes seen alone was mostly such bins (2,776 of 3,684 on one URL, 96
// of 100 on captures minutes apart). So h and x_max are chosen from the
// capture times themselves:
//
//	r      = the log's time resolution: the gcd of the delays s_j − s_{j−1} (≥ 1 s)
//	h_0    = max(r, q_0.1 of the delays s_j − s_{j−1})
//	x_max  = min(the quantile of ages or G-M4 samples (ObservedDefaults),
//	             q_0.99 of the pair spans s_j − s_i, i < j) (with ages: not
//	             capped, and h chosen on the grid up to that quantile)
//	h      = the first of h_0·√2^k, k = 0, 1, …, at least x_max/ObservedMaxBins,
//	         whose grid has at most MaxEmptyShare of its bins without a
//	         pair; among those with ≥ ObservedMinBins bins the one with the
//	         fewest empty bins when none has so few.

// Constants of the per-URL grid (ObservedDefaults).
const (
	// ObservedMaxBins caps the bins x_max/h of a per-URL grid.
	ObservedMaxBins = 400
	// ObservedMinBins is the fewest bins h is coarsened to in search of
	// a grid with evidence in most bins.
	ObservedMinBins = 10
	// MaxEmptyShare is the largest share of bins without a pair a per-URL
	// grid is accepted with.
	MaxEmptyShare = 0.5
	// DelayQuantile is the quantile of the delays between consecutive
	// captures that h starts from.
	DelayQuantile = 0.1
	// SpanQuantile is the quantile of the pair spans s_j − s_i that
	// bounds x_max.
	SpanQuantile = 0.99
	// gridWork bounds the steps the search for h spends on one URL;
	// bins not decided within it count as empty (a coarser h, never an
	// error).
	gridWork = 50_000_000
)

// resolution is the gcd of the delays between consecutive visits, in
// seconds (1 when there is no delay).
func resolution(t []int64) int64 {
	var g int64
	for j := 1; j < len(t); j++ {
		a, b := t[j]-t[j-1], g
		for b != 0 {
			a, b = b, a%b
		}
		g = a
		if g == 1 {
			break
		}
	}
	return max(g, 1)
}

// pairsWithin is #{i < j : t_j − t_i ≤ d} for ascending t (two pointers).
func pairsWithin(t []int64, d int64) int64 {
	var n int64
	i := 0
	for j := range t {
		for t[j]-t[i] > d {
			i++
		}
		n += int64(j - i)
	}
	return n
}

// pairSpanQuantile is the q quantile of the spans t_j − t_i over all pairs
// i < j of ascending t (distinct times): the smallest d with
// #{pairs ≤ d} ≥ need = ⌈q·#pairs⌉. That is the (L+1)-th largest span,
// L = #pairs − need: when L is small (L ≤ 4m) it is found by listing the
// largest spans (largestPairSpan, O(L log L)), else by bisection on d
// (O(m log span)); both give the same span.
func pairSpanQuantile(t []int64, q float64) int64 {
	m := int64(len(t))
	if m < 2 {
		return 0
	}
	need := int64(math.Ceil(q * float64(m*(m-1)/2)))
	if l := m*(m-1)/2 - need; l >= 0 && l <= 4*m {
		return largestPairSpan(t, int(l))
	}
	return pairSpanBisect(t, need)
}

// pairSpanBisect is the smallest d with pairsWithin(t, d) ≥ need, by
// bisection on d (t distinct and ascending, 1 ≤ need ≤ #pairs).
func pairSpanBisect(t []int64, need int64) int64 {
	m := len(t)
	lo, hi := int64(0), t[m-1]-t[0] // pairsWithin(lo) < need ≤ pairsWithin(hi)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if pairsWithin(t, mid) >= need {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// largestPairSpan is the (l+1)-th largest of the spans t_j − t_i, i < j,
// of ascending t (0 ≤ l < #pairs), counted with multiplicity. The pairs
// form a tree rooted at (0, m−1), the widest: (i, j) is the parent of
// (i, j−1), and (i, m−1) of (i+1, m−1) too; every pair has one parent, at
// least as wide. Taking the pairs best first from a max-heap that gets
// the children of each pair taken lists the spans in non-increasing
// order (O(l log l)).
func largestPairSpan(t []int64, l int) int64 {
	m := len(t)
	type pair struct{ i, j int }
	span := func(p pair) int64 { return t[p.j] - t[p.i] }
	h := make([]pair, 1, l+2)
	h[0] = pair{0, m - 1}
	push := func(p pair) {
		if p.i >= p.j {
			return
		}
		h = append(h, p)
		for k := len(h) - 1; k > 0; { // sift up
			up := (k - 1) / 2
			if span(h[up]) >= span(h[k]) {
				break
			}
			h[up], h[k] = h[k], h[up]
			k = up
		}
	}
	for ; ; l-- {
		p := h[0]
		if l == 0 {
			return span(p)
		}
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		for k := 0; ; { // sift down
			c := 2*k + 1
			if c >= len(h) {
				break
			}
			if c+1 < len(h) && span(h[c+1]) > span(h[c]) {
				c++
			}
			if span(h[k]) >= span(h[c]) {
				break
			}
			h[k], h[c] = h[c], h[k]
			k = c
		}
		push(pair{p.i, p.j - 1})
		if p.j == m-1 {
			push(pair{p.i + 1, p.j})
		}
	}
}

// nthInt64 is the k-th smallest of a (0-based, k < len(a)), the value
// sorted(a)[k], found by selection (quickselect, median-of-three pivot;
// O(len(a)) expected); it reorders a.
func nthInt64(a []int64, k int) int64 {
	if k == len(a)-1 { // the largest: the 0.99 quantile of fewer than 100
		return slices.Max(a)
	}
	lo, hi := 0, len(a)-1
	for hi-lo > 16 {
		mid := lo + (hi-lo)/2
		// median of three to a[mid]
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		pv := a[mid]
		i, j := lo, hi
		for i <= j { // Hoare partition: a[lo..j] ≤ pv ≤ a[i..hi]
			for a[i] < pv {
				i++
			}
			for a[j] > pv {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return a[k] // between the parts: equal to the pivot
		}
	}
	slices.Sort(a[lo : hi+1])
	return a[k]
}

// pairSpanBin is M6's bin ⌈d/hs⌉ of a pair d seconds apart on bins hs seconds
// wide, with a relative tolerance of 10⁻⁹ at the bin edges (M6 counts a
// pair at y_n·(1 ± 10⁻¹⁶) in bin n as well).
func pairSpanBin(d int64, hs float64) int {
	return int(math.Ceil(float64(d)/hs - 1e-9))
}

// EmptyBins counts the bins n = 1 … N of the grid of step hs seconds up
// to N without a pair of the ascending visit times t (seconds) at a
// distance in it, ⌈(t_j − t_i)/hs⌉ = n, spending at most *work steps
// (decremented); bins not decided when it runs out count as empty.
// Bin n is found from the visits j in order, each with its latest visit i
// at more than bin n − 1 before it (a pointer that only moves forward):
// the closest pair beyond bin n − 1 ending at j is in bin n or beyond.
func EmptyBins(t []int64, hs float64, N int, work *int64) int {
	empty := 0
	for n := 1; n <= N; n++ {
		if *work <= 0 {
			return empty + N - n + 1
		}
		// the first j with a visit in bin n − 1's reach or beyond
		j := sort.Search(len(t), func(j int) bool { return pairSpanBin(t[j]-t[0], hs) >= n })
		found := false
		i := 0
		for ; j < len(t) && *work > 0; j++ {
			*work--
			for i+1 < j && pairSpanBin(t[j]-t[i+1], hs) >= n {
				i++
				*work--
			}
			if pairSpanBin(t[j]-t[i], hs) == n {
				found = true
				break
			}
		}
		if !found {
			empty++
		}
	}
	return empty
}

// visitTimes are o's visit times in seconds.
func visitTimes(o *series.Observed) []int64 {
	t := make([]int64, len(o.Visits))
	for j, v := range o.Visits {
		t[j] = v.T
	}
	return t
}

// observedGrid is h (in units) chosen for a URL's visit times t (seconds)
// and x_max (in units) as the comment at the top of this file says, with
// the bins and empty bins of its grid; scratch (len(t) or nil) holds the
// delays.
func observedGrid(t, scratch []int64, unit, xmax float64) (h float64, bins, empty int) {
	r := float64(resolution(t))
	hs := r
	if len(t) > 1 {
		delays := scratch[:0]
		for j := 1; j < len(t); j++ {
			delays = append(delays, t[j]-t[j-1])
		}
		hs = max(r, float64(nthInt64(delays, max(0, int(math.Ceil(DelayQuantile*float64(len(delays))))-1))))
	}
	xs := xmax * unit // seconds
	hs = max(hs, xs/ObservedMaxBins)
	work := int64(gridWork)
	bestH, bestN, bestE := hs, 0, -1
	for k := 0; ; k++ {
		hk := hs * math.Pow(math.Sqrt2, float64(k))
		n := int(math.Ceil(xs/hk - 1e-9))
		if k > 0 && n < ObservedMinBins {
			break
		}
		n = max(n, 1)
		e := EmptyBins(t, hk, n, &work)
		if bestE < 0 || float64(e)/float64(n) < float64(bestE)/float64(bestN) {
			bestH, bestN, bestE = hk, n, e
		}
		if float64(e) <= MaxEmptyShare*float64(n) || n <= 1 {
			break
		}
	}
	return bestH / unit, bestN, bestE
}
