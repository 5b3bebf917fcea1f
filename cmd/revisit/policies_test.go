package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPoliciesOutputAtomic: -o into an unrelated non-empty directory is
// refused before anything is computed and leaves it untouched; a fresh
// directory receives the marked results, which a second run replaces.
func TestPoliciesOutputAtomic(t *testing.T) {
	dir := t.TempDir()
	ds := filepath.Join(dir, "ds")
	if code := execute([]string{"-q", "generate", "--format", "parquet", "--pages", "30", "--span", "1y", "--model", "exp:0.05", "--seed", "2", "-o", ds}); code != exitOK {
		t.Fatalf("generate: exit %d", code)
	}
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
