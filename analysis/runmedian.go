package analysis

import (
	"cmp"
	"slices"
)

// RunningMedian is, for each i, the median of the k values of x in a
// window around x_i: x[lo : lo+k] with lo = i − ⌊k/2⌋ clamped to
// [0, len(x) − k] (so that every window holds k values; near the ends it
// is the first or last k), the mean of the two middle values for an even
// k. With k ≥ len(x) every value gets the median of all of x. It costs
// O(n log n): the values are ranked once, and the window's counts per
// rank live in a Fenwick tree whose k-th element is found by descent.
func RunningMedian(x []float64, k int) []float64 {
	n := len(x)
	out := make([]float64, n)
	if n == 0 {
		return out
	}
	k = max(1, min(k, n))
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(x[a], x[b]) })
	rank := make([]int, n) // 1-based position of x[i] in order
	for r, i := range order {
		rank[i] = r + 1
	}
	tree := make([]int32, n+1)
	add := func(p int, d int32) {
		for ; p <= n; p += p & -p {
			tree[p] += d
		}
	}
	top := 1
	for top*2 <= n {
		top *= 2
	}
	// kth is the value of rank position holding the j-th smallest (1-based)
	// value of the window.
	kth := func(j int) float64 {
		p := 0
		for step := top; step > 0; step /= 2 {
			if q := p + step; q <= n && int(tree[q]) < j {
				p = q
				j -= int(tree[q])
			}
		}
		return x[order[p]]
	}
	clo, chi := 0, 0
	for i := range x {
		lo := max(0, min(i-k/2, n-k))
		for ; chi < lo+k; chi++ {
			add(rank[chi], 1)
		}
		for ; clo < lo; clo++ {
			add(rank[clo], -1)
		}
		if k%2 == 1 {
			out[i] = kth(k/2 + 1)
		} else {
			out[i] = (kth(k/2) + kth(k/2+1)) / 2
		}
	}
	return out
}
