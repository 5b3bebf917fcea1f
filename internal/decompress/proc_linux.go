package decompress

import (
	"io"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// childAttr puts a system decoder in its own process group, so that a
// Ctrl-C at the terminal reaches revisit alone (which then cancels the
// read and kills the decoder itself, instead of seeing it die and taking
// that for damage), and has the kernel kill it when revisit dies, even by
// SIGKILL (prctl PR_SET_PDEATHSIG; the signal follows the thread that
// started the child, and nothing in revisit locks or ends one).
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killTree kills the decoder's process group: the decoder and anything a
// wrapper script started.
func killTree(c *exec.Cmd) error {
	if c.Process == nil {
		return nil
	}
	return syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
}

// widenPipe makes the pipe the decoder writes into 1 MiB deep (the most an
// unprivileged process may ask for, by default), from 64 KiB: the
// decoder and the reader then wake each other 16 times less often.
func widenPipe(out io.Reader) {
	if f, ok := out.(*os.File); ok {
		if c, err := f.SyscallConn(); err == nil {
			c.Control(func(fd uintptr) { unix.FcntlInt(fd, unix.F_SETPIPE_SZ, 1<<20) })
		}
	}
}
