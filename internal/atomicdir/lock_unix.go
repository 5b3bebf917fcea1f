//go:build unix

package atomicdir

import (
	"errors"
	"os"
	"syscall"
)

// lockFile is an exclusive flock(2) on a lock file beside an output.
type lockFile struct {
	f    *os.File
	path string
}

// acquire takes the lock at path without waiting (ErrBusy when another
// process holds it). The file is removed on release; since another process
// may have opened it just before, acquire checks after locking that path
// still names the file it locked, and tries again otherwise.
func acquire(path string) (*lockFile, error) {
	for range 100 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, ErrBusy
			}
			return nil, err
		}
		held, err1 := f.Stat()
		named, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, named) {
			return &lockFile{f: f, path: path}, nil
		}
		f.Close() // the holder before us removed it: lock the new one
	}
	return nil, ErrBusy
}

// release removes the lock file and unlocks it.
func (l *lockFile) release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close()
	l.f = nil
}
