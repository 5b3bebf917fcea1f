package replay

import (
	"runtime"
	"testing"
)

// A constant-delay crawl whose visits all fall into one long update cycle
// must not hold memory per visit: M6 on the lattice needs only the number
// of cycles with k visits for k ≤ N (the grid) and two sums over the
// longer ones. Before, it kept a count for every k up to the longest
// cycle's visits (8 bytes per visit: 24 GB on a page spanning 10¹⁵ s).
// W and Z are checked against the closed form of one cycle of m visits
// (plus one visit in a second cycle): W(L) = m + 1 − L and the same-cycle
// pairs at lag L are m − L, so Z(L) = 1.
func TestM6LatticeMemoryIndependentOfVisits(t *testing.T) {
	const m = 4_000_000 // visits in the first cycle
	g := newGrid(1, 10) // N = 10 lags
	e := newM6(g, true, float64(m+1))
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
