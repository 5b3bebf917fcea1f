package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/generate"
)

// Exit codes of `revisit generate` (SPEC §8): 2 on bad usage, 1 when the
// run fails (nothing left behind), 0 on success; and the CLI round trip
// generate → ingest holds the truth's counts.
func TestGenerateExitCodes(t *testing.T) {
	dir := t.TempDir()
	dump := filepath.Join(dir, "g.xml.gz")
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"bad model", []string{"generate", "-o", dump, "--model", "pareto:3"}, exitUsage},
		{"bad drawn parameter", []string{"generate", "-o", dump, "--model", "exp:{lognormal:0}"}, exitUsage},
		{"bad span", []string{"generate", "-o", dump, "--span", "5 years"}, exitUsage},
		{"bad start", []string{"generate", "-o", dump, "--start", "yesterday"}, exitUsage},
		{"bad unit", []string{"generate", "-o", dump, "--unit", "fortnight"}, exitUsage},
		{"bad format", []string{"generate", "-o", dump, "--format", "csv"}, exitUsage},
		{"parquet to stdout", []string{"generate", "-o", "-", "--format", "parquet"}, exitUsage},
		{"no pages", []string{"generate", "-o", dump, "--pages", "0"}, exitUsage},
		{"extra argument", []string{"generate", "-o", dump, "stray"}, exitUsage},
		{"too many updates", []string{"-q", "generate", "-o", dump, "--model", "exp:1000", "--max-updates", "100"}, exitBadInput},
		{"ok", []string{"-q", "generate", "-o", dump, "--pages", "30", "--span", "60d", "--seed", "3"}, exitOK},
	} {
		os.Remove(dump)
		if got := execute(c.args); got != c.code {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.code)
		}
		ents, _ := os.ReadDir(dir)
		if c.code != exitOK && len(ents) != 0 {
			t.Errorf("%s: left behind %v", c.name, ents)
		}
	}
	tr, err := generate.ReadTruth(filepath.Join(dir, "g.truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "ds")
	if code := execute([]string{"-q", "ingest", dump, "-o", ds, "--all-namespaces"}); code != exitOK {
		t.Fatalf("ingest exit %d", code)
	}
	r, err := dataset.Open(ds)
	if err != nil {
		t.Fatal(err)
	}
	c := r.Manifest.Counts
	if c.PagesKept != tr.Totals.Pages || c.Updates != tr.Totals.Updates || c.Collapsed != tr.Totals.Collapsed {
		t.Errorf("ingested counts %+v, truth %+v", c, tr.Totals)
	}
}
