package analysis

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// TestWorkersByteIdentical: the analysis with 4 workers, and the merge of
// 3 shards analysed with 4 workers each, write every file of the analysis
// with 1 worker byte for byte (page_stats in dataset order, the screen,
// the closest pages, top pages, tail fits on a sample, page errors, NHPP
// and staleness). The pages differ in size by a factor of 10, so the
// workers finish out of order.
func TestWorkersByteIdentical(t *testing.T) {
	pages := append(shardPages(), shardPages()...)
	for i := 40; i < len(pages); i++ { // the second copy: other ids, ten times longer
		p := &pages[i]
		p.ID += 5000
		var ups []int64
		for k := 0; k < 10; k++ {
			for _, u := range p.Updates {
				ups = append(ups, u+int64(k)*(p.Updates[len(p.Updates)-1]-p.Updates[0]+3600))
			}
		}
		p.Updates = ups
	}
	dir := writeDataset(t, pages)
	grid := stagetest.Grid(1, 10)
	var rows []EstimateRow
	for _, k := range []int{0, 4, 45, 53} {
		truth := transform.AgeCDF(transform.Intervals(pages[k].Updates, 3600), grid)
		id := pages[k].ID
		rows = append(rows,
			EstimateRow{PageID: id, Sampler: "const:1", Method: "truth", Kind: "G", CDF: truth},
			EstimateRow{PageID: id, Sampler: "const:1", Method: "M3", Kind: "G", CDF: series.CDF{X: grid, P: make([]float64, len(grid))}})
	}
	read := func(string) ([]EstimateRow, string, error) { return rows, "hand-made rows", nil }
	opt := Options{Dataset: dir, Replay: "fake", Estimates: read, Reps: 19, MinUpdates: 40, Top: 3, Closest: 4,
		AggregateMax: 300, MaxLag: 10, Seed: 4, Localized: LocalizedOptions{NHPP: true, Theta: 0.1, Staleness: true, Epsilon: 0.1, SelectMax: 5}}
	tmp := t.TempDir()
	one := opt
	one.Workers, one.Out = 1, filepath.Join(tmp, "one")
	res, err := Run(context.Background(), one)
	if err != nil {
		t.Fatal(err)
	}
	if res.InBand < 5 || res.Screened < 40 || len(res.PageErrors) != 4 {
		t.Fatalf("in band %d, screened %d, page errors %d: the case needs many screened pages, some in the band, and 4 errors", res.InBand, res.Screened, len(res.PageErrors))
	}
	want := stagetest.ReadTree(t, one.Out)
	same := func(what, out string) {
		got := stagetest.ReadTree(t, out)
		for name, b := range want {
			if !bytes.Equal(got[name], b) {
				t.Errorf("%s: %s differs from the analysis with 1 worker", what, name)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d files, want %d", what, len(got), len(want))
		}
	}
	four := opt
	four.Workers, four.Out = 4, filepath.Join(tmp, "four")
	if _, err := Run(context.Background(), four); err != nil {
		t.Fatal(err)
	}
	same("4 workers", four.Out)

	var dirs []string
	for i := range 3 {
		o := opt
		o.Workers, o.Out = 4, filepath.Join(tmp, "s", string(rune('a'+i)))
		if err := RunShard(context.Background(), o, shard.Spec{I: i, N: 3}); err != nil {
			t.Fatalf("shard %d/3: %v", i, err)
		}
		dirs = append(dirs, o.Out)
	}
	merged := filepath.Join(tmp, "merged")
	if _, err := MergeShards(context.Background(), dirs, merged, read, nil); err != nil {
		t.Fatal(err)
	}
	same("3 shards with 4 workers", merged)
}

// TestReadPartialFormat: a shard whose Partial has another layout (an
// older revisit's, without Format) is refused with a message saying so,
// not decoded into empty candidates and CoV counts.
func TestReadPartialFormat(t *testing.T) {
	dir := t.TempDir()
	type oldPartial struct { // the fields of format 1 that survive, no Format
		Tool  string
		Shard string
		I, N  int
		Pages int
	}
	if err := writeGob(filepath.Join(dir, PartialFile), oldPartial{Tool: "revisit", Shard: "0/2", N: 2, Pages: 3}); err != nil {
		t.Fatal(err)
	}
	_, err := ReadPartial(dir)
	if err == nil || !strings.Contains(err.Error(), "analyze the shards again") {
		t.Fatalf("old shard: %v, want a format error", err)
	}
	if err := writeGob(filepath.Join(dir, PartialFile), Partial{Tool: "revisit", Format: PartialFormat, Shard: "0/2", N: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPartial(dir); err != nil {
		t.Fatalf("current shard: %v", err)
	}
}
