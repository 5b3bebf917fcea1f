package dataset

import (
	"os"
	"path/filepath"
	"testing"
)

// writeParts writes pages into a dataset of n part files at dir.
func writeParts(t *testing.T, dir string, n, pages int) {
	t.Helper()
	w, err := CreateParts(dir, n)
	if err != nil {
		t.Fatal(err)
	}
	ps := samplePages(pages)
	for i := range ps {
		if err := w.Write(&ps[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(&Manifest{Counts: Counts{PagesKept: int64(pages)}}); err != nil {
		t.Fatal(err)
	}
}

// A dataset whose directory name holds glob metacharacters ([ ] *) opens
// with all its part files (Open used filepath.Glob on the path and failed
// with "syntax error in pattern", or matched other directories).
func TestOpenDirectoryWithPatternCharacters(t *testing.T) {
	for _, name := range []string{"ds[1", "ds[ab]", "d*s"} {
		dir := filepath.Join(t.TempDir(), name)
		writeParts(t, dir, 3, 30)
		r, err := Open(dir)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(r.Files) != 3 {
			t.Errorf("%s: %d part files, want 3: %v", name, len(r.Files), r.Files)
		}
		if n, err := r.NumPages(); err != nil || n != 30 {
			t.Errorf("%s: %d pages (%v), want 30", name, n, err)
		}
	}
}

// Identity is the same for two opens of one dataset, and differs for a
// dataset written again at the same path from the same pages (another
// manifest: its creation time) or with a part file changed in size.
func TestIdentity(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	writeParts(t, dir, 2, 20)
	id := func() string {
		t.Helper()
		r, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		s, err := r.Identity()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := id()
	if len(a) != 64 || id() != a {
		t.Fatalf("identity %q, then %q", a, id())
	}
	writeParts(t, dir, 2, 20)
	b := id()
	if b == a {
		t.Errorf("a dataset written again at %s has the identity of the first", dir)
	}
	part := filepath.Join(dir, PartFile(1, 2))
	f, err := os.OpenFile(part, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{0})
	f.Close()
	if id() == b {
		t.Errorf("a part file changed in size does not change the identity")
	}
}
