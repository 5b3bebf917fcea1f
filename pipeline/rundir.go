package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/replay"
)

// RunMarker marks OUT as a directory that revisit run writes into. run
// writes only into a new directory, an empty one, or one that carries this
// marker, and inside it replaces only the stage directories that carry
// their own stage's marker: it never removes or overwrites a path that
// revisit did not create.
const RunMarker = ".revisit-run"

// stageDirs are the directories run writes under OUT after the dataset.
var stageDirs = [...]string{"ingest", "replay", "analysis", "nhpp", "staleness", "policies", "report"}

// stageMarker is the marker of each directory run writes under OUT.
func stageMarker(sub string) string {
	switch sub {
	case "dataset":
		return dataset.ManifestFile
	case "replay":
		return replay.MetaFile
	default: // ingest, analysis, nhpp, staleness, policies, report
		return analysis.ResultsMarker(sub)
	}
}

// RunDir is OUT while run writes it.
type RunDir struct {
	path    string
	created bool // OUT did not exist before this run
}

// Sub is the path of the stage directory name under OUT.
func (d *RunDir) Sub(name string) string { return filepath.Join(d.path, name) }

// OpenRunDir checks, before any work, that run may write into out, then
// creates it if needed and marks it. Refusals are *UsageError (exit 2).
func OpenRunDir(out string) (*RunDir, error) {
	out = filepath.Clean(out)
	d := &RunDir{path: out}
	st, err := os.Lstat(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		d.created = true
	case err != nil:
		return nil, fmt.Errorf("run: %w", err)
	case !st.IsDir():
		return nil, usagef("run: -o %s exists and is not a directory; choose another path", out)
	case !atomicdir.IsMarker(filepath.Join(out, RunMarker)) &&
		!atomicdir.IsMarker(filepath.Join(out, "dataset", dataset.ManifestFile)): // a run from before the marker
		ents, err := os.ReadDir(out)
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		if len(ents) > 0 {
			return nil, usagef("run: -o %s is not empty and was not written by revisit run (no %s in it); refusing to write into it: choose a new or empty directory", out, RunMarker)
		}
	}
	if !d.created {
		for _, sub := range append([]string{"dataset"}, stageDirs[:]...) {
			if err := atomicdir.CheckReplaceable(d.Sub(sub), stageMarker(sub), sub); err != nil {
				return nil, usagef("run: %v", err)
			}
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	msg := atomicdir.MarkerText + " run; the stage directories here (dataset, ingest, replay, analysis, nhpp, staleness, policies, report) are replaced by the next run written here\n"
	if err := os.WriteFile(d.Sub(RunMarker), []byte(msg), 0o644); err != nil {
		d.Close(false)
		return nil, fmt.Errorf("run: %w", err)
	}
	return d, nil
}

// RemoveStage removes the stage directory name under OUT if it holds the
// stage's marker (an earlier run's output). An empty directory is left for
// the stage to replace; anything else is refused.
func (d *RunDir) RemoveStage(name string) error {
	p := d.Sub(name)
	if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if !atomicdir.IsMarker(filepath.Join(p, stageMarker(name))) {
		if ents, err := os.ReadDir(p); err == nil && len(ents) == 0 {
			return nil
		}
		return fmt.Errorf("run: %s is not a %s written by revisit; not removing it", p, name)
	}
	if err := os.RemoveAll(p); err != nil {
		return fmt.Errorf("run: removing the earlier run's %s: %w", p, err)
	}
	return nil
}

// Close ends the run (ok: it succeeded). After a failure, OUT is taken back to what it was
// when that leaves nothing of this run in it: a directory this run created
// is removed, a directory that was empty is emptied of the marker.
func (d *RunDir) Close(ok bool) {
	if ok {
		return
	}
	ents, err := os.ReadDir(d.path)
	if err != nil || len(ents) != 1 || ents[0].Name() != RunMarker {
		return // a stage's output is there (e.g. the dataset): keep OUT and its marker
	}
	os.Remove(d.Sub(RunMarker))
	if d.created {
		os.Remove(d.path) // only if empty
	}
}
