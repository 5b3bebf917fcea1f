// Package atomicdir writes an output directory under a temporary name
// beside its final path and renames it into place only when it is complete,
// so a failed run never leaves a half-written output where a finished one is
// expected (SPEC §1.3). It replaces an earlier output of the same kind —
// recognised by a marker file — or an empty directory, and refuses to replace
// anything else, so a typo in -o cannot destroy unrelated files.
package atomicdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Dir is an output directory being written.
type Dir struct {
	final  string
	tmp    string
	marker string
	what   string
	done   bool
}

// Create checks that final may be replaced and creates the temporary
// directory (mode 0755) beside it. marker is the file name that identifies an
// output of this kind (it must exist in the temporary directory when Commit
// is called); what names the output in error messages ("dataset",
// "replay output", …).
func Create(final, marker, what string) (*Dir, error) {
	if err := CheckReplaceable(final, marker, what); err != nil {
		return nil, err
	}
	parent := filepath.Dir(filepath.Clean(final))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, final, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(final)+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, final, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes 0700; outputs are for sharing
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("%s %s: %w", what, final, err)
	}
	return &Dir{final: final, tmp: tmp, marker: marker, what: what}, nil
}

// Path is the temporary directory to write into.
func (d *Dir) Path() string { return d.tmp }

// Final is the path the directory will have after Commit.
func (d *Dir) Final() string { return d.final }

// Commit moves the finished directory to its final path, replacing an
// earlier output there (moved aside first, deleted only once the rename
// succeeded). On error the temporary directory is removed.
func (d *Dir) Commit() error {
	if d.done {
		return fmt.Errorf("%s %s: committed or aborted already", d.what, d.final)
	}
	d.done = true
	if _, err := os.Stat(filepath.Join(d.tmp, d.marker)); err != nil {
		os.RemoveAll(d.tmp)
		return fmt.Errorf("%s %s: incomplete output (no %s)", d.what, d.final, d.marker)
	}
	if err := CheckReplaceable(d.final, d.marker, d.what); err != nil {
		os.RemoveAll(d.tmp)
		return err
	}
	old := ""
	if _, err := os.Stat(d.final); err == nil {
		old = d.tmp + ".old"
		if err := os.Rename(d.final, old); err != nil {
			os.RemoveAll(d.tmp)
			return fmt.Errorf("%s %s: moving the old output aside: %w", d.what, d.final, err)
		}
	}
	if err := os.Rename(d.tmp, d.final); err != nil {
		if old != "" {
			os.Rename(old, d.final)
		}
		os.RemoveAll(d.tmp)
		return fmt.Errorf("%s %s: %w", d.what, d.final, err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return nil
}

// Abort removes the temporary directory; the final path is untouched. It is
// safe to call after Commit (it then does nothing).
func (d *Dir) Abort() {
	if d.done {
		return
	}
	d.done = true
	os.RemoveAll(d.tmp)
}

// CheckReplaceable accepts a path that does not exist, an empty directory,
// or a directory holding marker (an earlier output of the same kind).
func CheckReplaceable(dir, marker, what string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s %s: exists and is not a directory", what, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, dir, err)
	}
	if len(ents) > 0 {
		return fmt.Errorf("%s %s: directory exists, is not empty and holds no %s; refusing to replace it (choose another path or remove it)", what, dir, marker)
	}
	return nil
}
