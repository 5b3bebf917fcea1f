package analysis

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// synthPartials writes n analysis shards' Partials (partial.gob only)
// with big aggregate samples (agg values each), top, busiest and closest
// pages with long series, and returns their directories and the
// Partials themselves (for the naive reference).
func synthPartials(t *testing.T, n, agg, updates int, o PartialOptions) ([]string, []*Partial) {
	t.Helper()
	r := model.NewRand(7, 25)
	page := func(id int64) series.Page {
		u := make([]int64, updates+r.IntN(updates))
		for i := range u {
			u[i] = int64(1_500_000_000 + i*60)
		}
		return series.Page{ID: id, Source: "generated", Updates: u}
	}
	var dirs []string
	var parts []*Partial
	for s := range n {
		p := &Partial{Tool: "revisit", Format: PartialFormat, Shard: fmt.Sprintf("%d/%d", s, n), I: s, N: n, Opt: o, Unit: 3600,
			Pages: 100, Updates: 1000, Intervals: 900, First: int64(1_500_000_000 + s), Last: int64(1_600_000_000 + s),
			CoVCounts: []int64{int64(s), 1}, Bins: map[int]int64{s % 3: 5}, DatasetID: "synthetic"}
		for i := range agg {
			p.Agg = append(p.Agg, HashedValue{Key: r.Uint64(), Page: int64(s*1000 + i%7), I: i, V: r.Float64()})
		}
		slices.SortFunc(p.Agg, HashedValue.cmp)
		for i := range 3 {
			p.Top = append(p.Top, page(int64(s*1000+i)))
		}
		for i := range 5 {
			p.Keep = append(p.Keep, page(int64(s*1000+100+i)))
		}
		for i := range 4 {
			u := make([]float64, updates)
			for j := range u {
				u[j] = r.ExpFloat64()
			}
			// ties in |v − 1| between shards: broken by the position
			p.Closest = append(p.Closest, Near{Pos: int64(s*1000 + i), Stats: PageStats{PageID: int64(s*1000 + i), CoV: 1 + float64(i%2)/8 + float64(s%5)/64}, U: u})
		}
		p.Candidates = []PosCandidate{{Pos: int64(s * 1000)}}
		p.PageErrors = []PosPageError{{Row: n - s}}
		dir := filepath.Join(t.TempDir(), fmt.Sprint(s))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := writeGob(filepath.Join(dir, PartialFile), p); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
		parts = append(parts, p)
	}
	return dirs, parts
}

// TestMergeHoldsOneShard: merge analysis folds the shards in one at a time,
// keeping only the running selections: the live heap, measured (after a
// collection) before each shard is read, must not grow with the shards read so
// far. The merged selections are checked against a naive reference: sort the
// union, cut.
func TestMergeHoldsOneShard(t *testing.T) {
	const n, agg, updates = 24, 1 << 15, 2000
	o := PartialOptions{Unit: 3600, Top: 4, Closest: 5, AggregateMax: 1000, Seed: 3,
		Localized: LocalizedOptions{Staleness: true, SelectMax: 6}}
	dirs, parts := synthPartials(t, n, agg, updates, o)
	// the reference, then drop the Partials: the merge must read them back
	wantAgg, wantTop, wantKeep, wantClosest := naiveSelections(parts, o)
	parts = nil

	var base, peak uint64
	reads := 0
	read := func(dir string) (*Partial, error) {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if reads == 0 {
			base = ms.HeapAlloc
		}
		peak = max(peak, ms.HeapAlloc)
		reads++
		return ReadPartial(dir)
	}
	m, err := mergePartialDirs(context.Background(), dirs, read)
	if err != nil {
		t.Fatal(err)
	}
	shardBytes := uint64(agg*32 + 8*updates*(3+5)*3/2 + 8*updates*4)
	growth := int64(peak) - int64(base)
	t.Logf("live heap grew by %d B over %d shards of about %d B each", growth, n, shardBytes)
	// the running state: 2·AggregateMax sample values, Top + SelectMax
	// pages and Closest intervals of at most 2·updates each
	bound := int64(2*o.AggregateMax*32+(o.Top+o.Localized.SelectMax+o.Closest)*2*updates*8) + 1<<20
	if growth > bound {
		t.Errorf("live heap grew by %d B while merging %d shards (%d B each): want ≤ %d B, the running selections only", growth, n, shardBytes, bound)
	}

	if !slices.Equal(m.Agg, wantAgg) {
		t.Errorf("aggregate sample: %d values, want the %d smallest keys of the union", len(m.Agg), len(wantAgg))
	}
	ids := func(ps []series.Page) []int64 {
		var out []int64
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	if got, want := ids(m.Top), ids(wantTop); !slices.Equal(got, want) {
		t.Errorf("top pages %v, want %v", got, want)
	}
	if got, want := ids(m.Keep), ids(wantKeep); !slices.Equal(got, want) {
		t.Errorf("busiest pages %v, want %v", got, want)
	}
	var gotC, wantC []int64
	for _, c := range m.Closest {
		gotC = append(gotC, c.Pos)
	}
	for _, c := range wantClosest {
		wantC = append(wantC, c.Pos)
	}
	if !slices.Equal(gotC, wantC) {
		t.Errorf("closest %v, want %v", gotC, wantC)
	}
	if m.Pages != 100*n || len(m.Candidates) != n || len(m.PageErrors) != n || m.PageErrors[0].Row != 1 || m.First != 1_500_000_000 || m.Last != 1_600_000_000+n-1 {
		t.Errorf("sums: pages %d, candidates %d, errors %d (first row %d), first %d, last %d", m.Pages, len(m.Candidates), len(m.PageErrors), m.PageErrors[0].Row, m.First, m.Last)
	}
}

// naiveSelections is the reference for the merge: every shard's
// candidates in one slice, sorted by the selection's order, cut.
func naiveSelections(parts []*Partial, o PartialOptions) (agg []HashedValue, top, keep []series.Page, closest []Near) {
	defer func() { // copies: the cuts must not hold the shards' Partials
		agg, top, keep, closest = slices.Clone(agg), slices.Clone(top), slices.Clone(keep), slices.Clone(closest)
		for i := range top {
			top[i].Updates = nil
		}
		for i := range keep {
			keep[i].Updates = nil
		}
		for i := range closest {
			closest[i].U = nil
		}
	}()
	byUpdates := func(a, b series.Page) int {
		return cmp.Or(cmp.Compare(len(b.Updates), len(a.Updates)), cmp.Compare(a.ID, b.ID))
	}
	for _, p := range parts {
		agg = append(agg, p.Agg...)
		top = append(top, p.Top...)
		keep = append(keep, p.Keep...)
		closest = append(closest, p.Closest...)
	}
	slices.SortFunc(agg, func(a, b HashedValue) int {
		return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.Page, b.Page), cmp.Compare(a.I, b.I))
	})
	slices.SortFunc(top, byUpdates)
	slices.SortFunc(keep, byUpdates)
	slices.SortFunc(closest, func(a, b Near) int {
		return cmp.Or(cmp.Compare(math.Abs(a.Stats.CoV-1), math.Abs(b.Stats.CoV-1)), cmp.Compare(a.Pos, b.Pos))
	})
	return agg[:o.AggregateMax], top[:o.Top], keep[:o.Localized.SelectMax], closest[:o.Closest]
}
