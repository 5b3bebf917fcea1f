package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ingest then analyze, and run, keep the same pages by default: one
// --min-updates default (pipeline.DefaultMinUpdates, 2: a page needs two
// updates for one interval). The log has pages with 1, 2 and 150 updates;
// the page with one update is left out by both, and counted.
func TestIngestAndRunKeepOnePageSet(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("p,t\n")
	sb.WriteString("one,1600000000\n")
	sb.WriteString("two,1600000000\ntwo,1600003600\n")
	for i := 0; i < 150; i++ {
		fmt.Fprintf(&sb, "many,%d\n", 1600000000+i*(3600+i*97))
	}
	in := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, an, out := filepath.Join(dir, "ds"), filepath.Join(dir, "an"), filepath.Join(dir, "run")
	for _, args := range [][]string{
		{"ingest", in, "--id", "p", "--time", "t", "-o", ds},
		{"analyze", ds, "--reps", "19", "-o", an},
		{"run", in, "--id", "p", "--time", "t", "--reps", "19", "-o", out},
	} {
		if code, msg := stderrOf(t, append([]string{"-q"}, args...)...); code != exitOK {
			t.Fatalf("%s: exit %d\n%s", args[0], code, msg)
		}
	}
	titles := func(file string) []string {
		t.Helper()
		rows := readCSV(t, file)
		col := slices.Index(rows[0], "title")
		var ts []string
		for _, r := range rows[1:] {
			ts = append(ts, r[col])
		}
		slices.Sort(ts)
		return ts
	}
	want := []string{"many", "two"}
	if got := titles(filepath.Join(an, "page_stats.csv")); !slices.Equal(got, want) {
		t.Errorf("ingest + analyze: pages %q, want %q", got, want)
	}
	if got := titles(filepath.Join(out, "analysis", "page_stats.csv")); !slices.Equal(got, want) {
		t.Errorf("run: pages %q, want %q", got, want)
	}
	for _, m := range []string{filepath.Join(ds, "manifest.json"), filepath.Join(out, "dataset", "manifest.json")} {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"min_updates": 2`) {
			t.Errorf("%s does not record --min-updates 2", m)
		}
	}
}
