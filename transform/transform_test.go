package transform

import (
	"math"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// Hand-computed: updates at 0, 1, 4, 6 h give U = {1, 3, 2}, ΣU = 6.
// F_U: ≤0.5 → 0, ≤1 → 1/3, ≤2 → 2/3, ≤3 → 1.
// G_U(x) = Σ min(U_i, x)/6: x=0.5 → 1.5/6, x=1 → 3/6, x=2 → 5/6, x=3 → 1.
func TestTruthHandWorked(t *testing.T) {
	u := Intervals([]int64{0, 3600, 4 * 3600, 6 * 3600}, Hour)
	if len(u) != 3 || u[0] != 1 || u[1] != 3 || u[2] != 2 {
		t.Fatalf("intervals %v", u)
	}
	grid := []float64{0, 0.5, 1, 2, 3, 4}
	f := IntervalCDF(u, grid)
	g := AgeCDF(u, grid)
	wantF := []float64{0, 0, 1. / 3, 2. / 3, 1, 1}
	wantG := []float64{0, 1.5 / 6, 3. / 6, 5. / 6, 1, 1}
	for i := range grid {
		if math.Abs(f.P[i]-wantF[i]) > 1e-12 || math.Abs(g.P[i]-wantG[i]) > 1e-12 {
			t.Errorf("x=%g: F=%g (want %g) G=%g (want %g)", grid[i], f.P[i], wantF[i], g.P[i], wantG[i])
		}
	}
	if MeanInterval(u) != 2 || Lifetime([]int64{0, 7200}, Hour) != 2 {
		t.Fatal("mean or lifetime")
	}
}

// AgeCDF must equal the naive definition on random inputs.
func TestAgeCDFNaive(t *testing.T) {
	u := []float64{0.3, 7, 2.2, 2.2, 0.01, 15, 4}
	grid := make([]float64, 81) // 0, 0.25, …, 20
	for i := range grid {
		grid[i] = 0.25 * float64(i)
	}
	g := AgeCDF(u, grid)
	for i, x := range grid {
		num, den := 0.0, 0.0
		for _, v := range u {
			num += math.Min(v, x)
			den += v
		}
		if math.Abs(g.P[i]-num/den) > 1e-12 {
			t.Fatalf("G(%g) = %g, naive %g", x, g.P[i], num/den)
		}
	}
}

func TestTopN(t *testing.T) {
	pages := []series.Page{
		{ID: 1, Updates: []int64{1, 2}},
		{ID: 2, Updates: []int64{1, 2, 3}},
		{ID: 3, Updates: []int64{1}},
		{ID: 4, Updates: []int64{1, 2, 3}},
	}
	top := TopN(pages, 2)
	if top[0].ID != 2 || top[1].ID != 4 {
		t.Fatalf("TopN: %v", top)
	}
	k := NewTopKeeper(2)
	for i := range pages {
		k.Offer(&pages[i])
	}
	if got := k.Pages(); len(got) != 2 || got[0].ID != 2 || got[1].ID != 4 {
		t.Fatalf("TopKeeper: %v", got)
	}
	if n := len(AtLeast(pages, 2)); n != 3 {
		t.Fatalf("AtLeast: %d", n)
	}
	if n := len(Aggregate(pages, 1)); n != 1+2+0+2 {
		t.Fatalf("Aggregate: %d", n)
	}
}

// AgeQuantile must agree with a naive reference: bisection on the
// definition G_U(x) = Σ min(U_i, x)/Σ U_i, on small pages with ties,
// tiny and huge intervals.
func TestAgeQuantileNaive(t *testing.T) {
	naiveG := func(u []float64, x float64) float64 {
		num, den := 0.0, 0.0
		for _, v := range u {
			num += math.Min(v, x)
			den += v
		}
		return num / den
	}
	for _, u := range [][]float64{
		{1, 3, 2},
		{0.3, 7, 2.2, 2.2, 0.01, 15, 4},
		{5},
		{1, 1, 1, 1},
		{0.001, 0.002, 1000, 0.5, 0.5, 3},
	} {
		for _, q := range []float64{0.01, 0.25, 0.5, 0.9, 0.99, 1} {
			lo, hi := 0.0, 0.0
			for _, v := range u {
				hi = math.Max(hi, v)
			}
			for range 200 {
				mid := (lo + hi) / 2
				if naiveG(u, mid) >= q {
					hi = mid
				} else {
					lo = mid
				}
			}
			if got := AgeQuantile(u, q); math.Abs(got-hi) > 1e-9*math.Max(1, hi) {
				t.Errorf("U = %v: q = %g quantile %g, naive %g", u, q, got, hi)
			}
		}
	}
	// By hand: U = {1, 3, 2}, ΣU = 6: G_U(x) = 3x/6 up to 1, (1 + 2x)/6 up
	// to 2, (3 + x)/6 up to 3; G_U(x) = 0.99 at x = 6·0.99 − 3 = 2.94.
	if got := AgeQuantile([]float64{1, 3, 2}, 0.99); math.Abs(got-2.94) > 1e-12 {
		t.Errorf("U = {1, 3, 2}: 0.99 quantile %g, want 2.94", got)
	}
	if got := AgeQuantile(nil, 0.99); got != 0 {
		t.Errorf("no interval: %g, want 0", got)
	}
}

// ageCDFReference is G_U by one sort and a binary search per point (the
// way AgeCDF computed it before Age): the reference of TestAgeReference.
func ageCDFReference(intervals, grid []float64) []float64 {
	u := slices.Clone(intervals)
	slices.Sort(u)
	prefix := make([]float64, len(u)+1)
	for i, v := range u {
		prefix[i+1] = prefix[i] + v
	}
	total := prefix[len(u)]
	p := make([]float64, len(grid))
	for i, x := range grid {
		if total <= 0 || x <= 0 {
			continue
		}
		k := upperBound(u, x)
		p[i] = (prefix[k] + float64(len(u)-k)*x) / total
	}
	return p
}

// TestAgeReference: the prepared exact G_U (Age, a merge walk) equals the
// reference (one sort and a binary search per point) bit for bit, at
// ascending points that hit interval values exactly, at x ≤ 0 and beyond
// the largest interval, and at points out of order.
func TestAgeReference(t *testing.T) {
	r := model.NewRand(3, 3)
	u := make([]float64, 500)
	for i := range u {
		u[i] = math.Round(10*r.ExpFloat64()) / 4 // ties, and grid points equal to intervals
	}
	xs := stagetest.Grid(0.05, 40)
	xs = append([]float64{-1}, xs...)
	g := NewAge(u)
	want := ageCDFReference(u, xs)
	for i, v := range g.At(xs) {
		if v != want[i] {
			t.Fatalf("G(%g) = %v, reference %v", xs[i], v, want[i])
		}
	}
	shuffled := []float64{3, 0.25, 40, 1, 0}
	want = ageCDFReference(u, shuffled)
	for i, v := range g.At(shuffled) {
		if v != want[i] {
			t.Errorf("out of order: G(%g) = %v, reference %v", shuffled[i], v, want[i])
		}
	}
}
