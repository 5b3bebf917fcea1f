package analysis

import (
	"math"
	"slices"
)

// sortPositive sorts x (finite values ≥ 0, as the Lilliefors simulation's
// exponential draws are) ascending, with the same result as slices.Sort:
// for non-negative IEEE-754 doubles the order of the values is the order
// of their bit patterns as unsigned integers, so an LSD radix sort on the
// bits (8 bits a pass, passes where every value has the same byte
// skipped) sorts them in O(n). buf is scratch space of len(x) (nil: made
// here). Short slices, or any negative or NaN value, fall back to
// slices.Sort.
func sortPositive(x, buf []float64) {
	const minRadix = 256
	n := len(x)
	if n < minRadix {
		slices.Sort(x)
		return
	}
	for _, v := range x {
		if !(v >= 0) || math.Signbit(v) {
			slices.Sort(x)
			return
		}
	}
	if len(buf) < n {
		buf = make([]float64, n)
	}
	buf = buf[:n]
	var count [8][256]int
	for _, v := range x {
		b := math.Float64bits(v)
		for p := 0; p < 8; p++ {
			count[p][byte(b>>(8*p))]++
		}
	}
	src, dst := x, buf
	for p := 0; p < 8; p++ {
		c := &count[p]
		if c[byte(math.Float64bits(src[0])>>(8*p))] == n {
			continue // every value has this byte: the pass would not move anything
		}
		sum := 0
		for i := range c {
			c[i], sum = sum, sum+c[i]
		}
		shift := uint(8 * p)
		for _, v := range src {
			d := byte(math.Float64bits(v) >> shift)
			dst[c[d]] = v
			c[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &x[0] {
		copy(x, src)
	}
}
