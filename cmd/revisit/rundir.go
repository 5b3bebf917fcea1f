package main

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

// runMarker marks OUT as a directory that revisit run writes into. run
// writes only into a new directory, an empty one, or one that carries this
// marker, and inside it replaces only the stage directories that carry
// their own stage's marker: it never removes or overwrites a path that
// revisit did not create.
const runMarker = ".revisit-run"

// runSubMarker is the marker of each directory run writes under OUT.
func runSubMarker(sub string) string {
	switch sub {
	case "dataset":
		return dataset.ManifestFile
	case "replay":
		return replay.MetaFile
	default: // ingest, analysis, nhpp, staleness, policies, report
		return analysis.ResultsMarker(sub)
	}
}

// runDir is OUT while run writes it.
type runDir struct {
	path    string
	created bool // OUT did not exist before this run
}

func (d *runDir) sub(name string) string { return filepath.Join(d.path, name) }

// openRunDir checks, before any work, that run may write into out, then
// creates it if needed and marks it. Refusals are usage errors (exit 2).
func openRunDir(out string) (*runDir, error) {
	out = filepath.Clean(out)
	d := &runDir{path: out}
	st, err := os.Lstat(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		d.created = true
	case err != nil:
		return nil, fmt.Errorf("run: %w", err)
	case !st.IsDir():
		return nil, usagef("run: -o %s exists and is not a directory; choose another path", out)
	case !atomicdir.IsMarker(filepath.Join(out, runMarker)) &&
		!atomicdir.IsMarker(filepath.Join(out, "dataset", dataset.ManifestFile)): // a run from before the marker
		ents, err := os.ReadDir(out)
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		if len(ents) > 0 {
			return nil, usagef("run: -o %s is not empty and was not written by revisit run (no %s in it); refusing to write into it: choose a new or empty directory", out, runMarker)
		}
	}
	if !d.created {
		for _, sub := range append([]string{"dataset"}, runOutputs...) {
			if err := atomicdir.CheckReplaceable(d.sub(sub), runSubMarker(sub), sub); err != nil {
				return nil, usagef("run: %v", err)
			}
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	msg := atomicdir.MarkerText + " run; the stage directories here (dataset, ingest, replay, analysis, nhpp, staleness, policies, report) are replaced by the next run written here\n"
	if err := os.WriteFile(d.sub(runMarker), []byte(msg), 0o644); err != nil {
		d.close(false)
		return nil, fmt.Errorf("run: %w", err)
	}
	return d, nil
}

// removeStage removes the stage directory name under OUT if it holds the
// stage's marker (an earlier run's output). An empty directory is left for
// the stage to replace; anything else is refused.
func (d *runDir) removeStage(name string) error {
	p := d.sub(name)
	if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if !atomicdir.IsMarker(filepath.Join(p, runSubMarker(name))) {
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

// close ends the run. After a failure, OUT is taken back to what it was
// when that leaves nothing of this run in it: a directory this run created
// is removed, a directory that was empty is emptied of the marker.
func (d *runDir) close(ok bool) {
	if ok {
		return
	}
	ents, err := os.ReadDir(d.path)
	if err != nil || len(ents) != 1 || ents[0].Name() != runMarker {
		return // a stage's output is there (e.g. the dataset): keep OUT and its marker
	}
	os.Remove(d.sub(runMarker))
	if d.created {
		os.Remove(d.path) // only if empty
	}
}
