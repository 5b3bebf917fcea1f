//go:build !linux

package atomicdir

import "errors"

// exchange is not available on this system: Commit falls back to renaming
// the old output aside first.
func exchange(a, b string) error { return errors.ErrUnsupported }
