//go:build !unix

package progress

import "io"

// sysWidth is 0 (unknown) where the window size is not asked for.
func sysWidth(io.Writer) int { return 0 }
