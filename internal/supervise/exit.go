package supervise

import "syscall"

// Exit codes (SPEC §8), one rule for every command; README.md's table
// lists them (cmd/revisit's TestReadmeExitCodeTable checks it against
// these constants).
const (
	ExitOK       = 0
	ExitBadInput = 1 // bad input: the message names file, position and page
	// ExitUsage: bad usage (a flag, an argument), or an output path that
	// revisit refuses to replace.
	ExitUsage = 2
	// ExitInternal: revisit cannot run: the Go runtime ended the process
	// (out of memory under a memory or address-space limit, or a crash):
	// the supervisor's code for its child's exit 2 and ingest --jobs's when
	// a child of it ended so; or the worker process could not be started.
	ExitInternal = 3
	// 128 + the signal: interrupted by SIGHUP, Ctrl-C (SIGINT) or SIGTERM
	// (the command stopped and wrote nothing), or killed by SIGKILL.
	ExitSIGHUP  = 128 + int(syscall.SIGHUP)
	ExitSIGINT  = 128 + int(syscall.SIGINT)
	ExitSIGTERM = 128 + int(syscall.SIGTERM)
	ExitSIGKILL = 128 + int(syscall.SIGKILL)
	// ExitSIGQUIT: quit by SIGQUIT (Ctrl-\): the Go runtime printed the
	// goroutines of the process doing the work and ended it (a debugging
	// aid); outputs are as they were.
	ExitSIGQUIT = 128 + int(syscall.SIGQUIT)
	// ExitStdout: standard output could not be written (a closed pipe, as
	// '| head' leaves it, or a full disk): the command did its work and
	// its outputs are complete, but what it printed is cut short. 128 +
	// SIGPIPE, the code of a program that a closed pipe ends, which
	// scripts running with 'set -o pipefail' already expect of '| head'.
	ExitStdout = 128 + int(syscall.SIGPIPE)
)

// InternalError marks a failure that is the Go runtime's, not the input's
// or the user's (a child ingest of --jobs that ran out of memory): exit
// code ExitInternal.
type InternalError struct{ Err error }

func (e InternalError) Error() string { return e.Err.Error() }
func (e InternalError) Unwrap() error { return e.Err }

// ChildExit is the exit code of the process doing the work for code, the
// work's own: bad usage becomes ExitUsageChild, which the supervising
// parent turns back into ExitUsage.
func ChildExit(code int) int {
	if code == ExitUsage {
		return ExitUsageChild
	}
	return code
}
