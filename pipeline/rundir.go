package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/replay"
)

// RunMarker marks OUT as a directory that revisit run writes into. run
// writes only into a new directory, an empty one, or one that carries this
// marker, and inside it replaces only the stage directories that are its
// own (atomicdir.CheckReplaceable: every entry in them one that revisit
// wrote): it never removes or overwrites a path that revisit did not
// create. One run at a time writes OUT: the lock .OUT.lock beside it is
// held for the whole run.
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
		return tables.ResultsMarker(sub)
	}
}

// RunDir is OUT while run writes it.
type RunDir struct {
	path    string
	created bool   // OUT did not exist before this run
	unlock  func() // releases the lock of OUT
}

// Sub is the path of the stage directory name under OUT.
func (d *RunDir) Sub(name string) string { return filepath.Join(d.path, name) }

// OpenRunDir takes the lock of out (another run or revisit command
// writing it: atomicdir.ErrBusy), checks, before any work, that run may
// write into out, then creates it if needed and marks it. Refusals are
// *UsageError (exit 2). Close releases the lock.
func OpenRunDir(out string) (*RunDir, error) {
	out = filepath.Clean(out)
	unlock, err := atomicdir.Lock(out, "run output")
	if err != nil {
		var re *atomicdir.RefusedError
		if errors.As(err, &re) {
			return nil, usagef("run: %w", err)
		}
		return nil, fmt.Errorf("run: %w", err)
	}
	d := &RunDir{path: out, unlock: unlock}
	if err := d.check(); err != nil {
		unlock()
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		unlock()
		return nil, fmt.Errorf("run: %w", err)
	}
	msg := atomicdir.MarkerText + " run; the stage directories here (dataset, ingest, replay, analysis, nhpp, staleness, policies, report) are replaced by the next run written here\n"
	if err := os.WriteFile(d.Sub(RunMarker), []byte(msg), 0o644); err != nil {
		d.Close(false)
		return nil, fmt.Errorf("run: %w", err)
	}
	return d, nil
}

// check is OpenRunDir's refusal of an OUT that run may not write.
func (d *RunDir) check() error {
	out := d.path
	st, err := os.Lstat(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		d.created = true
		return nil
	case err != nil:
		return fmt.Errorf("run: %w", err)
	case !st.IsDir():
		return usagef("run: -o %s exists and is not a directory; choose another path", out)
	}
	if _, err := os.Lstat(d.Sub(RunMarker)); err == nil && !atomicdir.IsMarker(d.Sub(RunMarker)) {
		return usagef("run: -o %s holds a %s that revisit did not write; refusing to write into it: choose a new or empty directory", out, RunMarker)
	}
	if !atomicdir.IsMarker(d.Sub(RunMarker)) &&
		!atomicdir.IsMarker(filepath.Join(out, "dataset", dataset.ManifestFile)) { // a run from before the marker
		ents, err := os.ReadDir(out)
		if err != nil {
			return fmt.Errorf("run: %w", err)
		}
		if len(ents) > 0 {
			return usagef("run: -o %s is not empty and was not written by revisit run (no %s in it); refusing to write into it: choose a new or empty directory", out, RunMarker)
		}
	}
	// Another revisit process writing inside OUT (ingest -o OUT/dataset,
	// a report under OUT): one lock for the whole output.
	if err := atomicdir.CheckBusy(out, "run output"); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	var refused []error // every stage's, so that one message lists all
	for _, sub := range append([]string{"dataset"}, stageDirs[:]...) {
		if err := atomicdir.CheckReplaceable(d.Sub(sub), stageMarker(sub), sub); err != nil {
			refused = append(refused, err)
		}
	}
	if len(refused) > 0 {
		return usagef("run: %w", errors.Join(refused...))
	}
	return nil
}

// RemoveStage removes the stage directory name under OUT if an earlier
// run wrote it and nobody added or changed anything in it since
// (atomicdir.CheckReplaceable). An empty directory is left for the stage
// to replace; anything else is refused.
func (d *RunDir) RemoveStage(name string) error {
	p := d.Sub(name)
	if err := atomicdir.CheckReplaceable(p, stageMarker(name), name); err != nil {
		return usagef("run: not removing the earlier run's %s: %w", name, err)
	}
	st, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if ents, err := os.ReadDir(p); err == nil && len(ents) == 0 && st.IsDir() {
		return nil
	}
	if err := os.RemoveAll(p); err != nil {
		return fmt.Errorf("run: removing the earlier run's %s: %w", p, err)
	}
	return nil
}

// Close ends the run (ok: it succeeded) and releases the lock of OUT. After a failure, OUT is taken back to what it was
// when that leaves nothing of this run in it: a directory this run created
// is removed, a directory that was empty is emptied of the marker.
func (d *RunDir) Close(ok bool) {
	defer d.unlock()
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

// DatasetInput returns the directory of the dataset when run's inputs are
// one directory that holds a revisit dataset (its manifest.json, whose
// "tool" is "revisit"), and "" when the inputs are files to ingest. Run
// then skips ingest and reads that dataset where it is: it is neither
// copied nor modified. A dataset among other inputs, or two datasets, are
// refused (*UsageError).
func DatasetInput(inputs []string) (string, error) {
	var ds []string
	for _, in := range inputs {
		if st, err := os.Stat(in); err == nil && st.IsDir() && atomicdir.IsMarker(filepath.Join(in, dataset.ManifestFile)) {
			ds = append(ds, in)
		}
	}
	switch {
	case len(ds) == 0:
		return "", nil
	case len(inputs) > 1:
		return "", usagef("run: %s is a revisit dataset: give it as the only input (run then skips ingest), or give only files to ingest", ds[0])
	}
	return filepath.Clean(ds[0]), nil
}

// checkDatasetOutside refuses a dataset input that run could change by
// writing out: out inside the dataset, or the dataset inside one of out's
// stage directories (which run replaces). out/dataset itself is fine: run
// then uses the dataset an earlier run ingested, and keeps it.
func checkDatasetOutside(ds, out string) error {
	a, err := filepath.Abs(ds)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	o, err := filepath.Abs(out)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if a, err = atomicdir.EvalExisting(a); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if o, err = atomicdir.EvalExisting(o); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if atomicdir.Within(o, a) {
		return usagef("run: -o %s is inside the dataset %s given as input; run does not write into its input: choose another -o", out, ds)
	}
	if atomicdir.Within(a, o) && a != filepath.Join(o, "dataset") {
		return usagef("run: the dataset %s is inside -o %s, whose directories run replaces; give a dataset outside it (or %s)", ds, out, filepath.Join(out, "dataset"))
	}
	return nil
}

// givenDataset is run's first stage for a dataset input ds: the dataset
// an earlier run ingested at out/dataset is removed (as ingest would
// replace it) unless it is ds itself, and the ingest summary is that of
// ds's manifest.
func givenDataset(ds string, out *RunDir) (*ingest.Summary, error) {
	r, err := dataset.Open(ds)
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	if !sameDir(ds, out.Sub("dataset")) {
		if err := out.RemoveStage("dataset"); err != nil {
			return nil, err
		}
	}
	m := r.Manifest
	sum := &ingest.Summary{Output: ds, Inputs: m.Inputs, Filters: m.Filters, Counts: m.Counts}
	for _, in := range m.Inputs {
		if in.Size > 0 {
			sum.Bytes += in.Size
		}
	}
	return sum, nil
}

// sameDir reports whether a and b are the same existing directory.
func sameDir(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}
