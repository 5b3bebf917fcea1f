package analysis

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// bottomK must keep exactly the k smallest keys of all intervals, as a
// naive sort of every key says, whatever the order of the offers.
func TestBottomKNaive(t *testing.T) {
	type iv struct {
		page int64
		i    int
	}
	var all []HashedValue
	b := newBottomK(50, 9)
	rev := newBottomK(50, 9)
	var offers []iv
	for page := int64(1); page <= 40; page++ {
		for i := range int(page * 3) {
			offers = append(offers, iv{page, i})
			seed := shard.Hash(9)
			all = append(all, HashedValue{Key: shard.Hash(int64(shard.Hash(int64(uint64(page)^seed)) + uint64(i))), Page: page, I: i, V: float64(i)})
		}
	}
	for _, o := range offers {
		b.offer(o.page, o.i, float64(o.i))
	}
	for k := len(offers) - 1; k >= 0; k-- {
		rev.offer(offers[k].page, offers[k].i, float64(offers[k].i))
	}
	slices.SortFunc(all, func(a, b HashedValue) int { return cmp.Compare(a.Key, b.Key) })
	want := all[:50]
	if got := b.sorted(); !slices.Equal(got, want) {
		t.Fatalf("bottomK kept %v\nwant %v", got[:3], want[:3])
	}
	if got := rev.sorted(); !slices.Equal(got, want) {
		t.Fatal("bottomK depends on the order of the offers")
	}
}

// shardPages are 40 pages: Poisson ones (in the CoV band), Pareto and
// Weibull ones, with ties in the number of updates (for the top pages)
// and a tiny page, in an order unrelated to their ids.
func shardPages() []series.Page {
	r := model.NewRand(3, 3)
	var out []series.Page
	for k := range 40 {
		var d model.Dist = model.Exponential{Rate: 1}
		switch k % 3 {
		case 1:
			d = model.Pareto{Alpha: 2.5, Beta: 1.5}
		case 2:
			d = model.Weibull{K: 0.6, Scale: 1}
		}
		n := 30 + 17*(k%7)
		if k == 5 {
			n = 2
		}
		raw := series.RawPage{ID: int64(1000 - 7*k), Title: d.String(), Resolution: 1, Source: "generated"}
		ts := 1e9
		for range n {
			raw.Revisions = append(raw.Revisions, int64(ts))
			ts += 3600*d.Rand(r) + 1
		}
		out = append(out, raw.Normalize())
	}
	return out
}

// Merging the analyses of N = 1, 3 and 7 shards gives every file of the
// unsharded analysis byte for byte: page statistics, the screen, the
// closest pages, top pages, tail fits on a sample smaller than the
// intervals, page errors from a replay, NHPP and staleness.
func TestShardMergeEqualsAnalyze(t *testing.T) {
	pages := shardPages()
	dir := writeDataset(t, pages)
	grid := stagetest.Grid(1, 10)
	var rows []EstimateRow
	for _, k := range []int{0, 4, 9, 13} { // pages in several shards
		truth := transform.AgeCDF(transform.Intervals(pages[k].Updates, 3600), grid)
		id := pages[k].ID
		rows = append(rows,
			EstimateRow{PageID: id, Sampler: "const:1", Method: "truth", Kind: "G", CDF: truth},
			EstimateRow{PageID: id, Sampler: "const:1", Method: "M4", Kind: "G", CDF: truth},
			EstimateRow{PageID: id, Sampler: "const:1", Method: "M3", Kind: "G", CDF: series.CDF{X: grid, P: make([]float64, len(grid))}})
	}
	read := func(string) ([]EstimateRow, string, error) { return rows, "hand-made rows", nil }
	opt := Options{Dataset: dir, Replay: "fake", Estimates: read, Reps: 19, MinUpdates: 40, Top: 3, Closest: 4,
		AggregateMax: 300, MaxLag: 10, Seed: 4, Localized: LocalizedOptions{NHPP: true, Theta: 0.1, Staleness: true, Epsilon: 0.1, SelectMax: 5}}
	tmp := t.TempDir()
	full := opt
	full.Out = filepath.Join(tmp, "full")
	res, err := Run(context.Background(), full)
	if err != nil {
		t.Fatal(err)
	}
	if res.InBand == 0 || res.Intervals <= 300 || len(res.PageErrors) != 8 {
		t.Fatalf("in band %d, intervals %d, page errors %d: the case must have candidates, more intervals than the sample and 8 errors", res.InBand, res.Intervals, len(res.PageErrors))
	}
	want := stagetest.ReadTree(t, full.Out)
	for _, n := range []int{1, 3, 7} {
		var dirs []string
		for i := range n {
			o := opt
			o.Out = filepath.Join(tmp, "s", string(rune('a'+n)), string(rune('a'+i)))
			if err := RunShard(context.Background(), o, shard.Spec{I: i, N: n}); err != nil {
				t.Fatalf("shard %d/%d: %v", i, n, err)
			}
			dirs = append(dirs, o.Out)
		}
		slices.Reverse(dirs)
		out := filepath.Join(tmp, "m", string(rune('a'+n)))
		if _, err := MergeShards(context.Background(), dirs, out, read, nil); err != nil {
			t.Fatalf("merge of %d: %v", n, err)
		}
		got := stagetest.ReadTree(t, out)
		for name, b := range want {
			if !bytes.Equal(got[name], b) {
				t.Errorf("N = %d: %s differs from the unsharded analysis", n, name)
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("N = %d: extra file %s", n, name)
			}
		}
		if n == 3 {
			_, err := MergeShards(context.Background(), dirs[:2], filepath.Join(tmp, "bad"), read, nil)
			var me *MergeError
			if !errors.As(err, &me) {
				t.Errorf("merge of 2 of 3 shards: %v, want a MergeError", err)
			}
			// The split is checked as every merge checks it
			// (shard.Set): the message names both directories.
			_, err = MergeShards(context.Background(), []string{dirs[0], dirs[1], dirs[0]}, filepath.Join(tmp, "bad"), read, nil)
			if !errors.As(err, &me) || !strings.Contains(err.Error(), "given twice ("+dirs[0]+" and "+dirs[0]+")") {
				t.Errorf("merge with shard %s twice: %v, want a MergeError naming its directory twice", dirs[0], err)
			}
		}
	}
}

// The same rows must give the same page_stats bytes (see
// replay.TestEstimateWriterDeterministic: a column whose dictionary
// outgrows its page made arrow-go list its encodings in map order; here
// the titles, as in a large wiki).
func TestColWriterDeterministic(t *testing.T) {
	var first []byte
	for k := range 8 {
		stem := filepath.Join(t.TempDir(), "page_stats")
		w, err := tables.NewFileWriter(stem, pageStatsColumns("h"))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 1 << 16 { // tables.FileWriter row groups of 16 Ki rows; 2.6 MB of distinct titles and sources in all
			st := PageStats{PageID: int64(i), Title: fmt.Sprintf("a page title long enough, number %08d", i), Source: fmt.Sprintf("source %040d", i), Updates: 3, Intervals: 2, Mean: float64(i) * 1.000001, Var: 1, CoV: 1, Lifetime: 2, First: 1, Last: 3}
			if err := w.Append(pageStatsRow(st, nil)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(stem + ".parquet")
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			first = b
		} else if !bytes.Equal(b, first) {
			t.Fatalf("write %d of the same rows gave other bytes than the first", k+1)
		}
	}
}

// selectSmallest puts the k smallest first, the k-th at k−1, as a sort
// does, for every k on small inputs with ties in the key (broken by page
// and index) and on a large random one; bottomK with k = 1, and with k
// above the number of offers (no compaction), keeps what a sort keeps.
func TestSelectSmallestAndBottomKEdges(t *testing.T) {
	r := model.NewRand(21, 0)
	gen := func(n int, keys uint64) []HashedValue {
		x := make([]HashedValue, n)
		for i := range x {
			x[i] = HashedValue{Key: r.Uint64() % keys, Page: int64(r.IntN(5)), I: i}
		}
		return x
	}
	check := func(x []HashedValue, k int) {
		want := slices.Clone(x)
		slices.SortFunc(want, HashedValue.cmp)
		got := slices.Clone(x)
		selectSmallest(got, k)
		if got[k-1] != want[k-1] {
			t.Fatalf("n %d k %d: x[k−1] = %v, want %v", len(x), k, got[k-1], want[k-1])
		}
		head := slices.Clone(got[:k])
		slices.SortFunc(head, HashedValue.cmp)
		if !slices.Equal(head, want[:k]) {
			t.Fatalf("n %d k %d: the first k are not the k smallest", len(x), k)
		}
	}
	for n := 1; n <= 40; n++ {
		x := gen(n, 7) // many equal keys
		for k := 1; k <= n; k++ {
			check(x, k)
		}
	}
	big := gen(100000, 1<<62)
	for _, k := range []int{1, 2, 777, 50000, 99999, 100000} {
		check(big, k)
	}
	for _, k := range []int{1, 5000} {
		b := newBottomK(k, 3)
		var all []HashedValue
		for page := int64(1); page <= 30; page++ {
			for i := range 50 {
				b.offer(page, i, float64(i))
				all = append(all, HashedValue{Key: aggKey(shard.Hash(3), page, i), Page: page, I: i, V: float64(i)})
			}
		}
		slices.SortFunc(all, HashedValue.cmp)
		if got := b.sorted(); !slices.Equal(got, all[:min(k, len(all))]) {
			t.Errorf("k = %d: kept %d values, not the %d smallest", k, len(got), min(k, len(all)))
		}
	}
}
