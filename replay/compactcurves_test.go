package replay_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/generate/gentest"
	"github.com/revisit-dev/revisit/replay"
	"github.com/revisit-dev/revisit/transform"
)

// The error tables of analysis are the same, value for value, from a
// replay with full curves (analysis compares them at full resolution) and
// from one with compact curves (analysis takes the errors the replay
// stored before compacting): every WMRD, KS, point count and x_max, with
// per-page grids, every method, both samplers, G and F.
func TestCompactCurvesKeepErrors(t *testing.T) {
	ds, pages := gentest.Dataset(t, []string{"0.5*pareto:1.5,2", "0.5*exp:0.5"}, 5)
	base := replay.Options{Dataset: ds, Seed: 3, Workers: 2, Recover: true}
	tmp := t.TempDir()
	errs := map[estimates.Curves][]analysis.PageError{}
	size := map[estimates.Curves]int64{}
	for _, c := range []estimates.Curves{estimates.CurvesFull, estimates.CurvesCompact} {
		o := base
		o.Curves, o.Out = c, filepath.Join(tmp, string(c))
		meta, err := replay.Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		_, rows, err := replay.ReadEstimates(o.Out)
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
	_, rows, err := replay.ReadEstimates(filepath.Join(tmp, string(estimates.CurvesCompact)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := analysis.PageErrors(rows, 5, analysis.DefaultExtra, nil); err == nil || !strings.Contains(err.Error(), "--curves full") {
		t.Fatalf("x_max 5 on compact curves: %v, want a refusal naming --curves full", err)
	}
}
