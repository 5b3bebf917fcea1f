//go:build !unix

package atomicdir

// lockFile does nothing where flock(2) is not available: concurrent writers
// of one output are not detected there.
type lockFile struct{}

func acquire(path, content string) (*lockFile, error) { return &lockFile{}, nil }

func (l *lockFile) release() {}

// heldElsewhere cannot tell a held lock where flock(2) is not available.
func heldElsewhere(path string) (pid int, held bool) { return 0, false }
