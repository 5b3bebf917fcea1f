package atomicdir

import (
	"context"
	"errors"
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
		write(t, filepath.Join(d.Path(), "marker.json"), `{"tool": "revisit", "v": "`+content+`"}`)
		if err := d.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(final, "marker.json"))
	if err != nil || string(b) != `{"tool": "revisit", "v": "second"}` {
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

func TestRefusesUserFileNamedLikeMarker(t *testing.T) {
	// A browser extension's own manifest.json is not a revisit dataset.
	dir := filepath.Join(t.TempDir(), "ext")
	os.Mkdir(dir, 0o755)
	write(t, filepath.Join(dir, "manifest.json"), `{"name": "my extension", "version": "1.0"}`)
	write(t, filepath.Join(dir, "background.js"), "precious")
	if _, err := Create(dir, "manifest.json", "dataset"); err == nil {
		t.Fatal("agreed to replace a directory whose manifest.json is not revisit's")
	}
	if _, err := os.Stat(filepath.Join(dir, "background.js")); err != nil {
		t.Fatal(err)
	}
	// The same name written by revisit is a marker, but without the entry
	// list of the output the user's file beside it still keeps it.
	write(t, filepath.Join(dir, "manifest.json"), `{"tool": "revisit", "version": "dev"}`)
	if !IsMarker(filepath.Join(dir, "manifest.json")) {
		t.Fatal("revisit's manifest is not a marker")
	}
	if _, err := Create(dir, "manifest.json", "dataset"); err == nil {
		t.Fatal("agreed to replace a directory without an entry list")
	}
	// A symbolic link named like the marker is not one.
	os.Remove(filepath.Join(dir, "manifest.json"))
	target := filepath.Join(t.TempDir(), "m")
	write(t, target, MarkerText+" test")
	os.Symlink(target, filepath.Join(dir, "manifest.json"))
	if IsMarker(filepath.Join(dir, "manifest.json")) {
		t.Fatal("a symlink counted as a marker")
	}
}

// commitContent writes an output holding marker m with content s.
func commitContent(t *testing.T, final, s string) {
	t.Helper()
	d, err := Create(final, "m", "test output")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(d.Path(), "m"), MarkerText+" "+s)
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
}

func readMarker(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "m"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The swap is the only step that changes the final path, and it leaves a
// complete output there: a kill right after it leaves the new output at
// final and the old one at the temporary name, which the next writer
// removes.
func TestSwapLeavesOneCompleteOutput(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "out")
	commitContent(t, final, "old")

	tmp := filepath.Join(parent, ".out.tmp-123456")
	os.Mkdir(tmp, 0o755)
	write(t, filepath.Join(tmp, "m"), MarkerText+" new")
	if _, err := writeEntries(context.Background(), tmp, "m", nil); err != nil {
		t.Fatal(err)
	}
	replaced, err := swap(tmp, final)
	if err != nil || !replaced {
		t.Fatalf("swap: %v %v", replaced, err)
	}
	if got := readMarker(t, final); got != MarkerText+" new" {
		t.Fatalf("final holds %q after the swap", got)
	}
	if got := readMarker(t, tmp); got != MarkerText+" old" {
		t.Fatalf("temporary name holds %q after the swap", got)
	}
	// "Killed" here: the old output was never removed. The next writer
	// cleans it up and the final output stays complete throughout.
	commitContent(t, final, "newer")
	if got := readMarker(t, final); got != MarkerText+" newer" {
		t.Fatalf("got %q", got)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		t.Fatalf("left behind: %v", ents)
	}
}

func TestConcurrentWriterFailsClearly(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "out")
	d1, err := Create(final, "m", "test output")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Create(final, "m", "test output"); !errors.Is(err, ErrBusy) {
		t.Fatalf("second writer: %v, want ErrBusy", err)
	}
	// The first writer's temporary directory survived the second's attempt.
	if _, err := os.Stat(d1.Path()); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(d1.Path(), "m"), MarkerText+" one")
	if err := d1.Commit(); err != nil {
		t.Fatal(err)
	}
	// Once the first is done the lock is free and its file gone.
	commitContent(t, final, "two")
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		t.Fatalf("left behind: %v", ents)
	}
	// Another output in the same parent is not blocked.
	d2, _ := Create(final, "m", "test output")
	d3, err := Create(filepath.Join(parent, "other"), "m", "test output")
	if err != nil {
		t.Fatal(err)
	}
	d2.Abort()
	d3.Abort()
}

func TestStaleTemporaryDirectoriesRemovedOnlyOurs(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "out")
	keep := []string{".out.tmp-abc", ".other.tmp-1", "out.tmp-1", ".out.tmp-1.bak"}
	stale := []string{".out.tmp-42", ".out.tmp-7.old"}
	keep, target := staleFixture(t, parent, keep, stale, ".out.tmp-99")

	commitContent(t, final, "x")
	checkStaleRemoved(t, parent, keep, stale, target)
}

// staleFixture makes in parent a directory (holding a file f) for each
// name in keep and stale, and a symlink named link to another directory
// (holding f = "precious"): a symlink with a stale name is left alone, and
// so is its target. It returns keep with link added, and the target.
func staleFixture(t *testing.T, parent string, keep, stale []string, link string) ([]string, string) {
	t.Helper()
	for _, n := range append(append([]string{}, keep...), stale...) {
		os.Mkdir(filepath.Join(parent, n), 0o755)
		write(t, filepath.Join(parent, n, "f"), "x")
	}
	target := t.TempDir()
	write(t, filepath.Join(target, "f"), "precious")
	os.Symlink(target, filepath.Join(parent, link))
	return append(keep, link), target
}

// checkStaleRemoved checks that every name in keep is still in parent,
// none in stale is, and the symlink's target still holds its file.
func checkStaleRemoved(t *testing.T, parent string, keep, stale []string, target string) {
	t.Helper()
	for _, n := range keep {
		if _, err := os.Lstat(filepath.Join(parent, n)); err != nil {
			t.Errorf("%s removed: %v", n, err)
		}
	}
	for _, n := range stale {
		if _, err := os.Lstat(filepath.Join(parent, n)); err == nil {
			t.Errorf("%s not removed", n)
		}
	}
	if _, err := os.Stat(filepath.Join(target, "f")); err != nil {
		t.Fatal(err)
	}
}

// Scratch: a second job of the same kind and path is busy; under the lock
// the scratch directories killed jobs left (.NAME.KIND-DIGITS) are removed,
// nothing else (other names, other paths, a symlink and its target); done
// removes the directory and the lock file.
func TestScratch(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "out")
	keep := []string{".out.jobs-abc", ".other.jobs-1", ".out.tmp-x", "out.jobs-1"}
	stale := []string{".out.jobs-42", ".out.jobs-7"}
	keep, target := staleFixture(t, parent, keep, stale, ".out.jobs-99")

	dir, done, err := Scratch(final, "jobs", "dataset")
	if err != nil {
		t.Fatal(err)
	}
	checkStaleRemoved(t, parent, keep, stale, target)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Fatalf("scratch directory %s: %v", dir, err)
	}
	if _, _, err := Scratch(final, "jobs", "dataset"); !errors.Is(err, ErrBusy) {
		t.Errorf("second Scratch of the same path while the first holds it: %v, want ErrBusy", err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("the busy attempt removed the live scratch directory: %v", err)
	}
	done()
	for _, p := range []string{dir, filepath.Join(parent, ".out.jobs.lock")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s left after done", p)
		}
	}
}

// The parents Create, Lock and MkdirParents make for a new nested path
// are removed when nothing was put there (Abort, a released lock, undo),
// and kept once the output is in place; a parent that existed is never
// removed.
func TestMadeParents(t *testing.T) {
	base := t.TempDir()
	d, err := Create(filepath.Join(base, "new", "a", "b"), "", "output")
	if err != nil {
		t.Fatal(err)
	}
	d.Abort()
	if _, err := os.Lstat(filepath.Join(base, "new")); !os.IsNotExist(err) {
		t.Errorf("Abort left %s/new (%v)", base, err)
	}
	release, err := Lock(filepath.Join(base, "new", "run"), "run output")
	if err != nil {
		t.Fatal(err)
	}
	release()
	if _, err := os.Lstat(filepath.Join(base, "new")); !os.IsNotExist(err) {
		t.Errorf("releasing the lock left %s/new (%v)", base, err)
	}
	undo, err := MkdirParents(filepath.Join(base, "new", "c"))
	if err != nil {
		t.Fatal(err)
	}
	undo()
	if _, err := os.Lstat(filepath.Join(base, "new")); !os.IsNotExist(err) {
		t.Errorf("undo left %s/new (%v)", base, err)
	}
	d, err = Create(filepath.Join(base, "new", "a", "b"), "", "output")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(d.Path(), "x"), []byte("x"), 0o644)
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(base, "new", "a", "b", "x")); err != nil {
		t.Errorf("committed output: %v", err)
	}
	d, err = Create(filepath.Join(base, "new", "a", "c"), "", "output") // new/a exists now
	if err != nil {
		t.Fatal(err)
	}
	d.Abort()
	if es, err := os.ReadDir(filepath.Join(base, "new", "a")); err != nil || len(es) != 1 || es[0].Name() != "b" {
		t.Errorf("new/a after an aborted sibling: %v %v", es, err)
	}
}

// An output created with a context that is done by the time of Commit
// (Ctrl-C during the work) is not put in place, however complete it is:
// the earlier output stays, and the temporary directory and lock go.
func TestCommitAfterCancelWritesNothing(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "out")
	commitContent(t, final, "old")
	ctx, cancel := context.WithCancel(context.Background())
	d, err := CreateContext(ctx, final, "m", "test output")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(d.Path(), "m"), MarkerText+" new")
	cancel()
	if err := d.Commit(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Commit after cancel: %v, want context.Canceled", err)
	}
	if got := readMarker(t, final); got != MarkerText+" old" {
		t.Errorf("final holds %q", got)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}
