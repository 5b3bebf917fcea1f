package replay

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/transform"
)

// The error tables of analysis are the same, value for value, from a
// replay with full curves (analysis compares them at full resolution) and
// from one with compact curves (analysis takes the errors the replay
// stored before compacting): every WMRD, KS, point count and x_max, with
// per-page grids, every method, both samplers, G and F.
func TestCompactCurvesKeepErrors(t *testing.T) {
	ds, pages := writeDataset(t, 6)
	base := Options{Dataset: ds, Seed: 3, Workers: 2, Recover: true}
	tmp := t.TempDir()
	errs := map[estimates.Curves][]analysis.PageError{}
	size := map[estimates.Curves]int64{}
	for _, c := range []estimates.Curves{estimates.CurvesFull, estimates.CurvesCompact} {
		o := base
		o.Curves, o.Out = c, filepath.Join(tmp, string(c))
		meta, err := Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		_, rows, err := ReadEstimates(o.Out)
		if err != nil {
			t.Fatal(err)
		}
		compact := 0
		for _, r := range rows {
			if r.Compact {
				compact++
			}
		}
		if c == estimates.CurvesFull && compact > 0 || c == estimates.CurvesCompact && compact < len(rows)/2 {
			t.Fatalf("--curves %s: %d of %d rows compact", c, compact, len(rows))
		}
		iv := map[int64][]float64{}
		for _, p := range pages {
			iv[p.ID] = transform.Intervals(p.Updates, meta.Unit)
		}
		pe, err := analysis.PageErrors(rows, 0, analysis.DefaultExtra, iv)
		if err != nil {
			t.Fatalf("--curves %s: %v", c, err)
		}
		errs[c] = pe
		st, err := os.Stat(filepath.Join(o.Out, estimates.File))
		if err != nil {
			t.Fatal(err)
		}
		size[c] = st.Size()
	}
	full, compact := errs[estimates.CurvesFull], errs[estimates.CurvesCompact]
	if len(full) == 0 || len(full) != len(compact) {
		t.Fatalf("%d errors from full curves, %d from compact ones", len(full), len(compact))
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	defined := 0
	for i := range full {
		f, c := full[i], compact[i]
		if f.PageID != c.PageID || f.Sampler != c.Sampler || f.Method != c.Method || f.Kind != c.Kind ||
			!same(f.WMRD, c.WMRD) || !same(f.KS, c.KS) || f.Points != c.Points || !same(f.XMax, c.XMax) {
			t.Fatalf("row %d: full %+v, compact %+v", i, f, c)
		}
		if !math.IsNaN(f.WMRD) {
			defined++
		}
	}
	if defined < len(full)/2 {
		t.Fatalf("only %d of %d errors defined", defined, len(full))
	}
	if size[estimates.CurvesCompact]*3 > size[estimates.CurvesFull] {
		t.Errorf("compact estimates %d bytes, full %d: not a third", size[estimates.CurvesCompact], size[estimates.CurvesFull])
	}

	// Compact curves hold errors for the default comparison only.
	_, rows, err := ReadEstimates(filepath.Join(tmp, string(estimates.CurvesCompact)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := analysis.PageErrors(rows, 5, analysis.DefaultExtra, nil); err == nil || !strings.Contains(err.Error(), "--curves full") {
		t.Fatalf("x_max 5 on compact curves: %v, want a refusal naming --curves full", err)
	}
}

// With compact curves the FullCurves busiest pages keep their whole
// curves, whether the replay streams its pages (found by a pass over the
// dataset), keeps the Top ones, or replays a shard that sees only some.
func TestFullCurvesBusiestPages(t *testing.T) {
	ds, _ := writeDataset(t, 6) // page 100+i has 21+30i updates (page 100: 1, left out)
	want := map[int64]bool{105: true, 104: true}
	for _, c := range []struct {
		name string
		top  int
		sh   int // shards
	}{{"stream", 0, 1}, {"top", 4, 1}, {"shards", 0, 3}, {"top-shards", 4, 2}} {
		got := map[int64]bool{}
		seen := map[int64]bool{}
		for i := range c.sh {
			o := Options{Dataset: ds, Samplers: []string{"exp:2"}, H: 0.1, XMax: 20, Top: c.top, Seed: 1, Workers: 2,
				Curves: estimates.CurvesCompact, FullCurves: 2, Out: filepath.Join(t.TempDir(), "r")}
			if c.sh > 1 {
				o.Shard.I, o.Shard.N = i, c.sh
			}
			if _, err := Run(context.Background(), o); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			_, rows, err := ReadEstimates(o.Out)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				seen[r.PageID] = true
				if !r.Compact && len(r.CDF.X) > estimates.Knots {
					got[r.PageID] = true
				}
			}
		}
		if len(seen) < 3 || len(got) != len(want) || !got[105] || !got[104] {
			t.Errorf("%s: pages with full curves %v (of %v), want %v", c.name, got, seen, want)
		}
	}
}
