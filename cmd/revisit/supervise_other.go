//go:build !unix

package main

import "os/exec"

const exitUsageChild = exitUsage

func supervised() bool { return true } // no child process here: work in-process

func runSupervised(c *exec.Cmd) (int, bool) { return 0, false }
