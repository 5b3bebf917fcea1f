//go:build !unix

package atomicdir

// lockFile does nothing where flock(2) is not available: concurrent writers
// of one output are not detected there.
type lockFile struct{}

func acquire(path, content string) (*lockFile, error) { return &lockFile{}, nil }

func (l *lockFile) release() {}
