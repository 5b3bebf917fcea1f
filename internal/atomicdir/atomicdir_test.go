package atomicdir

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCommitReplacesEarlierOutput(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "out")
	for _, content := range []string{"first", "second"} {
		d, err := Create(final, "marker.json", "test output")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(final); content == "first" && err == nil {
			t.Fatal("output visible before Commit")
		}
		write(t, filepath.Join(d.Path(), "marker.json"), content)
		if err := d.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(final, "marker.json"))
	if err != nil || string(b) != "second" {
		t.Fatalf("got %q, %v", b, err)
	}
	if st, _ := os.Stat(final); st.Mode().Perm() != 0o755 {
		t.Fatalf("mode %v", st.Mode())
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		t.Fatalf("left behind: %v", ents)
	}
}

func TestAbortAndIncompleteLeaveNothing(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "out")
	d, err := Create(final, "m", "test output")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(d.Path(), "half"), "x")
	d.Abort()
	d2, _ := Create(final, "m", "test output")
	if err := d2.Commit(); err == nil { // no marker: incomplete
		t.Fatal("committed an output without its marker")
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Fatalf("left behind: %v", ents)
	}
}

func TestRefusesUnrelatedDirectory(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "thesis.tex"), "precious")
	if _, err := Create(dir, "m", "test output"); err == nil {
		t.Fatal("agreed to replace a directory that is not an output")
	}
	f := filepath.Join(dir, "file")
	write(t, f, "x")
	if _, err := Create(f, "m", "test output"); err == nil {
		t.Fatal("agreed to replace a file")
	}
}
