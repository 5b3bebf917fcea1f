package estimator

import (
	"runtime"
	"testing"
)

// A constant-delay crawl whose visits all fall into one long update cycle must
// not hold memory per visit: M6 on the lattice needs only the number of cycles
// with k visits for k ≤ N (the grid) and two sums over the longer ones. W and
// Z are checked against the closed form of one cycle of m visits (plus one
// visit in a second cycle): W(L) = m + 1 − L and the same-cycle pairs at lag L
// are m − L, so Z(L) = 1.
func TestM6LatticeMemoryIndependentOfVisits(t *testing.T) {
	const m = 4_000_000 // visits in the first cycle
	g := newGrid(1, 10) // N = 10 lags
	e := newM6(g, true, float64(m+1), nil)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for j := 0; j <= m; j++ {
		c := int64(0)
		if j == m {
			c = 1
		}
		e.add(&Obs{J: j, S: float64(j), Cycle: c})
	}
	w := e.w()
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("M6 on %d constant-delay visits allocated %d bytes, want O(grid) (< 1 MiB)", m+1, got)
	}
	for L := 1; L <= g.n; L++ {
		if want := int64(m + 1 - L); w[L] != want {
			t.Errorf("W(%d) = %d, want %d", L, w[L], want)
		}
		if e.z[L] != 1 {
			t.Errorf("Z(%d) = %d, want 1", L, e.z[L])
		}
	}
}

// EstimateWork against hand calculations: exp:2 on T = 10 makes
// V = 2·10 + 1 = 21 visits; with x_max = 1 and h = 0.5 each pairs with
// W = 2·1.5 = 3 earlier ones: V·W − W²/2 = 63 − 4.5 = 58.5 pairs. With
// x_max = 20 the window W = 41 exceeds V: V²/2 = 220.5. Constant delays
// and runs without M6 pair nothing.
func TestEstimateWork(t *testing.T) {
	exp2, _ := ParseSampler("exp:2")
	c4, _ := ParseSampler("const:0.25")
	cases := []struct {
		s       Sampler
		cfg     Config
		visits  float64
		pairs   float64
		comment string
	}{
		{exp2, Config{H: 0.5, XMax: 1}, 21, 58.5, "all methods"},
		{exp2, Config{H: 0.5, XMax: 20}, 21, 220.5, "window beyond the path"},
		{exp2, Config{Methods: []string{MethodM2}, H: 0.5, XMax: 1}, 21, 0, "no M6"},
		{c4, Config{H: 0.5, XMax: 1}, 41, 0, "constant delays: M6 on the lattice"},
	}
	for _, c := range cases {
		w := EstimateWork(c.s, 10, &c.cfg)
		if w.Visits != c.visits || w.Pairs != c.pairs {
			t.Errorf("%s: %+v, want visits %g pairs %g", c.comment, w, c.visits, c.pairs)
		}
	}
}
