package analysis

import (
	"math"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/model"
)

// TestSortPositive: the radix sort gives exactly slices.Sort's result (the
// reference) on exponential draws of several sizes, on values with many
// ties and zeros, on a constant slice, and falls back on negative input.
func TestSortPositive(t *testing.T) {
	r := model.NewRand(4, 4)
	var cases [][]float64
	for _, n := range []int{0, 1, 5, 255, 256, 257, 1000, 5000} {
		x := make([]float64, n)
		for i := range x {
			x[i] = r.ExpFloat64()
		}
		cases = append(cases, x)
	}
	ties := make([]float64, 3000)
	for i := range ties {
		ties[i] = float64(r.IntN(20)) // zeros and repeated integers
	}
	constant := make([]float64, 400)
	for i := range constant {
		constant[i] = 2.5
	}
	neg := make([]float64, 600)
	for i := range neg {
		neg[i] = r.NormFloat64()
	}
	wide := make([]float64, 700)
	for i := range wide {
		wide[i] = math.Ldexp(r.Float64(), r.IntN(2000)-1000) // exponents over 600 decades
	}
	cases = append(cases, ties, constant, neg, wide)
	for i, x := range cases {
		want := slices.Clone(x)
		slices.Sort(want)
		got := slices.Clone(x)
		sortPositive(got, nil)
		if !slices.Equal(got, want) {
			t.Errorf("case %d (n = %d): radix order differs from slices.Sort", i, len(x))
		}
	}
}

// BenchmarkSortPositive compares the radix sort with slices.Sort on 5,000
// exponential draws (the Lilliefors simulation's largest sample).
func BenchmarkSortPositive(b *testing.B) {
	r := model.NewRand(5, 5)
	x := make([]float64, LillieforsMaxN)
	for i := range x {
		x[i] = r.ExpFloat64()
	}
	y := make([]float64, len(x))
	buf := make([]float64, len(x))
	b.Run("radix", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			copy(y, x)
			sortPositive(y, buf)
		}
	})
	b.Run("slices.Sort", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			copy(y, x)
			slices.Sort(y)
		}
	})
}

// TestSimulateNullReference: the simulated Lilliefors null distribution is
// bit for bit the naive one (draw, slices.Sort, generic ksSorted with the
// refitted CDF, scale by √n, sort), from the same random stream.
func TestSimulateNullReference(t *testing.T) {
	for _, n := range []int{10, 300, 2000} {
		const reps = 25
		got := simulateLillieforsNull(n, reps, model.NewRand(8, uint64(n)))
		r := model.NewRand(8, uint64(n))
		want := make([]float64, reps)
		for i := range want {
			s := make([]float64, n)
			for j := range s {
				s[j] = r.ExpFloat64()
			}
			slices.Sort(s)
			lam := float64(n) / sum(s)
			want[i] = ksSorted(s, func(v float64) float64 { return -math.Expm1(-lam * v) }) * math.Sqrt(float64(n))
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("n = %d: simulated null differs from the naive reference", n)
		}
	}
}
