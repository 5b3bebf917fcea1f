package estimator

import (
	"fmt"
	"testing"

	"github.com/revisit-dev/revisit/model"
)

// tenYearPage is a Wikipedia-like page over 10 years in hours (Lomax
// intervals with E[U] = 5 h, like the busiest real pages) and the visits
// of a crawler with exponential delays at λ = 2/h: about 175,000 visits.
func tenYearPage() (t, s []float64, cycles []int64) {
	return benchPath(87660)
}

func benchPath(span float64) (t, s []float64, cycles []int64) {
	r := model.NewRand(2024, 1)
	u := model.Pareto{Alpha: 2, Beta: 5}
	t = []float64{0}
	for t[len(t)-1] < span {
		t = append(t, t[len(t)-1]+u.Rand(r))
	}
	vis, _ := drawVisits(Sampler{Rate: 2, Dist: model.Exponential{Rate: 2}}, r, t[len(t)-1])
	k := 0
	for _, x := range vis {
		for k+1 < len(t) && t[k+1] <= x {
			k++
		}
		s = append(s, x)
		cycles = append(cycles, int64(k))
	}
	return t, s, cycles
}

// naiveM6Cycles is the paper's Θ(m²) M6: every pair compared, Q_ij from
// the update cycles (O(1) per pair), no bound on the distance.
func naiveM6Cycles(s []float64, cyc []int64, g grid) (w, z []int64) {
	w, z = make([]int64, g.n+1), make([]int64, g.n+1)
	q := make([]int64, len(s)) // the same quantized times as the fast M6, computed once
	for i, v := range s {
		q[i] = quantize(v, g.inv, qBits)
	}
	for j := range s {
		adj := q[j] + 1<<qBits - 1
		for i := 0; i < j; i++ {
			b := pairBin(adj, q[i], qBits)
			if b > g.n {
				continue
			}
			w[b]++
			if cyc[i] != cyc[j] {
				z[b]++
			}
		}
	}
	return w, z
}

// The naive M6 must equal the fast one on the benchmark's kind of path
// (short prefix), so the benchmark compares like with like.
//
// The second case (≈ 10,000 visits, x_max = 5) pairs them in chunks of
// 1,000 split over two goroutines, and drops and compacts the visits
// behind the window many times over.
func TestNaiveCyclesEqualsFast(t *testing.T) {
	for _, c := range []struct {
		span, xmax float64
		chunk      int
	}{{500, 50, m6Chunk}, {5000, 5, 1000}} {
		tt, s, cyc := benchPath(c.span)
		g := newGrid(0.05, c.xmax)
		w, z := naiveM6Cycles(s, cyc, g)
		e := newM6(g, false, tt[len(tt)-1], nil)
		e.chunk = c.chunk
		feed(tt, s, 0, e)
		ew := e.w()
		for b := range w {
			if w[b] != ew[b] || z[b] != e.z[b] {
				t.Fatalf("%d visits, chunk %d: bin %d: fast %d/%d naive %d/%d", len(s), c.chunk, b, e.z[b], ew[b], z[b], w[b])
			}
		}
	}
}

// BenchmarkM6Fast: M6 on the 10-year page (≈175,000 visits at λ = 2/h),
// h = 0.05 h, for two x_max. Reported per crawl: the visits with their
// update cycles, found once before the timing, are given to M6 as a
// crawl gives them.
func BenchmarkM6Fast(b *testing.B) {
	tt, s, cyc := tenYearPage()
	obs := make([]Obs, len(s))
	for j := range s {
		obs[j] = Obs{J: j, S: s[j], Cycle: cyc[j]}
	}
	for _, xmax := range []float64{100, 1000} {
		b.Run(fmt.Sprintf("visits=%d/xmax=%g", len(s), xmax), func(b *testing.B) {
			g := newGrid(0.05, xmax)
			for range b.N {
				e := newM6(g, false, tt[len(tt)-1], nil)
				for j := range obs {
					e.add(&obs[j])
				}
				e.finish()
			}
		})
	}
}

// BenchmarkM6Naive: the Θ(m²) M6 on the first m visits of the same page;
// its time grows as m², so the full page's naive time is extrapolated by
// (175,000/m)² (bench/replay.sh does it).
func BenchmarkM6Naive(b *testing.B) {
	_, s, cyc := tenYearPage()
	for _, m := range []int{5000, 10000} {
		b.Run(fmt.Sprintf("visits=%d", m), func(b *testing.B) {
			g := newGrid(0.05, 1000)
			for range b.N {
				naiveM6Cycles(s[:m], cyc[:m], g)
			}
		})
	}
}
