//go:build !linux

package supervise

import "os/exec"

// StopWithParent does nothing here: only Linux can tie a child's life to
// its parent's (see pdeathsig_linux.go).
func StopWithParent(c *exec.Cmd) {}
