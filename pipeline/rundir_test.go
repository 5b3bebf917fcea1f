package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/atomicdir"
)

func mustWrite(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, p, want string) {
	t.Helper()
	if b, err := os.ReadFile(p); err != nil || string(b) != want {
		t.Errorf("%s: %q, %v; want %q", p, b, err, want)
	}
}

// OpenRunDir refuses a non-empty directory run did not write, and a run's
// directory whose stage directory is the user's own, as usage errors,
// touching nothing.
func TestOpenRunDirRefuses(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user")
	mustWrite(t, filepath.Join(user, "analysis", "thesis.tex"), "draft")
	var ue *UsageError
	if _, err := OpenRunDir(user); !errors.As(err, &ue) {
		t.Errorf("user directory: %v, want a usage error", err)
	}
	mustRead(t, filepath.Join(user, "analysis", "thesis.tex"), "draft")
	if ents, _ := os.ReadDir(user); len(ents) != 1 {
		t.Errorf("refused OpenRunDir wrote into %s: %v", user, ents)
	}

	run := filepath.Join(dir, "run")
	mustWrite(t, filepath.Join(run, RunMarker), "written by revisit run\n")
	mustWrite(t, filepath.Join(run, "report", "index.html"), "my page")
	if _, err := OpenRunDir(run); !errors.As(err, &ue) {
		t.Errorf("run directory with a user's report/: %v, want a usage error", err)
	}
	mustRead(t, filepath.Join(run, "report", "index.html"), "my page")

	file := filepath.Join(dir, "file")
	mustWrite(t, file, "x")
	if _, err := OpenRunDir(file); !errors.As(err, &ue) {
		t.Errorf("a file as OUT: %v, want a usage error", err)
	}
}

// A failed run leaves OUT as it found it: a new OUT is removed, an empty
// one stays empty; once a stage wrote into it, OUT and its marker stay.
func TestRunDirCloseAfterFailure(t *testing.T) {
	dir := t.TempDir()
	n := filepath.Join(dir, "new")
	d, err := OpenRunDir(n)
	if err != nil {
		t.Fatal(err)
	}
	mustRead(t, filepath.Join(n, RunMarker), "written by revisit run; the stage directories here (dataset, ingest, replay, analysis, nhpp, staleness, policies, report) are replaced by the next run written here\n")
	d.Close(false)
	if _, err := os.Lstat(n); !os.IsNotExist(err) {
		t.Errorf("a failed run left %s (%v)", n, err)
	}

	e := filepath.Join(dir, "empty")
	os.Mkdir(e, 0o755)
	if d, err = OpenRunDir(e); err != nil {
		t.Fatal(err)
	}
	d.Close(false)
	if ents, err := os.ReadDir(e); err != nil || len(ents) != 0 {
		t.Errorf("empty OUT after a failed run: %v %v", ents, err)
	}

	k := filepath.Join(dir, "kept")
	if d, err = OpenRunDir(k); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(d.Sub("dataset"), "manifest.json"), "{}")
	d.Close(false)
	if _, err := os.Stat(filepath.Join(k, RunMarker)); err != nil {
		t.Errorf("OUT with a stage's output lost its marker: %v", err)
	}
}

// RemoveStage removes an earlier run's stage directory (it carries the
// stage's marker), leaves an empty one and a missing one alone, and
// refuses a directory of the user's; files beside the stages survive.
func TestRemoveStage(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	d, err := OpenRunDir(out)
	if err != nil {
		t.Fatal(err)
	}
	commitStage(t, out, "nhpp", map[string]string{"tables/x.json": "{}"})
	mustWrite(t, filepath.Join(out, "notes.txt"), "mine")
	os.Mkdir(filepath.Join(out, "staleness"), 0o755)
	mustWrite(t, filepath.Join(out, "report", "index.html"), "my page")
	if err := d.RemoveStage("nhpp"); err != nil {
		t.Errorf("nhpp: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(out, "nhpp")); !os.IsNotExist(err) {
		t.Errorf("the earlier nhpp/ survived (%v)", err)
	}
	if err := d.RemoveStage("staleness"); err != nil {
		t.Errorf("empty staleness/: %v", err)
	}
	if err := d.RemoveStage("policies"); err != nil {
		t.Errorf("missing policies/: %v", err)
	}
	if err := d.RemoveStage("report"); err == nil {
		t.Error("a user's report/ removed without an error")
	}
	mustRead(t, filepath.Join(out, "report", "index.html"), "my page")
	mustRead(t, filepath.Join(out, "notes.txt"), "mine")
	d.Close(true)
}

// commitStage writes the stage directory sub under out as the stage does
// (atomicdir, with the stage's marker) holding the files of tree.
func commitStage(t *testing.T, out, sub string, tree map[string]string) {
	t.Helper()
	d, err := atomicdir.Create(filepath.Join(out, sub), stageMarker(sub), sub)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(d.Path(), stageMarker(sub)), atomicdir.MarkerText+" "+sub+"\n")
	for p, c := range tree {
		mustWrite(t, filepath.Join(d.Path(), p), c)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
}

// A user's file inside an earlier run's stage directory keeps the whole
// stage: OpenRunDir refuses the run (a usage error naming the file) and
// RemoveStage does not remove it.
func TestUserFileInsideStageRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	d, err := OpenRunDir(out)
	if err != nil {
		t.Fatal(err)
	}
	commitStage(t, out, "report", map[string]string{"index.html": "<html>"})
	commitStage(t, out, "analysis", map[string]string{"tables/a.json": "{}"})
	mustWrite(t, filepath.Join(out, "report", "NOTES.md"), "notes")
	mustWrite(t, filepath.Join(out, "analysis", "tables", "extra.csv"), "x")
	if err := d.RemoveStage("report"); err == nil {
		t.Error("RemoveStage removed a report/ holding a user's file")
	}
	if err := d.RemoveStage("analysis"); err == nil {
		t.Error("RemoveStage removed an analysis/ holding a user's file")
	}
	d.Close(true)
	_, err = OpenRunDir(out)
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "NOTES.md") {
		t.Errorf("OpenRunDir over a stage holding a user's file: %v, want a usage error naming NOTES.md", err)
	}
	mustRead(t, filepath.Join(out, "report", "NOTES.md"), "notes")
	mustRead(t, filepath.Join(out, "analysis", "tables", "extra.csv"), "x")
}

// One run at a time writes OUT: a second OpenRunDir of the same directory
// fails with ErrBusy until the first is closed.
func TestRunDirLocked(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	d, err := OpenRunDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenRunDir(out); !errors.Is(err, atomicdir.ErrBusy) {
		t.Errorf("second OpenRunDir while the first is open: %v, want ErrBusy", err)
	}
	d.Close(true)
	d2, err := OpenRunDir(out)
	if err != nil {
		t.Fatalf("OpenRunDir after Close: %v", err)
	}
	d2.Close(true)
}
