package replay

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/dataset/datasettest"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// writePartedDataset writes pages as n part files.
func writePartedDataset(t *testing.T, pages []series.Page, n int) string {
	return datasettest.WriteParts(t, t.TempDir(), "dsp", pages, n)
}

// A shard of a dataset in P parts, P a multiple of N, opens exactly the
// parts j ≡ i (mod N) (recorded in shard.json) and the merge is the
// unsharded replay byte for byte, with and without --top; when P is not
// a multiple of N, or without --unit the pages' default units differ (some
// daily pages), every shard opens every part, and the merge is the same.
// Daily pages alone are replayed in days, as one process does.
func TestShardReadsOwnParts(t *testing.T) {
	_, pages := writeDataset(t, 13)
	const P = 6
	for _, c := range []struct {
		name  string
		daily func(k int) bool
		top   int
	}{{"hourly", func(int) bool { return false }, 0}, {"hourly-top", func(int) bool { return false }, 4},
		{"daily", func(int) bool { return true }, 0}, {"mixed", func(k int) bool { return k == 7 }, 0}} {
		for k := range pages {
			pages[k].Resolution = 1
			if c.daily(k) {
				pages[k].Resolution = units.Day
			}
		}
		ds := writePartedDataset(t, pages, P)
		mixed := c.name == "mixed"
		top := c.top
		base := Options{Dataset: ds, Samplers: []string{"exp:2", "const:0.5"}, H: 0.1, XMax: 20, Top: top, Seed: 5, Workers: 2}
		tmp := t.TempDir()
		full := base
		full.Out = filepath.Join(tmp, "full")
		fm, err := Run(context.Background(), full)
		if err != nil {
			t.Fatal(err)
		}
		if wantUnit := map[bool]string{false: transform.UnitName(transform.Hour), true: transform.UnitName(transform.Day)}[c.name == "daily"]; fm.UnitName != wantUnit {
			t.Fatalf("%s: unit %s, want %s", c.name, fm.UnitName, wantUnit)
		}
		want, err := os.ReadFile(filepath.Join(full.Out, EstimatesFile))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{2, 3, 4, 6} {
			var dirs []string
			for i := range n {
				o := base
				o.Shard = shard.Spec{I: i, N: n}
				o.Out = filepath.Join(tmp, fmt.Sprintf("s%d-%d", n, i))
				var logged []string
				o.Log = func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
				if _, err := Run(context.Background(), o); err != nil {
					t.Fatalf("%s: top %d, shard %d/%d: %v", c.name, top, i, n, err)
				}
				info, err := ReadShardInfo(o.Out)
				if err != nil {
					t.Fatal(err)
				}
				var files []string
				for j := range P {
					if P%n != 0 || mixed || j%n == i {
						files = append(files, dataset.PartFile(j, P))
					}
				}
				if !reflect.DeepEqual(info.DatasetFiles, files) {
					t.Errorf("%s: top %d, shard %d/%d opened %v, want %v", c.name, top, i, n, info.DatasetFiles, files)
				}
				if info.DatasetBytes <= 0 {
					t.Errorf("shard %d/%d: %d bytes read", i, n, info.DatasetBytes)
				}
				if (P%n != 0 || mixed) && !containsLine(logged, "reads every part") {
					t.Errorf("shard %d/%d of %d parts: the log does not say it reads every part: %q", i, n, P, logged)
				}
				dirs = append(dirs, o.Out)
			}
			out := filepath.Join(tmp, fmt.Sprintf("m%d", n))
			if _, err := Merge(context.Background(), dirs, out); err != nil {
				t.Fatalf("%s: top %d, merge of %d: %v", c.name, top, n, err)
			}
			got, err := os.ReadFile(filepath.Join(out, EstimatesFile))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: top %d: merged estimates.parquet of %d shards differs from the unsharded one", c.name, top, n)
			}
			if g, w := metaWithoutTimes(t, out), metaWithoutTimes(t, full.Out); !reflect.DeepEqual(g, w) {
				t.Errorf("%s: top %d: merged replay.json of %d shards differs: %v\nwant %v", c.name, top, n, g, w)
			}
		}
	}
}

func containsLine(lines []string, s string) bool {
	for _, l := range lines {
		if bytes.Contains([]byte(l), []byte(s)) {
			return true
		}
	}
	return false
}

// With a page selection a shard of a parted dataset reads every part (the
// selection's tally — pages selected, names not found — is over the whole
// dataset, the same in every shard), says so, and the merge is still the
// selected unsharded replay byte for byte.
func TestShardPartsWithSelection(t *testing.T) {
	_, pages := writeDataset(t, 13)
	const P = 6
	ds := writePartedDataset(t, pages, P)
	sel, err := dataset.NewSelection("", "[ACEGIKM]$", nil) // "page A", "page C", …: every other page
	if err != nil {
		t.Fatal(err)
	}
	base := Options{Dataset: ds, Samplers: []string{"exp:2"}, H: 0.1, XMax: 20, Seed: 5, Workers: 2, Select: sel}
	tmp := t.TempDir()
	full := base
	full.Out = filepath.Join(tmp, "full")
	fm, err := Run(context.Background(), full)
	if err != nil {
		t.Fatal(err)
	}
	if fm.Selection == nil || fm.Selection.Selected == 0 || fm.Selection.Selected == fm.Selection.Read {
		t.Fatalf("selection %+v: want some but not all pages", fm.Selection)
	}
	want, err := os.ReadFile(filepath.Join(full.Out, EstimatesFile))
	if err != nil {
		t.Fatal(err)
	}
	const n = 3
	var dirs []string
	for i := range n {
		o := base
		o.Shard = shard.Spec{I: i, N: n}
		o.Out = filepath.Join(tmp, fmt.Sprintf("s%d", i))
		var logged []string
		o.Log = func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
		if _, err := Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		info, err := ReadShardInfo(o.Out)
		if err != nil {
			t.Fatal(err)
		}
		if len(info.DatasetFiles) != P || !containsLine(logged, "a page selection is counted over the whole dataset") {
			t.Errorf("shard %d/%d with a selection opened %v (want all %d parts), log %q", i, n, info.DatasetFiles, P, logged)
		}
		dirs = append(dirs, o.Out)
	}
	out := filepath.Join(tmp, "merged")
	if _, err := Merge(context.Background(), dirs, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, EstimatesFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("merged estimates.parquet of the selected shards differs from the selected unsharded replay")
	}
	if g, w := metaWithoutTimes(t, out), metaWithoutTimes(t, full.Out); !reflect.DeepEqual(g, w) {
		t.Errorf("merged replay.json differs: %v\nwant %v", g, w)
	}
}

// A shard of a dataset in 8 parts runs on a node that holds only its own
// 2 parts (shard i of 4: parts i and i+4): the other 6 files are taken
// away while it runs, it opens exactly its own, and the merge of the 4
// shards is the replay of the whole dataset in one process byte for byte,
// with compact curves whose whole-curve pages (the 3 busiest) every shard
// ranks among its own pages only, with and without --top (one fewer and
// one more than the whole-curve pages). A shard whose own part is absent
// fails naming it; a shard that must read every part (3 shards of 8
// parts) fails naming an absent part and why it needs it.
func TestShardOnItsOwnParts(t *testing.T) {
	_, pages := writeDataset(t, 13)
	const P, N = 8, 4
	ds := writePartedDataset(t, pages, P)
	without := func(keep func(j int) bool, fn func()) { datasettest.WithoutParts(t, ds, P, keep, fn) }
	for _, sel := range []struct{ top, sample int }{{0, 0}, {2, 0}, {4, 0}, {0, 4}, {0, 6}, {0, 9}} {
		top := sel.top
		base := Options{Dataset: ds, Samplers: []string{"exp:2", "const:0.5"}, H: 0.1, XMax: 20, Top: top, Sample: sel.sample, Seed: 5, Workers: 2,
			Curves: estimates.CurvesCompact, FullCurves: 3}
		tmp := t.TempDir()
		whole := base
		whole.Out = filepath.Join(tmp, "whole")
		if _, err := Run(context.Background(), whole); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(whole.Out, EstimatesFile))
		if err != nil {
			t.Fatal(err)
		}
		var dirs []string
		for i := range N {
			o := base
			o.Shard = shard.Spec{I: i, N: N}
			o.Out = filepath.Join(tmp, fmt.Sprintf("s%d", i))
			without(func(j int) bool { return j%N == i }, func() {
				if _, err := Run(context.Background(), o); err != nil {
					t.Fatalf("top %d, sample %d: shard %d/%d on its own parts: %v", top, sel.sample, i, N, err)
				}
			})
			info, err := ReadShardInfo(o.Out)
			if err != nil {
				t.Fatal(err)
			}
			if own := []string{dataset.PartFile(i, P), dataset.PartFile(i+N, P)}; !reflect.DeepEqual(info.DatasetFiles, own) {
				t.Errorf("top %d: shard %d/%d opened %v, want %v", top, i, N, info.DatasetFiles, own)
			}
			dirs = append(dirs, o.Out)
		}
		out := filepath.Join(tmp, "merged")
		if _, err := Merge(context.Background(), dirs, out); err != nil {
			t.Fatalf("top %d: merge: %v", top, err)
		}
		got, err := os.ReadFile(filepath.Join(out, EstimatesFile))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("top %d, sample %d: the merged estimates.parquet of the shards on their own parts differs from the whole replay", top, sel.sample)
		}
		if g, w := metaWithoutTimes(t, out), metaWithoutTimes(t, whole.Out); !reflect.DeepEqual(g, w) {
			t.Errorf("top %d: merged replay.json differs: %v\nwant %v", top, g, w)
		}
	}
	fail := func(s shard.Spec, keep func(int) bool, want ...string) {
		t.Helper()
		o := Options{Dataset: ds, Samplers: []string{"exp:2"}, H: 0.1, XMax: 20, Seed: 5, Shard: s, Out: filepath.Join(t.TempDir(), "o"),
			Curves: estimates.CurvesCompact, FullCurves: 3}
		var err error
		without(keep, func() { _, err = Run(context.Background(), o) })
		for _, w := range want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("shard %s: error %v, want one saying %q", s, err, w)
			}
		}
		if err != nil && strings.HasPrefix(err.Error(), "replay: ") { // the command prefixes its name
			t.Errorf("shard %s: error %q names replay, which the command's message does too", s, err)
		}
		if _, serr := os.Stat(o.Out); serr == nil {
			t.Errorf("shard %s failed but left %s", s, o.Out)
		}
	}
	fail(shard.Spec{I: 1, N: 4}, func(j int) bool { return j == 1 }, dataset.PartFile(5, P)+" of 8 is missing", "a part of shard 1/4")
	fail(shard.Spec{I: 1, N: 3}, func(j int) bool { return j%4 == 1 }, dataset.PartFile(0, P)+" of 8 is missing", "not a multiple of 3")
}
