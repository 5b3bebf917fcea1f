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

// generate replaces only what an earlier generate wrote: a
// user's file at -o or at the truth path, or a non-empty directory for
// --format yelp, is refused with exit 2 and left as it was; its own
// earlier output is replaced.
func TestGenerateNeverOverwritesUserFiles(t *testing.T) {
	dir := t.TempDir()
	small := []string{"--pages", "5", "--span", "10d", "--seed", "1"}
	gen := func(args ...string) int {
		return execute(append(append([]string{"-q", "generate"}, args...), small...))
	}
	keep := func(p, want string) {
		t.Helper()
		if b, err := os.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s: %.40q, %v; want %q", p, b, err, want)
		}
	}

	mine := filepath.Join(dir, "thesis.xml.gz")
	os.WriteFile(mine, []byte("draft"), 0o644)
	if code := gen("-o", mine); code != exitUsage {
		t.Errorf("generate over a user's file: exit %d, want %d", code, exitUsage)
	}
	keep(mine, "draft")

	// The truth file path taken by the user's file.
	dump := filepath.Join(dir, "g.xml.gz")
	os.WriteFile(filepath.Join(dir, "g.truth.json"), []byte(`{"notes": 1}`), 0o644)
	if code := gen("-o", dump); code != exitUsage {
		t.Errorf("generate over a user's truth path: exit %d, want %d", code, exitUsage)
	}
	keep(filepath.Join(dir, "g.truth.json"), `{"notes": 1}`)
	if _, err := os.Stat(dump); !os.IsNotExist(err) {
		t.Errorf("refused generate wrote %s", dump)
	}
	os.Remove(filepath.Join(dir, "g.truth.json"))

	// Its own output is replaced, again and again.
	for i := 0; i < 2; i++ {
		if code := gen("-o", dump); code != exitOK {
			t.Fatalf("generate #%d: exit %d", i, code)
		}
	}
	// … but not the output of another name whose truth file it is not.
	other := filepath.Join(dir, "h.xml.gz")
	os.WriteFile(other, []byte("mine"), 0o644)
	os.Link(filepath.Join(dir, "g.truth.json"), filepath.Join(dir, "h.truth.json"))
	if code := gen("-o", other); code != exitUsage {
		t.Errorf("generate over h.xml.gz with g's truth: exit %d, want %d", code, exitUsage)
	}
	keep(other, "mine")

	// Yelp format into a directory with the user's files.
	y := filepath.Join(dir, "docs")
	os.Mkdir(y, 0o755)
	os.WriteFile(filepath.Join(y, "review.json"), []byte("mine"), 0o644)
	if code := gen("--format", "yelp", "-o", y); code != exitUsage {
		t.Errorf("generate yelp into a user's directory: exit %d, want %d", code, exitUsage)
	}
	keep(filepath.Join(y, "review.json"), "mine")
	y2 := filepath.Join(dir, "y2")
	for i := 0; i < 2; i++ {
		if code := gen("--format", "yelp", "-o", y2); code != exitOK {
			t.Fatalf("generate yelp #%d: exit %d", i, code)
		}
	}

	// --truth never replaces a user's file, even with -o -.
	notes := filepath.Join(dir, "notes.json")
	os.WriteFile(notes, []byte("notes\n"), 0o644)
	stdout := os.Stdout
	os.Stdout, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	code := gen("-o", "-", "--truth", notes)
	os.Stdout.Close()
	os.Stdout = stdout
	if code != exitUsage {
		t.Errorf("generate -o - --truth notes.json: exit %d, want %d", code, exitUsage)
	}
	keep(notes, "notes\n")

	// An earlier truth with the same base name elsewhere does not
	// authorise replacing an unrelated new/g.xml.gz.
	os.Mkdir(filepath.Join(dir, "new"), 0o755)
	ng := filepath.Join(dir, "new", "g.xml.gz")
	os.WriteFile(ng, []byte("my dump"), 0o644)
	if code := gen("-o", ng, "--truth", filepath.Join(dir, "g.truth.json")); code != exitUsage {
		t.Errorf("generate -o new/g.xml.gz --truth g.truth.json: exit %d, want %d", code, exitUsage)
	}
	keep(ng, "my dump")

	// A user's file inside an earlier yelp or parquet output keeps it.
	os.WriteFile(filepath.Join(y2, "extra.csv"), []byte("x"), 0o644)
	if code := gen("--format", "yelp", "-o", y2); code != exitUsage {
		t.Errorf("generate yelp over an output holding a user's file: exit %d, want %d", code, exitUsage)
	}
	keep(filepath.Join(y2, "extra.csv"), "x")
	pq := filepath.Join(dir, "pq")
	if code := gen("--format", "parquet", "-o", pq); code != exitOK {
		t.Fatalf("generate parquet: exit %d", code)
	}
	os.WriteFile(filepath.Join(pq, "extra.csv"), []byte("x"), 0o644)
	if code := gen("--format", "parquet", "-o", pq); code != exitUsage {
		t.Errorf("generate parquet over a dataset holding a user's file: exit %d, want %d", code, exitUsage)
	}
	keep(filepath.Join(pq, "extra.csv"), "x")
}
