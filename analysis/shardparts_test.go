package analysis

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/dataset/datasettest"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// An analysis shard of a dataset in P parts, P a multiple of N, opens exactly
// the parts j ≡ i (mod N) (recorded in its Partial), and the merge is the
// unsharded analysis byte for byte; with N not dividing P every shard opens
// every part, with the same merge. With N = 3 each shard runs with the other
// shards' parts taken away (a node that holds only its own).
func TestShardReadsOwnParts(t *testing.T) {
	pages := shardPages()
	const P = 6
	dir := datasettest.WriteParts(t, t.TempDir(), "dsp", pages, P)
	grid := stagetest.Grid(1, 10)
	var rows []EstimateRow
	for _, k := range []int{0, 4, 9, 13} {
		truth := transform.AgeCDF(transform.Intervals(pages[k].Updates, 3600), grid)
		rows = append(rows, EstimateRow{PageID: pages[k].ID, Sampler: "const:1", Method: "truth", Kind: "G", CDF: truth},
			EstimateRow{PageID: pages[k].ID, Sampler: "const:1", Method: "M4", Kind: "G", CDF: series.CDF{X: grid, P: make([]float64, len(grid))}})
	}
	read := func(string) ([]EstimateRow, string, error) { return rows, "hand-made rows", nil }
	opt := Options{Dataset: dir, Replay: "fake", Estimates: read, Reps: 19, MinUpdates: 40, Top: 3, Closest: 4,
		AggregateMax: 300, MaxLag: 10, Seed: 4}
	tmp := t.TempDir()
	full := opt
	full.Out = filepath.Join(tmp, "full")
	if _, err := Run(context.Background(), full); err != nil {
		t.Fatal(err)
	}
	want := stagetest.ReadTree(t, full.Out)
	for _, n := range []int{2, 3, 4, 6} {
		var dirs []string
		for i := range n {
			o := opt
			o.Out = filepath.Join(tmp, fmt.Sprintf("s%d-%d", n, i))
			run := func() {
				if err := RunShard(context.Background(), o, shard.Spec{I: i, N: n}); err != nil {
					t.Fatalf("shard %d/%d: %v", i, n, err)
				}
			}
			if n == 3 { // as on a node that holds only the shard's own parts
				datasettest.WithoutParts(t, dir, P, func(j int) bool { return j%n == i }, run)
			} else {
				run()
			}
			p, err := ReadPartial(o.Out)
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			for j := range P {
				if P%n != 0 || j%n == i {
					files = append(files, dataset.PartFile(j, P))
				}
			}
			if !reflect.DeepEqual(p.DatasetFiles, files) || p.DatasetBytes <= 0 {
				t.Errorf("shard %d/%d opened %v (%d bytes), want %v", i, n, p.DatasetFiles, p.DatasetBytes, files)
			}
			dirs = append(dirs, o.Out)
		}
		out := filepath.Join(tmp, fmt.Sprintf("m%d", n))
		if _, err := MergeShards(context.Background(), dirs, out, read, nil); err != nil {
			t.Fatalf("merge of %d: %v", n, err)
		}
		got := stagetest.ReadTree(t, out)
		for name, b := range want {
			if !bytes.Equal(got[name], b) {
				t.Errorf("N = %d: %s differs from the unsharded analysis", n, name)
			}
		}
		if len(got) != len(want) {
			t.Errorf("N = %d: %d files, want %d", n, len(got), len(want))
		}
	}
}
