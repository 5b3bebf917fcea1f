package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPoliciesOutputAtomic: -o into an unrelated non-empty directory is
// refused before anything is computed and leaves it untouched; a fresh
// directory receives the marked results, which a second run replaces.
func TestPoliciesOutputAtomic(t *testing.T) {
	dir := t.TempDir()
	ds := policiesDataset(t, dir)
	mine := filepath.Join(dir, "notes")
	os.MkdirAll(mine, 0o755)
	if err := os.WriteFile(filepath.Join(mine, "todo.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := func(out string) []string {
		return []string{"-q", "policies", ds, "--cycle", "7d", "--budget", "5", "--no-sweeps", "-o", out}
	}
	if code := execute(args(mine)); code != exitUsage { // a refused output, as in every command
		t.Errorf("policies -o unrelated dir: exit %d, want %d", code, exitUsage)
	}
	if got := dirNames(t, mine); len(got) != 1 || got[0] != "todo.txt" {
		t.Errorf("unrelated directory changed: %v", got)
	}
	out := filepath.Join(dir, "pol")
	for i := 0; i < 2; i++ {
		if code := execute(args(out)); code != exitOK {
			t.Fatalf("policies run %d: exit %d", i, code)
		}
		for _, f := range []string{".revisit-policies", "tables"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("run %d: %v", i, err)
			}
		}
	}
	if got := dirNames(t, dir); len(got) != 3 {
		t.Errorf("entries beside the results (temporary directories left?): %v", got)
	}
}

// policiesDataset generates a 30-page Poisson corpus of a year at dir/ds.
func policiesDataset(t *testing.T, dir string) string {
	t.Helper()
	ds := filepath.Join(dir, "ds")
	if code := execute([]string{"-q", "generate", "--format", "parquet", "--pages", "30", "--span", "1y", "--model", "exp:0.05", "--seed", "2", "-o", ds}); code != exitOK {
		t.Fatalf("generate: exit %d", code)
	}
	return ds
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n []string
	for _, e := range es {
		n = append(n, e.Name())
	}
	return n
}

// Two budgets, two meanings: policies' --budget is downloads per cycle
// (R, R/cycle or a percentage of the pages), schedule's is visits per
// day (B, B/d, B/h). Each command refuses the other's form as bad usage
// with a message naming both, and policies reads R/cycle as R.
func TestBudgetMeanings(t *testing.T) {
	dir := t.TempDir()
	ds := policiesDataset(t, dir)
	for _, b := range []string{"5/d", "5/h"} {
		code, stderr := stderrOf(t, "-q", "policies", ds, "--cycle", "7d", "--budget", b, "--no-sweeps")
		if code != exitUsage || !strings.Contains(stderr, "per download cycle") || !strings.Contains(stderr, "schedule's --budget") {
			t.Errorf("policies --budget %s: exit %d, %q; want %d and a message naming both budgets", b, code, stderr, exitUsage)
		}
	}
	for _, b := range []string{"5/cycle", "2%"} {
		code, stderr := stderrOf(t, "-q", "schedule", ds, "--budget", b, "--no-sweep")
		if code != exitUsage || !strings.Contains(stderr, "revisit policies --budget") {
			t.Errorf("schedule --budget %s: exit %d, %q; want %d and a message naming policies' budget", b, code, stderr, exitUsage)
		}
	}
	read := func(out string) map[string][]byte {
		files := map[string][]byte{}
		for _, e := range dirNames(t, filepath.Join(out, "tables")) {
			b, err := os.ReadFile(filepath.Join(out, "tables", e))
			if err != nil {
				t.Fatal(err)
			}
			files[e] = b
		}
		return files
	}
	outs := map[string]string{}
	for _, b := range []string{"5", "5/cycle"} {
		outs[b] = filepath.Join(dir, "pol-"+strings.ReplaceAll(b, "/", "-"))
		if code, stderr := stderrOf(t, "-q", "policies", ds, "--cycle", "7d", "--budget", b, "--no-sweeps", "-o", outs[b]); code != exitOK {
			t.Fatalf("policies --budget %s: exit %d, %q", b, code, stderr)
		}
	}
	plain, unit := read(outs["5"]), read(outs["5/cycle"])
	if len(plain) == 0 || len(plain) != len(unit) {
		t.Fatalf("tables of --budget 5: %d, of 5/cycle: %d", len(plain), len(unit))
	}
	for name, b := range plain {
		if !bytes.Equal(b, unit[name]) {
			t.Errorf("%s differs between --budget 5 and 5/cycle", name)
		}
	}
}
