package supervise

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/usage"
)

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

// ExitCode is the exit code for err, a command's failure (ExitOK for
// nil): ExitInternal when revisit could not run (InternalError),
// ExitUsage for bad usage (usage.Error, whichever stage returned it) and
// for an output revisit refuses to write (Refusal), ExitBadInput for
// anything else. Interruptions are decided before, by the signal.
func ExitCode(err error) int {
	var ie InternalError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ie):
		return ExitInternal
	case usage.Is(err), Refusal(err):
		return ExitUsage
	}
	return ExitBadInput
}

// Refusal reports whether err is an output path revisit refuses to
// write: one that holds what revisit did not write (usage.Refused,
// atomicdir.RefusedError, which generate's ErrNotOurs is too) or that
// another revisit process is writing (atomicdir.ErrBusy). Its fix is the
// output path, not the command line: exit code ExitUsage, without the
// pointer to --help.
func Refusal(err error) bool {
	var ar *atomicdir.RefusedError
	return usage.IsRefused(err) || errors.As(err, &ar) || errors.Is(err, atomicdir.ErrBusy)
}

// StdoutLine is the one sentence printed (on standard error) when
// standard output failed under the command at path ("revisit replay"),
// which otherwise succeeded: the rule for every command.
func StdoutLine(path string, err *StdoutError) string {
	return human.Text(fmt.Sprintf("%s: %v: what it printed there is cut short; the command finished, and every output it writes with -o is complete. Exit code %d.", path, err, ExitStdout))
}

// InterruptedLine is the one sentence printed when signal s stopped the
// command at path: which command stopped, and that it wrote nothing
// (every output is written under a temporary name and put in place only
// when complete); keepsStages for a command whose finished stages stay
// (run).
func InterruptedLine(path string, s syscall.Signal, keepsStages bool) string {
	what := "nothing was written"
	if keepsStages {
		what = "nothing of the stage it was in was written (the stages it finished are kept)"
	}
	return fmt.Sprintf("%s: interrupted by %s; %s: outputs are put in place only when complete. Exit code %d.", path, SignalName(s), what, 128+int(s))
}
