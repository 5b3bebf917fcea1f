package estimator

import "math"

// Obs is what the crawler knows after visit j (SPEC §4): the visit time, the
// age A(s_j) = s_j − u_{N(s_j)} (time since the last update at or before
// s_j, the Last-Modified header) and the change indicator Q_{j−1,j} (some
// update in (s_{j−1}, s_j]). Cycle identifies the update cycle the visit
// lies in; Q_ij = 1 exactly when Cycle differs, which M6 uses.
type Obs struct {
	J     int     // visit index, from 0
	S     float64 // visit time s_j
	A     float64 // age A(s_j)
	Cycle int64   // number of updates in (u_first, s_j]: the update cycle of s_j
	Q     bool    // Q_{j−1,j}; false for the first visit
	// Prev is the previous visit s_{j−1}; for the first visit, the
	// crawler's virtual previous visit before the window (s_1 − S_0: the
	// page did not exist then, see the comparison estimators).
	Prev float64
	// Ref marks a first visit that is a reference only (J = 0): the page
	// existed before it and the crawler does not know since when (a real
	// log's first capture, docs/methods.md#observed). The comparison
	// estimators then start at the first detected change instead of
	// counting the first visit as the page's creation.
	Ref bool
}

// observer consumes the observations of one crawl, in visit order (the
// estimators' internal form of Observer).
type observer interface{ add(o *Obs) }

// binTol absorbs the rounding of values that are multiples of the grid step
// in exact arithmetic (with constant Δ, G-M4's s_j − s*_j = kΔ computed
// from times up to 10⁸ units): a value within 10⁻⁶ steps above a grid
// point is counted at that point.
const binTol = 1e-6

// binOf is the grid index of y rounded up to the grid of step 1/inv:
// ⌈y·inv − 10⁻⁶⌉ (SPEC §4's x⁺ = Δ⌈x/Δ⌉ and y° = h⌈y/h⌉, with a tolerance
// for floating-point rounding), capped at limit+1 (beyond the grid).
func binOf(y, inv float64, limit int) int {
	v := y*inv - binTol
	if !(v < float64(limit)) {
		return limit + 1
	}
	if v <= 0 {
		return 0
	}
	b := int(v)
	if float64(b) < v {
		b++
	}
	return b
}

// grid is the grid x_n = n·step, n = 0…N, the estimates are tabulated on.
type grid struct {
	step, inv float64
	n         int // N, the last index
	x         []float64
}

// Grid is the grid x_n = n·step, n = 0 … N, N = ⌈x_max/step⌉ (at least
// 1), on which a crawl with grid step step (Sampler.Step) tabulates its
// estimates and the truth rows are compared.
func Grid(step, xmax float64) []float64 { return newGrid(step, xmax).x }

func newGrid(step, xmax float64) grid {
	n := int(math.Ceil(xmax/step - 1e-9))
	if n < 1 {
		n = 1
	}
	x := make([]float64, n+1)
	for i := range x {
		x[i] = float64(i) * step
	}
	return grid{step: step, inv: 1 / step, n: n, x: x}
}

// hist counts samples by grid index (0…N) plus those beyond the grid.
type hist struct {
	c    []int64
	over int64   // samples beyond x_N
	sumO float64 // their sum in grid units (M5 needs it)
	n    int64
}

func newHist(g grid) hist { return hist{c: make([]int64, g.n+1)} }

func (h *hist) addBin(b int, units float64) {
	h.n++
	if b < len(h.c) {
		h.c[b]++
		return
	}
	h.over++
	h.sumO += units
}

// ecdf is #{samples with index ≤ n}/#samples at every grid point; NaN
// everywhere when there are no samples.
func (h *hist) ecdf() []float64 {
	p := make([]float64, len(h.c))
	if h.n == 0 {
		for i := range p {
			p[i] = math.NaN()
		}
		return p
	}
	var cum int64
	for i, c := range h.c {
		cum += c
		p[i] = float64(cum) / float64(h.n)
	}
	return p
}
