package replay

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/estimates"
)

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
