package supervise

import (
	"os/exec"
	"syscall"
)

// StopWithParent has the kernel send SIGTERM to the child c when this
// process dies, even by SIGKILL (prctl PR_SET_PDEATHSIG): a supervised
// child or an ingest --jobs child then cancels its work and removes its
// temporary outputs instead of running on unwatched. (The signal follows
// the thread that started c; the Go runtime ends no thread here: nothing
// in revisit locks one.)
func StopWithParent(c *exec.Cmd) {
	if c.SysProcAttr == nil {
		c.SysProcAttr = &syscall.SysProcAttr{}
	}
	c.SysProcAttr.Pdeathsig = syscall.SIGTERM
}
