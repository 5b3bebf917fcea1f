//go:build unix

package atomicdir

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"
)

// lockFile is an exclusive flock(2) on a lock file beside an output.
type lockFile struct {
	f    *os.File
	path string
}

// acquire takes the lock at path without waiting (ErrBusy when another
// process holds it), writing content (which starts with lockText) into a
// lock file it creates. It creates the file only where nothing exists
// (O_EXCL, which never follows a symbolic link) and uses an existing one
// only when it is a regular file holding a revisit lock's text (a lock
// that a killed run left, or that another run holds): a user's file or a
// symbolic link at path is a *RefusedError, and is neither followed, used
// nor removed. The file is removed on release; since another process may
// have opened it just before, acquire checks after locking that path still
// names the file it locked, and tries again otherwise.
func acquire(path, content string) (*lockFile, error) {
	// Looks at one lock file being made: last stays open until the next
	// look, so that its inode cannot be reused by a lock file made after
	// it was removed (SameFile would count that one as the same file).
	empty, last := 0, (*os.File)(nil)
	defer func() {
		if last != nil {
			last.Close()
		}
	}()
	for range 100 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
		if err == nil {
			// Waiting is short: another process may have opened the
			// new file and locked it to look, but it lets go at once
			// of an empty lock file.
			if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
				os.Remove(path)
				f.Close()
				return nil, err
			}
			if _, err := f.WriteString(content); err != nil {
				os.Remove(path)
				f.Close()
				return nil, err
			}
			return &lockFile{f: f, path: path}, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		// Read-write, to write this process's text into a lock that a
		// killed run left; read-only where that is not allowed (a
		// directory, a user's read-only file: refused below).
		f, err = os.OpenFile(path, os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EISDIR) || errors.Is(err, syscall.EROFS) {
			f, err = os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		}
		if errors.Is(err, os.ErrNotExist) {
			continue // released just now
		}
		if errors.Is(err, syscall.ELOOP) {
			return nil, foreignLock(path, "is a symbolic link")
		}
		if err != nil {
			return nil, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		if !st.Mode().IsRegular() {
			f.Close()
			return nil, foreignLock(path, "is not a regular file")
		}
		b, err := io.ReadAll(io.LimitReader(f, maxLock))
		if err != nil {
			f.Close()
			return nil, err
		}
		// A creator writes the text right after creating and locking
		// the file: a proper prefix of it (nothing yet, or a part) is
		// a lock being made.
		ours := bytes.HasPrefix(b, []byte(lockText))
		making := !ours && len(b) < len(lockText) && strings.HasPrefix(lockText, string(b))
		if making { // count the looks at this same file only
			if last != nil {
				if lst, err := last.Stat(); err != nil || !os.SameFile(lst, st) {
					empty = 0
				}
			}
			empty++
		}
		if !ours && (!making || empty > 50) {
			f.Close()
			return nil, foreignLock(path, "is not a lock file of revisit's")
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, ErrBusy
			}
			return nil, err
		}
		if !ours {
			// Being made and not locked: a creator between creating
			// and locking it (it waits for us now), or a user's empty
			// file. Look again shortly, keeping this one open.
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			if last != nil {
				last.Close()
			}
			last = f
			time.Sleep(5 * time.Millisecond)
			continue
		}
		// A lock a killed run left: it is ours now, if path still names
		// it, with this process's text (its pid: CheckBusy).
		named, err := os.Lstat(path)
		if err == nil && os.SameFile(st, named) {
			if err := f.Truncate(0); err != nil {
				f.Close()
				return nil, foreignLock(path, "is a lock a killed run left that revisit cannot write ("+err.Error()+")")
			}
			if _, err := f.WriteAt([]byte(content), 0); err != nil {
				f.Close()
				return nil, err
			}
			return &lockFile{f: f, path: path}, nil
		}
		f.Close() // the holder before us removed it: lock the new one
	}
	return nil, ErrBusy
}

// maxLock bounds how much of a lock file acquire reads.
const maxLock = 64 << 10

func foreignLock(path, why string) error {
	return &RefusedError{Path: path, What: "lock file", Reason: fmt.Sprintf("%s; revisit keeps its lock there and neither uses nor removes a path it did not create (remove it yourself if it is not needed, or choose another output path)", why)}
}

// release removes the lock file, if path still names it, and unlocks it.
func (l *lockFile) release() {
	if l == nil || l.f == nil {
		return
	}
	held, err1 := l.f.Stat()
	named, err2 := os.Lstat(l.path)
	if err1 == nil && err2 == nil && os.SameFile(held, named) {
		os.Remove(l.path)
	}
	l.f.Close()
	l.f = nil
}

// heldElsewhere reports whether path is a revisit lock file that another
// process holds, and that process's pid when the lock names it (0: not
// known). A user's file, a symbolic link, a lock nobody holds (left by a
// killed run) and this process's own locks (ownLock: by their holder
// line, not their pid, which a process elsewhere may share) are not. It takes the lock
// shared for an instant to see whether it is held, which never blocks.
func heldElsewhere(path string) (pid int, held bool) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return 0, false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxLock))
	if err != nil {
		return 0, false
	}
	making := len(b) < len(lockText) && strings.HasPrefix(lockText, string(b))
	if !bytes.HasPrefix(b, []byte(lockText)) && !making {
		return 0, false // not revisit's: acquire refuses it where it is an output's own
	}
	if ownLock(b) {
		return 0, false
	}
	pid = lockPID(b)
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return pid, errors.Is(err, syscall.EWOULDBLOCK)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return 0, false
}
