package decompress

import (
	"os/exec"
	"syscall"
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
