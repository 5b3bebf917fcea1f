//go:build !linux

package decompress

import (
	"io"
	"os/exec"
	"syscall"
)

// childAttr is nil here: only Linux ties a system decoder's life to
// revisit's (see proc_linux.go). A Ctrl-C at the terminal then reaches
// the decoder too; the read sees the cancelled context before it would
// fall back to the built-in decoder.
func childAttr() *syscall.SysProcAttr { return nil }

// killTree kills the decoder.
func killTree(c *exec.Cmd) error {
	if c.Process == nil {
		return nil
	}
	return c.Process.Kill()
}

// widenPipe leaves the pipe as it is: its depth is Linux's to set.
func widenPipe(io.Reader) {}
