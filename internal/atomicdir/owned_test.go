package atomicdir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// commitTree writes an output at final holding marker "m" and the files
// of tree (relative path → content).
func commitTree(t *testing.T, final string, tree map[string]string) {
	t.Helper()
	d, err := Create(final, "m", "test output")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(d.Path(), "m"), MarkerText+" test")
	for p, s := range tree {
		os.MkdirAll(filepath.Dir(filepath.Join(d.Path(), p)), 0o755)
		write(t, filepath.Join(d.Path(), p), s)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
}

// A user's file anywhere inside an earlier output, or a file of the output
// the user changed, makes the output the user's: it is refused, with the
// entries named, and nothing is removed.
func TestUserFilesInsideEarlierOutputRefused(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "out")
	tree := map[string]string{"report/index.html": "<html>", "data/a.csv": "1,2\n"}
	commitTree(t, final, tree)
	// Unchanged, it is replaced.
	commitTree(t, final, tree)

	for _, c := range []struct{ name, path, content string }{
		{"new file at the top", "NOTES.md", "notes"},
		{"new file in a subdirectory", "report/NOTES.md", "notes"},
		{"new directory", "mine/x", "x"},
		{"changed file", "data/a.csv", "1,2,3\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			commitTree(t, final, tree)
			p := filepath.Join(final, c.path)
			os.MkdirAll(filepath.Dir(p), 0o755)
			write(t, p, c.content)
			_, err := Create(final, "m", "test output")
			var re *RefusedError
			if !errors.As(err, &re) {
				t.Fatalf("Create over an output with %s: %v, want a *RefusedError", c.path, err)
			}
			first := c.path
			if c.name == "new directory" {
				first = "mine"
			}
			if !strings.Contains(err.Error(), first) {
				t.Errorf("the message does not name %s: %v", first, err)
			}
			if b, err := os.ReadFile(p); err != nil || string(b) != c.content {
				t.Errorf("%s: %q %v", p, b, err)
			}
			if err := CheckReplaceable(final, "m", "test output"); !errors.As(err, &re) {
				t.Errorf("CheckReplaceable: %v", err)
			}
			os.Remove(p)
			if c.name == "new directory" {
				os.Remove(filepath.Dir(p))
			}
			if c.name == "changed file" {
				write(t, p, "1,2\n")
			}
		})
	}
}

// The marker is revisit's only with the exact key "tool" (Go's json
// matches keys case-insensitively) and the exact text prefix.
func TestMarkerExact(t *testing.T) {
	dir := t.TempDir()
	for s, want := range map[string]bool{
		`{"TOOL":"revisit"}`:              false,
		`{"Tool":"revisit"}`:              false,
		`{"tool":"Revisit"}`:              false,
		`{"tool":"revisit"}`:              true,
		`{"other":1,"tool":"revisit"}`:    true,
		"WRITTEN BY REVISIT run\n":        false,
		" written by revisit run\n":       false,
		MarkerText + " run\n":             true,
		`["tool","revisit"]`:              false,
		`{"tool":["revisit"]}`:            false,
		`{"tool":"revisit"} trailing`:     false,
		`{"tool":"revisit", "tool": "x"}`: false,
	} {
		p := filepath.Join(dir, "m")
		write(t, p, s)
		if got := IsMarker(p); got != want {
			t.Errorf("IsMarker(%q) = %v, want %v", s, got, want)
		}
	}
}

// A directory holding only a manifest.json with "TOOL": "revisit" is not
// an output of revisit's and is never replaced.
func TestCaseInsensitiveManifestRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	os.Mkdir(dir, 0o755)
	write(t, filepath.Join(dir, "manifest.json"), `{"TOOL":"revisit"}`)
	write(t, filepath.Join(dir, "keep.txt"), "mine")
	if _, err := Create(dir, "manifest.json", "dataset"); err == nil {
		t.Fatal("replaced a directory with a case-folded manifest")
	}
	if _, err := os.Stat(filepath.Join(dir, "keep.txt")); err != nil {
		t.Fatal(err)
	}
}

// An output of an earlier revisit version (a marker, no entry list) is
// refused with a message that says how to remove it by hand.
func TestLegacyOutputRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "old")
	os.Mkdir(dir, 0o755)
	write(t, filepath.Join(dir, "m"), MarkerText+" old")
	write(t, filepath.Join(dir, "data.csv"), "x")
	_, err := Create(dir, "m", "test output")
	var re *RefusedError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "earlier revisit version") {
		t.Fatalf("legacy output: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "data.csv")); err != nil {
		t.Fatal(err)
	}
}

// An output of another kind (another marker) is not replaced.
func TestOtherKindRefused(t *testing.T) {
	final := filepath.Join(t.TempDir(), "out")
	commitTree(t, final, nil)
	if _, err := Create(final, "manifest.json", "dataset"); err == nil {
		t.Fatal("a dataset replaced another kind of output")
	}
}

// -o . in an empty directory: the lock and temporary directory go beside
// it, not into it, and the output fills it in place (the working
// directory stays the same directory).
func TestCreateDotInEmptyDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "here")
	os.Mkdir(dir, 0o755)
	t.Chdir(dir)
	before, _ := os.Stat(".")
	d, err := Create(".", "m", "test output")
	if err != nil {
		t.Fatalf("Create(.) in an empty directory: %v", err)
	}
	write(t, filepath.Join(d.Path(), "m"), MarkerText+" dot")
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(dir)
	if err != nil || !os.SameFile(before, after) {
		t.Fatalf("the directory was replaced, not filled: %v", err)
	}
	if got := readMarker(t, "."); got != MarkerText+" dot" {
		t.Fatalf("got %q", got)
	}
	// And again over its own output.
	d, err = Create(".", "m", "test output")
	if err != nil {
		t.Fatalf("Create(.) over its own output: %v", err)
	}
	write(t, filepath.Join(d.Path(), "m"), MarkerText+" dot2")
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readMarker(t, dir); got != MarkerText+" dot2" {
		t.Fatalf("got %q", got)
	}
	if ents, _ := os.ReadDir(filepath.Dir(dir)); len(ents) != 1 {
		t.Fatalf("left beside: %v", ents)
	}
}

// A lock path revisit did not create is neither used nor removed: a
// user's file named .NAME.lock, a symlink (dangling or not) named so.
func TestForeignLockPathRefused(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "out")
	lock := filepath.Join(parent, ".out.lock")

	write(t, lock, "my lock notes")
	_, err := Create(final, "m", "test output")
	var re *RefusedError
	if !errors.As(err, &re) {
		t.Errorf("user's .out.lock: %v, want a *RefusedError", err)
	}
	if b, err := os.ReadFile(lock); err != nil || string(b) != "my lock notes" {
		t.Errorf("user's lock file: %q %v", b, err)
	}
	os.Remove(lock)

	outside := filepath.Join(t.TempDir(), "target")
	os.Symlink(outside, lock)
	if _, err := Create(final, "m", "test output"); !errors.As(err, &re) {
		t.Errorf("dangling .out.lock symlink: %v, want a *RefusedError", err)
	}
	if _, err := os.Lstat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the symlink's target was created: %v", err)
	}
	if _, err := os.Lstat(lock); err != nil {
		t.Errorf("the symlink was removed: %v", err)
	}
	os.Remove(lock)

	// A lock left by a killed revisit (its own content, nobody holding
	// it) is taken over.
	write(t, lock, lockText+"out\n")
	d, err := Create(final, "m", "test output")
	if err != nil {
		t.Fatalf("stale revisit lock: %v", err)
	}
	d.Abort()
	if _, err := os.Lstat(lock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock left after Abort: %v", err)
	}
}

// Lock holds a path for a whole job (run's OUT): a second holder is busy,
// an atomicdir.Create of the same path too.
func TestLock(t *testing.T) {
	final := filepath.Join(t.TempDir(), "out")
	release, err := Lock(final, "run output")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(final, "run output"); !errors.Is(err, ErrBusy) {
		t.Errorf("second Lock: %v, want ErrBusy", err)
	}
	if _, err := Create(final, "m", "test output"); !errors.Is(err, ErrBusy) {
		t.Errorf("Create under Lock: %v, want ErrBusy", err)
	}
	release()
	r2, err := Lock(final, "run output")
	if err != nil {
		t.Fatal(err)
	}
	r2()
}

// An output without a kind marker (marker "") is recognised by its entry
// list alone.
func TestNoMarkerOutput(t *testing.T) {
	final := filepath.Join(t.TempDir(), "out")
	for i := 0; i < 2; i++ {
		d, err := Create(final, "", "yelp output")
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(d.Path(), "a.json"), "{}")
		if err := d.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(final, "b.json"), "{}")
	if _, err := Create(final, "", "yelp output"); err == nil {
		t.Fatal("replaced an output holding a user's file")
	}
}

// Many writers racing for one lock: never two holders at once, and none
// sees a freshly created lock as a user's file (it is created, locked and
// filled by its creator while the others look at it).
func TestLockRace(t *testing.T) {
	final := filepath.Join(t.TempDir(), "out")
	var holders, got atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				release, err := Lock(final, "test output")
				if errors.Is(err, ErrBusy) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				if holders.Add(1) != 1 {
					t.Error("two holders of one lock")
				}
				got.Add(1)
				holders.Add(-1)
				release()
			}
		}()
	}
	wg.Wait()
	if got.Load() == 0 {
		t.Error("nobody got the lock")
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(final), ".out.lock")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left: %v", err)
	}
}
