package analysis

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// markerPrefix names the file that marks a results directory as written
// by revisit: ".revisit-" + kind ("analysis", "policies").
const markerPrefix = ".revisit-"

// WriteResults makes the results directory dir atomically: fill writes
// everything into a fresh temporary directory beside dir, a marker file
// (.revisit-KIND) is added, and the directory is renamed into place only
// when fill succeeded, so a failed or interrupted run leaves no
// half-written results where finished ones are expected (an earlier
// results directory stays as it was). An existing dir is replaced when it
// is empty, carries the marker of the same kind, or holds only the
// entries legacy names (results written before the marker existed);
// anything else is refused, so a typo in -o cannot destroy unrelated
// files. Like dataset.Create and reports.Write.
func WriteResults(dir, kind string, legacy []string, fill func(tmp string) error) (err error) {
	dir = filepath.Clean(dir)
	if err := checkResultsDir(dir, kind, legacy); err != nil {
		return err
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("%s %s: %w", kind, dir, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return fmt.Errorf("%s %s: %w", kind, dir, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes 0700; results are for sharing
		return fmt.Errorf("%s %s: %w", kind, dir, err)
	}
	if err := fill(tmp); err != nil {
		return err
	}
	msg := fmt.Sprintf("written by revisit %s; this directory is replaced by the next %s results written here\n", kind, kind)
	if err := os.WriteFile(filepath.Join(tmp, markerPrefix+kind), []byte(msg), 0o644); err != nil {
		return fmt.Errorf("%s %s: %w", kind, dir, err)
	}
	return replaceResultsDir(tmp, dir, kind, legacy)
}

// CheckResults reports whether WriteResults could replace dir (see there),
// so that a command can refuse a wrong -o before its long computation.
func CheckResults(dir, kind string, legacy []string) error {
	return checkResultsDir(filepath.Clean(dir), kind, legacy)
}

// checkResultsDir refuses a dir that exists and is a file, or a non-empty
// directory that is neither marked as kind's results nor legacy results.
func checkResultsDir(dir, kind string, legacy []string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s: %s exists and is not a directory", kind, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, markerPrefix+kind)); err == nil {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	if len(ents) == 0 {
		return nil
	}
	if len(legacy) > 0 {
		known := map[string]bool{}
		for _, l := range legacy {
			known[l] = true
		}
		all := true
		for _, e := range ents {
			all = all && known[e.Name()]
		}
		if all {
			return nil
		}
	}
	return fmt.Errorf("%s: %s exists, is not empty and holds no %s results (no %s file); refusing to replace it (choose another -o)", kind, dir, kind, markerPrefix+kind)
}

// replaceResultsDir renames tmp to dir, moving an existing dir out of the
// way first and removing it once the new one is in place.
func replaceResultsDir(tmp, dir, kind string, legacy []string) error {
	if err := checkResultsDir(dir, kind, legacy); err != nil { // again: dir may have appeared meanwhile
		return err
	}
	old := ""
	if _, err := os.Stat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("%s: moving the previous results %s aside: %w", kind, dir, err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		return fmt.Errorf("%s %s: %w", kind, dir, err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return nil
}
