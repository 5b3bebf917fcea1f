// Package atomicdir writes an output directory under a temporary name
// beside its final path and swaps it into place only when it is complete,
// so a failed or killed run never leaves a half-written output where a
// finished one is expected (SPEC §1.3), and at every instant the final path
// holds one complete output (the old one or the new one).
//
// It replaces only an empty directory or an earlier output that revisit
// wrote and nobody changed since: at Commit it records every entry of the
// output (relative path, type, size) in EntriesFile, and an existing
// directory is replaced only when that list names every entry in it with
// the same type and size (and the list is of the same kind of output).
// Anything else is refused with a *RefusedError that names the foreign
// entries, so a typo in -o, or a note a user put into an earlier output,
// is never destroyed. Outputs of earlier revisit versions, which have no
// entry list, are refused too (the message says how to remove one by
// hand). One writer at a time: a lock file .NAME.lock beside the output is
// held from Create to Commit or Abort, and a second writer of the same path
// fails at once with a clear message (ErrBusy); a path named like the lock
// that revisit did not create is never followed, used or removed.
// Temporary directories (.NAME.tmp-DIGITS) that a killed run left behind
// are removed by the next writer of the same path.
package atomicdir

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/revisit-dev/revisit/internal/usage"
)

// ErrBusy is returned by Create when another process is writing the same
// output.
var ErrBusy = errors.New("another revisit process is writing this output")

// RefusedError is a path revisit refuses to replace, use or remove because
// it is not (or no longer) revisit's own: a user's directory or file, an
// earlier output holding entries revisit did not write (Foreign), a path
// named like revisit's lock. It is the user's to resolve (exit code 2).
type RefusedError struct {
	Path    string   // the output (or lock) path
	What    string   // what it is to revisit ("dataset", "lock file", …)
	Reason  string   // why it is refused, worded for the user
	Foreign []string // entries (relative, /-separated) revisit did not write or that changed
}

// maxForeignShown bounds the entries a RefusedError message lists.
const maxForeignShown = 20

func (e *RefusedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s", e.What, e.Path, e.Reason)
	if len(e.Foreign) > 0 {
		b.WriteString(": ")
		for i, f := range e.Foreign {
			if i == maxForeignShown {
				fmt.Fprintf(&b, ", and %d more", len(e.Foreign)-i)
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f)
		}
		b.WriteString("; refusing to replace it (move these away first, or choose another path)")
	}
	return b.String()
}

func refused(path, what, reason string) error {
	return &RefusedError{Path: path, What: what, Reason: reason}
}

// Dir is an output directory being written.
type Dir struct {
	final  string // as given (cleaned), for messages
	abs    string // absolute final path
	tmp    string
	marker string
	what   string
	lock   *held
	ctx    context.Context // Commit commits nothing once it is done
	done   bool
	known  map[string]recorded   // files whose hash Link took from an input's list or a writer gave (Hashed), by path
	inputs map[string]*inputList // the lists Link read, by directory (nil: none usable)
}

// Create takes the output's lock, checks that final may be replaced,
// removes temporary directories left by killed writers of the same path
// and creates the temporary directory (mode 0755) beside final. marker is
// the file that identifies an output of this kind (it must exist in the
// temporary directory when Commit is called; "" for a kind without one,
// recognised by its entry list alone); what names the output in error
// messages ("dataset", "replay output", …). The lock and the temporary
// directory are beside final's absolute path, so "-o ." puts nothing into
// the directory before Commit.
func Create(final, marker, what string) (*Dir, error) {
	return CreateContext(context.Background(), final, marker, what)
}

// CreateContext is Create for work that ctx stops (Ctrl-C): once ctx is
// done, Commit puts nothing in place and returns ctx's error, so an
// interrupted command never leaves a new output behind however late the
// signal came, and the hashing of the entry list stops with it.
func CreateContext(ctx context.Context, final, marker, what string) (*Dir, error) {
	final = filepath.Clean(final)
	abs, err := absPath(final, what)
	if err != nil {
		return nil, err
	}
	parent, base, lock, err := lockBeside(abs, final, ".lock", what)
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
	return &Dir{final: final, abs: abs, tmp: tmp, marker: marker, what: what, lock: lock, ctx: ctx}, nil
}

// absPath is final made absolute; the root directory cannot be an output.
func absPath(final, what string) (string, error) {
	abs, err := filepath.Abs(final)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", what, final, err)
	}
	if filepath.Dir(abs) == abs {
		return "", refused(final, what, "is the root directory; choose another path")
	}
	return abs, nil
}

// Path is the temporary directory to write into.
func (d *Dir) Path() string { return d.tmp }

// Final is the path the directory will have after Commit.
func (d *Dir) Final() string { return d.final }

// Commit records the entries of the finished directory in EntriesFile and
// puts it at its final path. A new output is renamed into place; an
// earlier one is exchanged with the new one in one atomic step
// (renameat2 RENAME_EXCHANGE on Linux) and deleted afterwards, so a kill
// at any point leaves a complete output at the final path (the old
// directory, if a kill comes before it is deleted, is a stale temporary
// directory that the next writer removes). Where the exchange is not
// supported, the old output is renamed aside first and the new one in (a
// short window without an output). An existing empty directory is kept
// (its owner, mode, and whoever has it as working directory) and filled:
// the entry list first, the marker last. On error the temporary directory
// is removed. The lock is released in every case.
func (d *Dir) Commit() error {
	if d.done {
		return fmt.Errorf("%s %s: committed or aborted already", d.what, d.final)
	}
	d.done = true
	defer d.lock.release()
	if err := d.ctx.Err(); err != nil {
		os.RemoveAll(d.tmp)
		return err
	}
	if d.marker != "" {
		if st, err := os.Lstat(filepath.Join(d.tmp, d.marker)); err != nil || !st.Mode().IsRegular() {
			os.RemoveAll(d.tmp)
			return fmt.Errorf("%s %s: incomplete output (no %s)", d.what, d.final, d.marker)
		}
	}
	list, err := writeEntries(d.ctx, d.tmp, d.marker, d.known)
	if err != nil {
		os.RemoveAll(d.tmp)
		if d.ctx.Err() != nil {
			return d.ctx.Err()
		}
		return fmt.Errorf("%s %s: %w", d.what, d.final, err)
	}
	if err := CheckReplaceable(d.final, d.marker, d.what); err != nil {
		os.RemoveAll(d.tmp)
		return err
	}
	if err := d.ctx.Err(); err != nil { // the last moment before the output changes
		os.RemoveAll(d.tmp)
		return err
	}
	if empty, err := isEmptyDir(d.abs); err == nil && empty {
		if err := fill(d.tmp, d.abs, d.marker, list); err != nil {
			return fmt.Errorf("%s %s: %w", d.what, d.final, err)
		}
		return nil
	}
	replaced, err := swap(d.tmp, d.abs)
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

// isEmptyDir reports whether p is a directory (not a symlink) with no
// entries.
func isEmptyDir(p string) (bool, error) {
	st, err := os.Lstat(p)
	if err != nil || !st.IsDir() {
		return false, err
	}
	ents, err := os.ReadDir(p)
	return err == nil && len(ents) == 0, err
}

// fill moves the entries of tmp into the empty directory final, the entry
// list first (a kill half-way leaves an output the next writer may
// replace) and the marker last (readers see a complete output or none),
// then records the moved files' new status (restamp) and removes tmp. An
// entry that appeared in final meanwhile is not replaced.
func fill(tmp, final, marker string, list *entryList) error {
	ents, err := os.ReadDir(tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return err
	}
	names := []string{EntriesFile}
	for _, e := range ents {
		if n := e.Name(); n != EntriesFile && n != marker {
			names = append(names, n)
		}
	}
	if marker != "" {
		names = append(names, marker)
	}
	for _, n := range names {
		dst := filepath.Join(final, n)
		if _, err := os.Lstat(dst); !errors.Is(err, os.ErrNotExist) {
			os.RemoveAll(tmp)
			return fmt.Errorf("%s appeared while the output was written; not replacing it", dst)
		}
		if err := os.Rename(filepath.Join(tmp, n), dst); err != nil {
			os.RemoveAll(tmp)
			return err
		}
	}
	if err := restamp(list, final, tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return os.Remove(tmp)
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

// CheckOutput is CheckReplaceable as a command checks its -o before any
// work: any error (the path holds something revisit did not write, or it
// cannot be examined) is a usage.Refused naming the command, exit code 2.
func CheckOutput(command, dir, marker, what string) error {
	if err := CheckReplaceable(filepath.Clean(dir), marker, what); err != nil {
		return &usage.Refused{Err: fmt.Errorf("%s: %w", command, err)}
	}
	return nil
}

// CheckReplaceable accepts a path that does not exist, an empty directory,
// or an earlier output of this kind that revisit wrote and nobody changed:
// a directory whose EntriesFile (revisit's, for marker) lists every entry
// in it with the same type and size. Anything else is refused with a
// *RefusedError naming the entries revisit did not write. A path that
// another revisit process is writing, itself, around or inside it, is
// refused with ErrBusy (CheckBusy).
func CheckReplaceable(dir, marker, what string) error {
	st, err := os.Lstat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return CheckBusy(dir, what)
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, dir, err)
	}
	if !st.IsDir() {
		return refused(dir, what, "exists and is not a directory; refusing to replace it (choose another path)")
	}
	if empty, err := isEmptyDir(dir); err != nil {
		return fmt.Errorf("%s %s: %w", what, dir, err)
	} else if empty {
		return CheckBusy(dir, what)
	}
	list, listInfo, ok := readEntries(filepath.Join(dir, EntriesFile))
	switch {
	case !ok && marker != "" && IsMarker(filepath.Join(dir, marker)):
		return refused(dir, what, fmt.Sprintf("was written by an earlier revisit version, which did not record the files it wrote (no %s), so revisit cannot tell whether files of yours are in it; refusing to replace it: look through it and remove it by hand (rm -r %s), or choose another path", EntriesFile, dir))
	case !ok:
		kind := "no " + EntriesFile
		if marker != "" {
			kind = "no revisit " + marker
		}
		return refused(dir, what, fmt.Sprintf("directory exists, is not empty and is not %s written by revisit (%s in it); refusing to replace it (choose another path or remove it)", withArticle(what), kind))
	case list.Marker != marker:
		return refused(dir, what, fmt.Sprintf("is another kind of revisit output (its marker is %q, %s's is %q); refusing to replace it (choose another path)", list.Marker, withArticle(what), marker))
	case list.Hash != "" && list.Hash != hashName:
		return refused(dir, what, fmt.Sprintf("records its files with a %q content hash, which this revisit version cannot check; refusing to replace it: look through it and remove it by hand (rm -r %s), or choose another path", list.Hash, dir))
	}
	if err := CheckBusy(dir, what); err != nil { // a writer inside it: its lock and temporary files are foreign too
		return err
	}
	foreign, err := foreignEntries(dir, list, listInfo)
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, dir, err)
	}
	if len(foreign) > 0 {
		return &RefusedError{Path: dir, What: what, Reason: "holds entries revisit did not write, or changed since it wrote them", Foreign: foreign}
	}
	return nil
}

// maxMarker bounds how much of a marker file IsMarker reads.
const maxMarker = 16 << 20

// IsMarker reports whether path is a regular file written by revisit as
// the marker of an output: a JSON object whose key "tool" (exactly so
// spelled, unlike what encoding/json matches) is the string "revisit" (a
// dataset's manifest.json, replay.json), or a text starting with exactly
// MarkerText. A user's own file of the same name is not a marker.
func IsMarker(path string) bool {
	b, ok := readRegular(path, maxMarker)
	if !ok {
		return false
	}
	if bytes.HasPrefix(b, []byte(MarkerText)) {
		return true
	}
	return isToolRevisit(b)
}

// isToolRevisit reports whether b is a JSON object whose member with the
// exact key "tool" is the string "revisit".
func isToolRevisit(b []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	var tool string
	raw, ok := m["tool"]
	return ok && json.Unmarshal(raw, &tool) == nil && tool == "revisit"
}

// readRegular reads up to limit bytes of path if it is a regular file (a
// symbolic link is not followed).
func readRegular(path string, limit int64) ([]byte, bool) {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit))
	return b, err == nil
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
	abs, err := absPath(final, what)
	if err != nil {
		return "", nil, err
	}
	parent, base, lock, err := lockBeside(abs, final, "."+kind+".lock", what)
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

// Lock takes the lock of final (the lock file .NAME.lock beside it that
// Create takes) for a job that writes several outputs under final, such as
// revisit run: another process writing final fails at once with ErrBusy
// while it is held. release removes the lock file.
func Lock(final, what string) (release func(), err error) {
	final = filepath.Clean(final)
	abs, err := absPath(final, what)
	if err != nil {
		return nil, err
	}
	_, _, lock, err := lockBeside(abs, final, ".lock", what)
	if err != nil {
		return nil, err
	}
	return lock.release, nil
}

// held is a lock taken beside an output, and the parent directories
// that were made for it (lockBeside).
type held struct {
	f    *lockFile
	made []string // created, outermost first
}

// release removes the lock file and unlocks it, then removes the
// directories made for it that are empty now: a command that failed into
// a new nested path (-o new/a/b) leaves no new/a behind, while a parent
// that holds an output, or anything else, stays, and a parent that existed
// before is never touched.
func (h *held) release() {
	if h == nil {
		return
	}
	h.f.release()
	removeMade(h.made)
	h.made = nil
}

// MkdirParents makes dir and its missing parents (mode 0755, like
// os.MkdirAll) for an output file written beside them; undo removes the
// directories it made that are empty then, innermost first: a failed
// command leaves no directory it made (Create's outputs do the same).
func MkdirParents(dir string) (undo func(), err error) {
	made, err := mkdirs(filepath.Clean(dir))
	if err != nil {
		return nil, err
	}
	return func() { removeMade(made) }, nil
}

// mkdirs makes dir and its missing parents (mode 0755, like MkdirAll) and
// returns those it created, outermost first; a directory another process
// made meanwhile is not counted as made.
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for p := dir; ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil {
			break
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		missing = append(missing, p)
		if filepath.Dir(p) == p {
			break
		}
	}
	var made []string
	for i := len(missing) - 1; i >= 0; i-- {
		err := os.Mkdir(missing[i], 0o755)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			removeMade(made)
			return nil, err
		}
		made = append(made, missing[i])
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		removeMade(made)
		if err == nil {
			err = fmt.Errorf("%s is not a directory", dir)
		}
		return nil, err
	}
	return made, nil
}

// removeMade removes the directories mkdirs made, innermost first, as long
// as they are empty.
func removeMade(made []string) {
	for i := len(made) - 1; i >= 0; i-- {
		if os.Remove(made[i]) != nil {
			return
		}
	}
}

// lockText starts the text of every lock file (lockContent): a lock file
// holding it was created by revisit, and one nobody holds was left by a
// killed run.
const lockText = MarkerText + " as the lock of "

// lockBeside makes the parent of abs (an absolute clean path; final is how
// the user wrote it, for messages) and takes the lock file .BASE+suffix in
// it, BASE being abs's last element, beside abs's resolved path (so that
// every spelling of the output shares one lock); another process holding
// it, or the lock of a directory containing abs (CheckBusy), gives
// ErrBusy, worded for the user. The parents it made are removed with the
// lock when they are empty then (held.release).
func lockBeside(abs, final, suffix, what string) (parent, base string, lock *held, err error) {
	parent, base = filepath.Dir(abs), filepath.Base(abs)
	var f *lockFile
	var made []string
	var lockPath string
	for try := 0; ; try++ {
		if made, err = mkdirs(parent); err != nil {
			return "", "", nil, fmt.Errorf("%s %s: %w", what, final, err)
		}
		var real string
		if real, err = filepath.EvalSymlinks(parent); err == nil {
			lockPath = filepath.Join(real, "."+base+suffix)
			f, err = acquire(lockPath, lockContent(filepath.Join(real, base)))
		}
		// A parent that another failed writer removed just after we saw
		// it: make it again.
		if !errors.Is(err, os.ErrNotExist) || try == 3 {
			break
		}
	}
	if err == nil {
		if err = ancestorsBusy(filepath.Join(filepath.Dir(lockPath), base), what, final); err != nil {
			f.release()
			removeMade(made)
			return "", "", nil, err
		}
	}
	if err != nil {
		removeMade(made)
		if errors.Is(err, ErrBusy) {
			pid, _ := heldElsewhere(lockPath)
			return "", "", nil, busyError(what, final, pid, "", "")
		}
		var re *RefusedError
		if errors.As(err, &re) {
			return "", "", nil, err
		}
		return "", "", nil, fmt.Errorf("%s %s: lock: %w", what, final, err)
	}
	return parent, base, &held{f: f, made: made}, nil
}

// withArticle is what with its indefinite article: "an estimate output",
// "a replay output".
func withArticle(what string) string {
	if what != "" && strings.ContainsRune("aeiou", rune(what[0])) {
		return "an " + what
	}
	return "a " + what
}
