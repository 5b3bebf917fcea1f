// Package atomicdir writes an output directory under a temporary name
// beside its final path and swaps it into place only when it is complete,
// so a failed or killed run never leaves a half-written output where a
// finished one is expected (SPEC §1.3), and at every instant the final path
// holds one complete output (the old one or the new one).
//
// It replaces only an earlier output that revisit wrote (recognised by a
// marker file whose content says so) or an empty directory, and refuses
// anything else, so a typo in -o cannot destroy unrelated files. One writer
// at a time: a lock file .NAME.lock beside the output is held from Create to
// Commit or Abort, and a second writer of the same path fails at once with
// a clear message. Temporary directories (.NAME.tmp-DIGITS) that a killed
// run left behind are removed by the next writer of the same path.
package atomicdir

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
)

// ErrBusy is returned by Create when another process is writing the same
// output.
var ErrBusy = errors.New("another revisit process is writing this output")

// Dir is an output directory being written.
type Dir struct {
	final  string
	tmp    string
	marker string
	what   string
	lock   *lockFile
	done   bool
}

// Create takes the output's lock, checks that final may be replaced,
// removes temporary directories left by killed writers of the same path
// and creates the temporary directory (mode 0755) beside final. marker is
// the file that identifies an output of this kind (it must exist in the
// temporary directory when Commit is called, and an existing final
// directory is replaced only if it holds a marker written by revisit: see
// IsMarker); what names the output in error messages ("dataset", "replay
// output", …).
func Create(final, marker, what string) (*Dir, error) {
	final = filepath.Clean(final)
	parent, base, lock, err := lockBeside(final, ".lock", what)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Dir, error) {
		lock.release()
		return nil, err
	}
	if err := CheckReplaceable(final, marker, what); err != nil {
		return fail(err)
	}
	if err := removeStale(parent, base); err != nil {
		return fail(fmt.Errorf("%s %s: removing a temporary directory left by a killed run: %w", what, final, err))
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		return fail(fmt.Errorf("%s %s: %w", what, final, err))
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes 0700; outputs are for sharing
		os.RemoveAll(tmp)
		return fail(fmt.Errorf("%s %s: %w", what, final, err))
	}
	return &Dir{final: final, tmp: tmp, marker: marker, what: what, lock: lock}, nil
}

// Path is the temporary directory to write into.
func (d *Dir) Path() string { return d.tmp }

// Final is the path the directory will have after Commit.
func (d *Dir) Final() string { return d.final }

// Commit puts the finished directory at its final path. A new output is
// renamed into place; an earlier one is exchanged with the new one in one
// atomic step (renameat2 RENAME_EXCHANGE on Linux) and deleted afterwards,
// so a kill at any point leaves a complete output at the final path (the
// old directory, if a kill comes before it is deleted, is a stale
// temporary directory that the next writer removes). Where the exchange is
// not supported, the old output is renamed aside first and the new one in
// (a short window without an output). On error the temporary directory is
// removed. The lock is released in every case.
func (d *Dir) Commit() error {
	if d.done {
		return fmt.Errorf("%s %s: committed or aborted already", d.what, d.final)
	}
	d.done = true
	defer d.lock.release()
	if st, err := os.Lstat(filepath.Join(d.tmp, d.marker)); err != nil || !st.Mode().IsRegular() {
		os.RemoveAll(d.tmp)
		return fmt.Errorf("%s %s: incomplete output (no %s)", d.what, d.final, d.marker)
	}
	if err := CheckReplaceable(d.final, d.marker, d.what); err != nil {
		os.RemoveAll(d.tmp)
		return err
	}
	replaced, err := swap(d.tmp, d.final)
	if err != nil {
		os.RemoveAll(d.tmp)
		return fmt.Errorf("%s %s: %w", d.what, d.final, err)
	}
	if replaced {
		// d.tmp now holds the earlier output, which CheckReplaceable
		// found to be revisit's (or empty).
		os.RemoveAll(d.tmp)
	}
	return nil
}

// swap moves tmp to final. replaced says whether an earlier final existed;
// it is then at tmp.
func swap(tmp, final string) (replaced bool, err error) {
	if _, err := os.Lstat(final); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(tmp, final); err != nil {
			return false, err
		}
		return false, nil
	}
	if err := exchange(tmp, final); err == nil {
		return true, nil
	} else if !errors.Is(err, errors.ErrUnsupported) {
		return false, fmt.Errorf("replacing the earlier output: %w", err)
	}
	// No atomic exchange here: move the old output aside, then the new one in.
	old := tmp + ".old"
	if err := os.Rename(final, old); err != nil {
		return false, fmt.Errorf("moving the earlier output aside: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		os.Rename(old, final)
		return false, err
	}
	if err := os.Rename(old, tmp); err != nil { // so that the caller removes it
		os.RemoveAll(old)
	}
	return true, nil
}

// Abort removes the temporary directory and releases the lock; the final
// path is untouched. It is safe to call after Commit (it then does nothing).
func (d *Dir) Abort() {
	if d.done {
		return
	}
	d.done = true
	os.RemoveAll(d.tmp)
	d.lock.release()
}

// CheckReplaceable accepts a path that does not exist, an empty directory,
// or a directory holding marker as written by revisit (IsMarker): an
// earlier output that may be replaced. Anything else is refused.
func CheckReplaceable(dir, marker, what string) error {
	st, err := os.Lstat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s %s: exists and is not a directory; refusing to replace it (choose another path)", what, dir)
	}
	if IsMarker(filepath.Join(dir, marker)) {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, dir, err)
	}
	if len(ents) > 0 {
		return fmt.Errorf("%s %s: directory exists, is not empty and is not a %s written by revisit (no revisit %s in it); refusing to replace it (choose another path or remove it)", what, dir, what, marker)
	}
	return nil
}

// maxMarker bounds how much of a marker file IsMarker reads.
const maxMarker = 16 << 20

// IsMarker reports whether path is a regular file written by revisit as
// the marker of an output: a JSON object with "tool": "revisit" (a
// dataset's manifest.json, replay.json) or a text starting with "written
// by revisit". A user's own file of the same name is not a marker.
func IsMarker(path string) bool {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxMarker))
	if err != nil {
		return false
	}
	if bytes.HasPrefix(b, []byte(MarkerText)) {
		return true
	}
	var m struct {
		Tool string `json:"tool"`
	}
	return json.Unmarshal(b, &m) == nil && m.Tool == "revisit"
}

// MarkerText starts the text of every plain-text marker file.
const MarkerText = "written by revisit"

// removeStale removes the temporary directories .BASE.tmp-DIGITS (and
// .BASE.tmp-DIGITS.old) in parent: with the lock held no live writer owns
// one, so they are what killed runs left. Nothing else is touched, and
// symbolic links are never followed.
func removeStale(parent, base string) error {
	return removeMatching(parent, `^\.`+regexp.QuoteMeta(base)+`\.tmp-[0-9]+(\.old)?$`)
}

// removeMatching removes the directories in parent whose names match the
// regular expression pattern, never following a symbolic link.
func removeMatching(parent, pattern string) error {
	re := regexp.MustCompile(pattern)
	ents, err := os.ReadDir(parent)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if !e.IsDir() || !re.MatchString(e.Name()) { // IsDir is false for a symlink
			continue
		}
		if err := os.RemoveAll(filepath.Join(parent, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// Scratch creates a working directory .NAME.KIND-DIGITS beside final for a
// job that needs room until its output is made (ingest --jobs keeps the
// datasets of its child processes there). It holds the lock .NAME.KIND.lock
// while the directory is in use, so a second job of the same kind for the
// same path fails at once (ErrBusy), and removes, under that lock, the
// scratch directories of the same kind that killed jobs left (no live job
// owns one). done removes the directory and releases the lock. kind must be
// a lower-case word other than "tmp" (Create's temporary directories).
func Scratch(final, kind, what string) (dir string, done func(), err error) {
	final = filepath.Clean(final)
	parent, base, lock, err := lockBeside(final, "."+kind+".lock", what)
	if err != nil {
		return "", nil, err
	}
	if err := removeMatching(parent, `^\.`+regexp.QuoteMeta(base)+`\.`+regexp.QuoteMeta(kind)+`-[0-9]+$`); err != nil {
		lock.release()
		return "", nil, fmt.Errorf("%s %s: removing a working directory left by a killed run: %w", what, final, err)
	}
	dir, err = os.MkdirTemp(parent, "."+base+"."+kind+"-")
	if err != nil {
		lock.release()
		return "", nil, fmt.Errorf("%s %s: %w", what, final, err)
	}
	return dir, func() { os.RemoveAll(dir); lock.release() }, nil
}

// lockBeside makes the parent of final (a clean path) and takes the lock
// file .BASE+suffix in it, BASE being final's last element; another
// process holding it gives ErrBusy, worded for the user.
func lockBeside(final, suffix, what string) (parent, base string, lock *lockFile, err error) {
	parent, base = filepath.Dir(final), filepath.Base(final)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", "", nil, fmt.Errorf("%s %s: %w", what, final, err)
	}
	lock, err = acquire(filepath.Join(parent, "."+base+suffix))
	if err != nil {
		if errors.Is(err, ErrBusy) {
			return "", "", nil, fmt.Errorf("%s %s: %w (wait for it to finish, or choose another path)", what, final, ErrBusy)
		}
		return "", "", nil, fmt.Errorf("%s %s: lock: %w", what, final, err)
	}
	return parent, base, lock, nil
}
