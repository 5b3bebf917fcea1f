//go:build unix

package progress

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// sysWidth is the terminal's width in columns (0 when unknown).
func sysWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
