package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

// seedRows are the rows a replay with --seeds 5 leaves for one page under
// one constant sampler: the truth (the same for every seed) and M3, M4
// (G) and M2 (F), different in each seed r, given in a shuffled seed
// order. Every estimate is already non-decreasing, so that the drawn
// curve (the monotone projection) is the estimate itself.
func seedRows() []EstimateRow {
	x := []float64{0, 1, 2, 3}
	row := func(method, kind string, seed int, p ...float64) EstimateRow {
		return EstimateRow{PageID: 7, Title: "Anarchism", Sampler: "const:0.05x", Constant: true, Method: method, Kind: kind,
			Seed: seed, CDF: series.CDF{X: x, P: p}}
	}
	var rows []EstimateRow
	for _, r := range []int{3, 0, 4, 1, 2} {
		d := 0.01 * float64(r)
		rows = append(rows,
			row("truth", "G", r, 0, 0.3, 0.6, 0.9),
			row("M3", "G", r, 0, 0.5+d, 0.7+d, 0.95),
			row("M4", "G", r, 0, 0.3+d, 0.6-d, 0.9),
			row("truth", "F", r, 0, 0.5, 0.8, 1),
			row("M2", "F", r, 0, 0.4+2*d, 0.8, 1-d))
	}
	return rows
}

// With --seeds 5 the replay figures draw one curve per method: the truth
// once (it does not depend on the seed), M3 and M4 (and M2) as the
// pointwise mean over the 5 seeds with their range as the band — here
// worked out by hand from seedRows — and keep each seed's own curve,
// with its seed, for the CSV. They drew 15 curves before (truth, M3, M4
// once per seed).
func TestMethodFiguresOneCurvePerMethod(t *testing.T) {
	figs := methodFigures(&Result{UnitName: "h"}, seedRows(), "src")
	if len(figs) != 2 {
		t.Fatalf("%d figures, want top_g_m3_m4 and top_f_from_m2", len(figs))
	}
	// Seeds r = 0…4 move M3 by d = 0.01r at x = 1, 2 and M4 by +d at
	// x = 1, −d at x = 2: means over d ∈ {0, …, 0.04} add 0.02, ranges
	// span 0.04. Tails 1 − G at x > 0 where the mean is below 1.
	type want struct {
		y, lo, hi []float64
		seeds     int
	}
	wants := map[string]map[string]want{
		"top_g_m3_m4": {
			"truth": {y: []float64{0.7, 0.4, 0.1}},
			"M3":    {y: []float64{0.48, 0.28, 0.05}, lo: []float64{0.46, 0.26, 0.05}, hi: []float64{0.5, 0.3, 0.05}, seeds: 5},
			"M4":    {y: []float64{0.68, 0.42, 0.1}, lo: []float64{0.66, 0.4, 0.1}, hi: []float64{0.7, 0.44, 0.1}, seeds: 5},
		},
		// F: M2 moves by 2d at x = 1 and −d at x = 3; drawn on the
		// whole grid.
		"top_f_from_m2": {
			"M2":    {y: []float64{0, 0.44, 0.8, 0.98}, lo: []float64{0, 0.4, 0.8, 0.96}, hi: []float64{0, 0.48, 0.8, 1}, seeds: 5},
			"truth": {y: []float64{0, 0.5, 0.8, 1}},
		},
	}
	near := func(a, b []float64) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if math.Abs(a[i]-b[i]) > 1e-12 {
				return false
			}
		}
		return true
	}
	for _, f := range figs {
		ws := wants[f.ID]
		if len(f.Curves) != len(ws) {
			var names []string
			for _, c := range f.Curves {
				names = append(names, c.Name)
			}
			t.Errorf("%s: %d curves %q, want one per method (%d)", f.ID, len(f.Curves), names, len(ws))
		}
		if !strings.Contains(f.Caption, "mean over the replay's 5 seeds") || !strings.Contains(f.Caption, "range") || !strings.Contains(f.Caption, "column seed") {
			t.Errorf("%s: caption %q does not say what the curves and bands of 5 seeds are", f.ID, f.Caption)
		}
		for _, c := range f.Curves {
			w, ok := ws[c.Name]
			if !ok {
				t.Errorf("%s: curve %q", f.ID, c.Name)
				continue
			}
			delete(ws, c.Name)
			if !near(c.Y, w.y) || !near(c.YLo, w.lo) || !near(c.YHi, w.hi) {
				t.Errorf("%s %s: y %v band %v…%v, want %v band %v…%v", f.ID, c.Name, c.Y, c.YLo, c.YHi, w.y, w.lo, w.hi)
			}
			if len(c.Seeds) != w.seeds {
				t.Errorf("%s %s: %d seed curves kept, want %d", f.ID, c.Name, len(c.Seeds), w.seeds)
				continue
			}
			for r, s := range c.Seeds {
				if s.Seed != r || s.Name != c.Name || len(s.Seeds) != 0 {
					t.Errorf("%s %s: seed curve %d is %q of seed %d", f.ID, c.Name, r, s.Name, s.Seed)
				}
			}
		}
	}
	// Seed 3's M4 tail, as it is: 1 − (0, 0.33, 0.57, 0.9) at x > 0.
	g := figs[0]
	for _, c := range g.Curves {
		if c.Name == "M4" && len(c.Seeds) == 5 && !near(c.Seeds[3].Y, []float64{0.67, 0.43, 0.1}) {
			t.Errorf("M4 seed 3: %v, want 0.67 0.43 0.1", c.Seeds[3].Y)
		}
	}
	// One seed: no band, no seed curves, no word about seeds.
	var one []EstimateRow
	for _, r := range seedRows() {
		if r.Seed == 0 {
			one = append(one, r)
		}
	}
	for _, f := range methodFigures(&Result{UnitName: "h"}, one, "src") {
		for _, c := range f.Curves {
			if c.HasBand() || len(c.Seeds) > 0 {
				t.Errorf("one seed, %s %s: band %v, %d seed curves", f.ID, c.Name, c.HasBand(), len(c.Seeds))
			}
		}
		if strings.Contains(f.Caption, "seeds") {
			t.Errorf("one seed, %s: caption %q speaks of seeds", f.ID, f.Caption)
		}
	}
}

// seedSpread on grids that differ: the first seed's grid is kept, the
// others are evaluated there (as steps: the value at the largest grid
// point ≤ x; linearly between points otherwise), and a grid point beyond
// another seed's grid, where it has no value, is left out.
func TestSeedSpreadOtherGrids(t *testing.T) {
	a := series.CDF{X: []float64{0, 1, 2, 3}, P: []float64{0, 0.2, 0.6, 1}}
	b := series.CDF{X: []float64{0, 0.5, 1.5, 2.5}, P: []float64{0, 0.4, 0.8, 0.9}}
	x, mean, lo, hi := seedSpread([]series.CDF{a, b}, true)
	// Steps: b(0) = 0, b(1) = 0.4, b(2) = 0.8; x = 3 is beyond b's grid.
	wantX, wantMean := []float64{0, 1, 2}, []float64{0, 0.3, 0.7}
	if len(x) != 3 {
		t.Fatalf("grid %v, want %v", x, wantX)
	}
	for i := range x {
		if x[i] != wantX[i] || math.Abs(mean[i]-wantMean[i]) > 1e-12 || lo[i] != math.Min(a.P[i], b.At(x[i])) || hi[i] != math.Max(a.P[i], b.At(x[i])) {
			t.Errorf("point %d: x %g mean %g band %g…%g, want x %g mean %g", i, x[i], mean[i], lo[i], hi[i], wantX[i], wantMean[i])
		}
	}
	// Linear: b(1) = 0.6, b(2) = 0.85.
	_, mean, _, _ = seedSpread([]series.CDF{a, b}, false)
	if math.Abs(mean[1]-0.4) > 1e-12 || math.Abs(mean[2]-0.725) > 1e-12 {
		t.Errorf("linear means %v, want 0 0.4 0.725", mean)
	}
}
