//go:build !unix

package supervise

import "os/exec"

// ExitUsageChild is the exit code for bad usage: there is no child here.
const ExitUsageChild = ExitUsage

// Env marks a child that does the work itself (ingest --jobs).
const Env = "REVISIT_SUPERVISED"

// Supervised is true: there is no child process here, the work is done in-process.
func Supervised() bool { return true }

// Run starts no child here.
func Run(c *exec.Cmd) (int, bool) { return 0, false }
