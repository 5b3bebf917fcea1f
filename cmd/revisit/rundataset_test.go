package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// revisit run DATASET: ingest skipped (exit 0, no OUT/dataset); an ingest
// flag with a dataset input, or a dataset among other inputs, is a usage
// error (exit 2) and writes nothing.
func TestRunDatasetInputCLI(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("p,t\n")
	for p := range 3 {
		for i := range 30 {
			fmt.Fprintf(&sb, "pg%d,2020-01-%02dT%02d:%02d:00Z\n", p, 1+i%28, (i*7+p)%24, (i*13)%60)
		}
	}
	logIn := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(logIn, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "ds")
	if code := execute([]string{"-q", "ingest", logIn, "--id", "p", "--time", "t", "--min-updates", "2", "-o", ds}); code != exitOK {
		t.Fatalf("ingest: exit %d", code)
	}
	cases := []struct {
		args []string
		code int
	}{
		{[]string{"-q", "run", ds, "-o", filepath.Join(dir, "a"), "--top", "2", "--reps", "19"}, exitOK},
		{[]string{"-q", "run", ds, "-o", filepath.Join(dir, "b"), "--namespaces", "1"}, exitUsage},
		{[]string{"-q", "run", ds, "-o", filepath.Join(dir, "c"), "--id", "p"}, exitUsage},
		{[]string{"-q", "run", ds, logIn, "-o", filepath.Join(dir, "d")}, exitUsage},
	}
	for _, c := range cases {
		if got := execute(c.args); got != c.code {
			t.Errorf("revisit %s: exit %d, want %d", strings.Join(c.args, " "), got, c.code)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a", "report", "index.html")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a", "dataset")); !os.IsNotExist(err) {
		t.Errorf("run DATASET wrote OUT/dataset: %v", err)
	}
	for _, o := range []string{"b", "c", "d"} {
		if _, err := os.Stat(filepath.Join(dir, o)); !os.IsNotExist(err) {
			t.Errorf("a refused run made %s: %v", o, err)
		}
	}
}
