//go:build !unix

package main

import "os/exec"

const exitUsageChild = exitUsage

// supervisedEnv marks a child that does the work itself (ingest --jobs).
const supervisedEnv = "REVISIT_SUPERVISED"

func supervised() bool { return true } // no child process here: work in-process

func runSupervised(c *exec.Cmd) (int, bool) { return 0, false }
