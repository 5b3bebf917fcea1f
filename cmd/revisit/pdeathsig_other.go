//go:build !linux

package main

import "os/exec"

// stopWithParent does nothing here: only Linux can tie a child's life to
// its parent's (see pdeathsig_linux.go).
func stopWithParent(c *exec.Cmd) {}
