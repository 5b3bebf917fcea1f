package estimator

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/revisit-dev/revisit/model"
)

// naiveM6 is the Θ(m²) definition of SPEC §4.1, kept for tests only: over
// all pairs i < j, W(y_n) += 1 where (s_j − s_i)° = y_n, and Z(y_n) += 1 if
// some update lies in (s_i, s_j] (found from the number of updates at or
// before each time in the sorted t, not from cycle numbers). The bin of a
// pair is M6's: its lag j − i for constant delays, pairBin of the scaled
// times otherwise.
func naiveM6(t, s []float64, h, xmax float64, lattice bool) (w, z []int64) {
	g := newGrid(h, xmax)
	w, z = make([]int64, g.n+1), make([]int64, g.n+1)
	upTo := func(x float64) int { return sort.Search(len(t), func(k int) bool { return t[k] > x }) }
	for j := range s {
		for i := 0; i < j; i++ {
			b := j - i
			if !lattice {
				b = pairBin(quantize(s[j], g.inv, qBits)+1<<qBits-1, quantize(s[i], g.inv, qBits), qBits)
			}
			if b > g.n {
				continue
			}
			w[b]++
			if upTo(s[j]) > upTo(s[i]) {
				z[b]++
			}
		}
	}
	return w, z
}

// randomPath draws n updates of a renewal process and visits from sampler.
func randomPath(seed uint64, n int, upd model.Dist, smp Sampler) (t, s []float64) {
	r := model.NewRand(seed, 1)
	t = []float64{0}
	for len(t) < n {
		t = append(t, t[len(t)-1]+upd.Rand(r))
	}
	s, _ = drawVisits(smp, r, t[len(t)-1])
	return t, s
}

// Fast M6 must equal the naive definition bin for bin (W and Z), on many
// random small paths, for random and constant delays and grids that cut
// off part of the pairs.
func TestM6EqualsNaive(t *testing.T) {
	cases := []struct {
		upd, smp string
		h, xmax  float64
	}{
		{"pareto:1.5,1", "exp:3", 0.1, 2},
		{"exp:1", "exp:5", 0.05, 1},
		{"weibull:0.5,1", "pareto:2.5,2", 0.2, 5},
		{"const:1", "uniform:4", 0.25, 3},  // updates on a lattice
		{"exp:0.5", "const:0.3", 0.3, 4},   // constant Δ: grid step Δ
		{"pareto:3,1", "exp:1", 0.5, 1000}, // x_max beyond every pair
	}
	for _, c := range cases {
		upd, err := model.Parse(c.upd)
		if err != nil {
			t.Fatal(err)
		}
		smp, err := ParseSampler(c.smp)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 40; seed++ {
			tt, ss := randomPath(seed, 5+int(seed%30), upd, smp)
			// The default chunk (one flush at the end for these small
			// paths), and chunks of 1 and 3 visits paired in one or two
			// halves: the counts must not depend on the split.
			checkM6(t, fmt.Sprintf("%s/%s seed %d", c.upd, c.smp, seed), tt, ss, 0, smp.Step(c.h), c.xmax, smp.Constant(),
				[]m6Split{{m6Chunk, true}, {1, false}, {3, true}, {3, false}, {7, true}})
		}
	}
}

// m6Split is how M6 collects and pairs its visits: chunk visits per
// flush, paired in two halves or one.
type m6Split struct {
	chunk int
	two   bool
}

// checkM6 fails t unless M6 on updates tt and visits ss (the virtual
// visit before the first at prev0), on the grid of step h up to xmax,
// counts naiveM6's W and Z, bin for bin, and its pairs, with each split.
func checkM6(t *testing.T, name string, tt, ss []float64, prev0, h, xmax float64, lattice bool, splits []m6Split) {
	t.Helper()
	g := newGrid(h, xmax)
	w, z := naiveM6(tt, ss, h, xmax, lattice)
	var pairs int64
	for _, x := range w {
		pairs += x
	}
	for _, split := range splits {
		e := newM6(g, lattice, tt[len(tt)-1], nil)
		e.chunk, e.split = split.chunk, split.two
		feed(tt, ss, prev0, e)
		ew := e.w()
		for b := range w {
			if w[b] != ew[b] || z[b] != e.z[b] {
				t.Fatalf("%s (%d updates, %d visits, h %g, x_max %g, chunk %d, split %v): bin %d: W=%d Z=%d, naive W=%d Z=%d",
					name, len(tt), len(ss), h, xmax, split.chunk, split.two, b, ew[b], e.z[b], w[b], z[b])
			}
		}
		if pairs != e.pairs {
			t.Fatalf("%s (chunk %d, split %v): %d pairs, naive %d", name, split.chunk, split.two, e.pairs, pairs)
		}
	}
}

// M4 is A⁺: on the grid x_n = nΔ it equals M2 computed over the same
// visits (all of them: the first detects the page's creation), because
// A ≤ nΔ ⇔ Δ⌈A/Δ⌉ ≤ nΔ. Checked exactly on random paths.
func TestM4EqualsM2OnGrid(t *testing.T) {
	smp, _ := ParseSampler("const:0.7")
	upd := model.Pareto{Alpha: 2.5, Beta: 3}
	for seed := uint64(1); seed <= 30; seed++ {
		tt, ss := randomPath(seed, 200, upd, smp)
		cfg := Config{Methods: []string{MethodM4}, H: 0.1, XMax: 20}
		es, err := estimate(tt, ss, smp, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Methods = []string{MethodM2}
		m2, err := estimate(tt, ss, smp, cfg)
		if err != nil {
			t.Fatal(err)
		}
		g4, g2 := es[0].CDF, m2[0].CDF
		if g4.Samples != g2.Samples {
			t.Fatalf("seed %d: M4 used %d visits, M2 %d", seed, g4.Samples, g2.Samples)
		}
		for i := range g4.P {
			if g4.P[i] != g2.P[i] {
				t.Fatalf("seed %d: at x=%g M4=%g M2=%g", seed, g4.X[i], g4.P[i], g2.P[i])
			}
		}
	}
}

// M6's bins for random delays must stay exact on a long window with a fine
// h: T/h = 10⁹ h / 10⁻⁴ h = 10¹³ bins, where visit times scaled by 2²⁰ per
// bin (10¹⁹) no longer fit in an int64. Updates at 0, 10⁹ + 0.0003 and
// 10⁹ + 1; visits at 10⁹ + {0, 0.000152, 0.00025, 0.000451, 0.00058}
// (float64 resolves 1.2·10⁻⁷ there; every distance is ≥ 10⁻⁶ from a bin
// edge). By hand, pair distances in units of h = 10⁻⁴, bin = ⌈d⌉, and
// Q_ij = 1 iff the update at +0.0003 lies in (s_i, s_j], i.e. i ≤ 2 < j:
//
//	(0,1) 1.52→2 Q0  (0,2) 2.5→3 Q0   (0,3) 4.51→5 Q1  (0,4) 5.8→6 Q1
//	(1,2) 0.98→1 Q0  (1,3) 2.99→3 Q1  (1,4) 4.28→5 Q1
//	(2,3) 2.01→3 Q1  (2,4) 3.3→4 Q1   (3,4) 1.29→2 Q0
func TestM6LongWindowFineBins(t *testing.T) {
	base := 1e9
	tt := []float64{0, base + 0.0003, base + 1}
	off := []float64{0, 0.000152, 0.00025, 0.000451, 0.00058}
	vis := make([]float64, len(off))
	for i, o := range off {
		vis[i] = base + o
	}
	g := newGrid(1e-4, 1e-3)
	e := newM6(g, false, tt[len(tt)-1], nil)
	feed(tt, vis, 0, e)
	wantW := []int64{0, 1, 2, 3, 1, 2, 1, 0, 0, 0, 0}
	wantZ := []int64{0, 0, 0, 2, 1, 2, 1, 0, 0, 0, 0}
	w := e.w()
	for b := range wantW {
		if w[b] != wantW[b] || e.z[b] != wantZ[b] {
			t.Fatalf("bin %d: W=%d Z=%d, want W=%d Z=%d (all W %v Z %v)", b, w[b], e.z[b], wantW[b], wantZ[b], w, e.z)
		}
	}
}

// sweepPerVisit is M6's sweep without the blocks of visits, the reference
// for larger inputs than naiveM6 can take:
// each visit j with every earlier visit within x_max, the same-cycle run
// first, one increment per pair.
func sweepPerVisit(q, cyc []int64, n, bits int) (same, z []int64, pairs int64) {
	same, z = make([]int64, n+1), make([]int64, n+1)
	lo := 0
	for j := range q {
		adj := q[j] + 1<<bits - 1
		for pairBin(adj, q[lo], bits) > n {
			lo++
		}
		i := j - 1
		for ; i >= lo && cyc[i] == cyc[j]; i-- {
			same[pairBin(adj, q[i], bits)]++
		}
		for ; i >= lo; i-- {
			z[pairBin(adj, q[i], bits)]++
		}
		pairs += int64(j - lo)
	}
	return same, z, pairs
}

// edgyPath draws updates and visits that sit on M6's bin edges: visit
// times on a lattice of h/4 (so many pairs are exact multiples of h),
// some repeated (equal times), some a hair (10⁻⁹ h, far below the 2⁻²⁰ h
// resolution, and 10⁻⁶ h, above it) beside a lattice point, and updates
// drawn among the visit times themselves (an update at s_j belongs to
// (s_i, s_j]) and in between. The window holds tens of visits per x_max
// so that blocks of visits, runs across them and the window's edge all
// occur.
func edgyPath(r *rand.Rand, h float64) (t, s []float64) {
	m := 20 + r.IntN(300)
	x := 0.0
	for range m {
		switch r.IntN(10) {
		case 0: // the same time again
		case 1:
			x += h / 4 * float64(r.IntN(8)) * (1 + 1e-9)
		case 2:
			x += h/4*float64(1+r.IntN(8)) + 1e-6*h
		default:
			x += h / 4 * float64(r.IntN(12))
		}
		s = append(s, x)
	}
	t = []float64{-h * r.Float64()}
	for _, v := range s {
		switch r.IntN(8) {
		case 0:
			if v > t[len(t)-1] {
				t = append(t, v) // an update at a visit time
			}
		case 1:
			if w := v + h*r.Float64()/3; w > t[len(t)-1] {
				t = append(t, w)
			}
		}
	}
	t = append(t, s[len(s)-1]+h)
	return t, s
}

// M6 for random delays must give exactly the counts of its definition on
// inputs built to sit on bin edges (edgyPath): W and Z of naiveM6, pair
// for pair, for grids that keep every pair and grids that cut the window
// at a bin edge (x_max a multiple of h) or inside a bin, with the default
// chunking and with small chunks split over two goroutines.
func TestM6EdgesEqualNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	for k := 0; k < 1000; k++ {
		h := []float64{0.25, 0.1, 1.0 / 3}[k%3]
		tt, ss := edgyPath(r, h)
		xmax := []float64{h * float64(1+r.IntN(30)), h * (float64(r.IntN(30)) + 0.5), ss[len(ss)-1] + 2*h}[r.IntN(3)]
		checkM6(t, fmt.Sprintf("case %d", k), tt, ss, ss[0]-h, h, xmax, false, []m6Split{{m6Chunk, true}, {5, true}, {13, false}})
	}
}

// Visits on exact multiples of h (h = 0.25, exact in binary) are binned
// by their exact distance: y° = h⌈y/h⌉ puts a pair exactly n·h apart in
// bin n, not n + 1. Visits at 0, 0.25, 0.5, 0.5, 1 and an update at 0.5
// (so that (0.25, 0.5] and (0, 0.5] hold it, (0.5, 0.5] does not), by
// hand: pairs (0,.25) bin 1 Q0; (0,.5)×2 bin 2 Q1; (0,1) bin 4 Q1;
// (.25,.5)×2 bin 1 Q1; (.25,1) bin 3 Q1; (.5,.5) bin 0 Q0; (.5,1)×2 bin
// 2 Q0.
func TestM6ExactMultiples(t *testing.T) {
	tt := []float64{-1, 0.5, 2}
	ss := []float64{0, 0.25, 0.5, 0.5, 1}
	e := newM6(newGrid(0.25, 1), false, tt[len(tt)-1], nil)
	feed(tt, ss, -0.25, e)
	wantW := []int64{1, 3, 4, 1, 1}
	wantZ := []int64{0, 2, 2, 1, 1}
	w := e.w()
	for b := range wantW {
		if w[b] != wantW[b] || e.z[b] != wantZ[b] {
			t.Fatalf("bin %d: W=%d Z=%d, want W=%d Z=%d (W %v Z %v)", b, w[b], e.z[b], wantW[b], wantZ[b], w, e.z)
		}
	}
}

// On the benchmark's 10-year page (≈175,000 visits, runs of visits in
// heavy-tailed update cycles) the blocked sweep must give today's
// per-visit sweep's counts exactly, for a window of tens and of thousands
// of visits, in chunks of 1,000 split over two goroutines and in the
// default chunks.
func TestM6EqualsPerVisitSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("pairs 10⁸ visits")
	}
	tt, s, cyc := tenYearPage()
	for _, c := range []struct {
		xmax  float64
		chunk int
	}{{2, 1000}, {100, m6Chunk}, {100, 1000}} {
		g := newGrid(0.05, c.xmax)
		q := make([]int64, len(s))
		for i, v := range s {
			q[i] = quantize(v, g.inv, qBits)
		}
		same, z, pairs := sweepPerVisit(q, cyc, g.n, qBits)
		e := newM6(g, false, tt[len(tt)-1], nil)
		e.chunk = c.chunk
		for j, v := range s {
			e.add(&Obs{J: j, S: v, Cycle: cyc[j]})
		}
		e.finish()
		for b := range same {
			if same[b] != e.same[b] || z[b] != e.z[b] {
				t.Fatalf("x_max %g, chunk %d: bin %d: same %d Z %d, per visit %d %d", c.xmax, c.chunk, b, e.same[b], e.z[b], same[b], z[b])
			}
		}
		if pairs != e.pairs {
			t.Fatalf("x_max %g: %d pairs, per visit %d", c.xmax, e.pairs, pairs)
		}
	}
}
