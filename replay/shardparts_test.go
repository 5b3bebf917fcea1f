package replay

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// writePartedDataset writes pages as n part files.
func writePartedDataset(t *testing.T, pages []series.Page, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "dsp")
	w, err := dataset.CreateParts(dir, n)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pages {
		if err := w.Write(&pages[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(&dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	return dir
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
