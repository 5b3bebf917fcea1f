package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/shard"
)

// metaWithoutTimes is replay.json without "created" and "elapsed_s".
func metaWithoutTimes(t *testing.T, dir string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, MetaFile))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "created")
	delete(m, "elapsed_s")
	return m
}

// Merge of the N shards of a replay gives the unsharded replay's
// estimates.parquet byte for byte and the same replay.json (but times),
// with and without --top or --sample, with jobs left out by --max-visits, for N = 1,
// 2, 3 and 7 (shards with no page at all among them).
func TestMergeEqualsUnsharded(t *testing.T) {
	ds, _ := writeDataset(t, 9)
	for _, c := range []struct {
		name      string
		top       int
		maxVisits int64
		compact   bool // compact curves but on the 3 busiest pages
		seeds     int
		sample    int // a sample of pages with ≥ 60 intervals (7 of the 9)
	}{{"all", 0, 0, false, 0, 0}, {"top3", 3, 0, false, 0, 0}, {"limits", 0, 300, false, 0, 0}, {"top8-limits", 8, 300, false, 0, 0},
		{"compact", 0, 0, true, 0, 0}, {"compact-top5", 5, 0, true, 0, 0},
		{"seeds3", 0, 0, false, 3, 0}, {"seeds2-limits-compact", 0, 300, true, 2, 0}, {"seeds2-top5", 5, 0, false, 2, 0},
		{"sample4", 0, 0, false, 0, 4}, {"sample4-compact-limits", 0, 700, true, 0, 4}, {"sample9", 0, 0, false, 2, 9}} {
		base := Options{Dataset: ds, Samplers: []string{"exp:2", "const:0.5"}, H: 0.1, XMax: 20,
			Top: c.top, Seed: 5, Workers: 2, Recover: true, MaxVisits: c.maxVisits, Seeds: c.seeds, Sample: c.sample, SampleIntervals: 60}
		if c.compact {
			base.Curves, base.FullCurves = estimates.CurvesCompact, 3
		}
		tmp := t.TempDir()
		full := base
		full.Out = filepath.Join(tmp, "full")
		fm, err := Run(context.Background(), full)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if c.maxVisits > 0 && fm.Skipped[estimator.SkipMaxVisits] == 0 {
			t.Fatalf("%s: no job left out by --max-visits %d: the case tests nothing", c.name, c.maxVisits)
		}
		want, err := os.ReadFile(filepath.Join(full.Out, EstimatesFile))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 2, 3, 7} {
			var dirs []string
			for i := range n {
				o := base
				o.Shard = shard.Spec{I: i, N: n}
				o.Out = filepath.Join(tmp, "s", string(rune('a'+n)), string(rune('a'+i)))
				if _, err := Run(context.Background(), o); err != nil {
					t.Fatalf("%s: shard %d/%d: %v", c.name, i, n, err)
				}
				dirs = append(dirs, o.Out)
			}
			// the shards in any order
			dirs[0], dirs[n-1] = dirs[n-1], dirs[0]
			out := filepath.Join(tmp, "m", string(rune('a'+n)))
			if _, err := Merge(context.Background(), dirs, out); err != nil {
				t.Fatalf("%s: merge of %d: %v", c.name, n, err)
			}
			got, err := os.ReadFile(filepath.Join(out, EstimatesFile))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: merged estimates.parquet of %d shards differs from the unsharded one (%d vs %d bytes)", c.name, n, len(got), len(want))
			}
			if g, w := metaWithoutTimes(t, out), metaWithoutTimes(t, full.Out); !reflect.DeepEqual(g, w) {
				gb, _ := json.Marshal(g)
				wb, _ := json.Marshal(w)
				t.Errorf("%s: merged replay.json of %d shards:\n%s\nwant\n%s", c.name, n, gb, wb)
			}
		}
	}
}

// Incomplete, repeated or mismatched shards are refused.
func TestMergeRefuses(t *testing.T) {
	ds, _ := writeDataset(t, 4)
	tmp := t.TempDir()
	run := func(name string, sp shard.Spec, seed uint64) string {
		o := Options{Dataset: ds, Out: filepath.Join(tmp, name), Samplers: []string{"const:0.5"}, XMax: 20, Seed: seed, Shard: sp}
		if _, err := Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		return o.Out
	}
	a, b, c3, other, plain := run("a", shard.Spec{I: 0, N: 2}, 1), run("b", shard.Spec{I: 1, N: 2}, 1),
		run("c", shard.Spec{I: 0, N: 3}, 1), run("d", shard.Spec{I: 1, N: 2}, 2), run("e", shard.Spec{}, 1)
	for _, dirs := range [][]string{{a}, {a, a}, {a, c3}, {a, other}, {a, plain}} {
		_, err := Merge(context.Background(), dirs, filepath.Join(tmp, "out"))
		var me *MergeError
		if !errors.As(err, &me) {
			t.Errorf("Merge(%v) = %v, want a MergeError", dirs, err)
		}
		if _, err := os.Stat(filepath.Join(tmp, "out")); !os.IsNotExist(err) {
			t.Fatalf("Merge(%v) left an output", dirs)
		}
	}
	if _, err := Merge(context.Background(), []string{b, a}, filepath.Join(tmp, "out")); err != nil {
		t.Fatal(err)
	}
}

// A merge into one of its shards is refused before anything is written,
// as MergeEstimates refuses it: replacing the shard would destroy an input.
func TestMergeRefusesIntoAShard(t *testing.T) {
	ds, _ := writeDataset(t, 4)
	tmp := t.TempDir()
	var dirs []string
	for i := range 2 {
		o := Options{Dataset: ds, Out: filepath.Join(tmp, string(rune('a'+i))), Samplers: []string{"const:0.5"}, XMax: 20, Seed: 1, Shard: shard.Spec{I: i, N: 2}}
		if _, err := Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, o.Out)
	}
	_, err := Merge(context.Background(), dirs, dirs[1]+string(filepath.Separator))
	var me *MergeError
	if !errors.As(err, &me) {
		t.Errorf("Merge into shard %s = %v, want a MergeError", dirs[1], err)
	}
	if info, err := ReadShardInfo(dirs[1]); err != nil || info.I != 1 {
		t.Errorf("shard %s after the merge: %+v, %v; want shard 1/2 intact", dirs[1], info, err)
	}
}

// Shards replayed with --write-observations: the merged replay.json named
// observation logs that the merge never wrote, and a shard with them
// (estimates from whole-second observations) merged silently with one
// without. Merge refuses both, as bad usage.
func TestMergeRefusesObservations(t *testing.T) {
	ds, _ := writeDataset(t, 4)
	tmp := t.TempDir()
	run := func(i int, format, name string) string {
		o := Options{Dataset: ds, Samplers: []string{"exp:2"}, H: 0.1, XMax: 20, Seed: 5, Workers: 1,
			Shard: shard.Spec{I: i, N: 2}, WriteObservations: format, Out: filepath.Join(tmp, name)}
		if _, err := Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		return o.Out
	}
	a0, a1, b1 := run(0, "log-changed", "a0"), run(1, "log-changed", "a1"), run(1, "", "b1")
	for _, c := range []struct {
		name string
		dirs []string
	}{{"both with logs", []string{a0, a1}}, {"one with logs", []string{a0, b1}}, {"one with logs, other first", []string{b1, a0}}} {
		out := filepath.Join(tmp, "m-"+c.name)
		m, err := Merge(context.Background(), c.dirs, out)
		var me *MergeError
		if !errors.As(err, &me) {
			if m != nil && m.Observations != nil {
				for _, f := range m.Observations.Files {
					if _, serr := os.Stat(filepath.Join(out, f)); serr != nil {
						t.Errorf("%s: merged replay.json names %s: %v", c.name, f, serr)
					}
				}
			}
			t.Errorf("%s: err %v, want a MergeError", c.name, err)
		}
		if _, serr := os.Stat(out); !os.IsNotExist(serr) {
			t.Errorf("%s: refused merge left %s", c.name, out)
		}
	}
}
