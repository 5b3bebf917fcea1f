package supervise

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"
)

// IgnoreSIGPIPE makes a write to a closed pipe fail with EPIPE instead of
// ending the process: the Go runtime ends a program that writes to a
// closed standard output or error unless SIGPIPE is notified (os/signal,
// "SIGPIPE"). The command then finishes its work and its outputs, and
// says what was lost (StdoutWriter); log lines on a closed standard error
// are lost without a word (there is nowhere to say it). Notify, unlike
// Ignore, leaves SIGPIPE at its default in the child processes revisit
// starts. The returned function undoes it.
func IgnoreSIGPIPE() (restore func()) {
	c := make(chan os.Signal, 1) // never read: a full channel drops the signal
	signal.Notify(c, syscall.SIGPIPE)
	return func() { signal.Stop(c) }
}

// JobChildEnv is set in the environment of the child ingests of ingest
// --jobs.
const JobChildEnv = "REVISIT_INGEST_JOB"

// signalNames are the signals that interrupt a command, as the user knows
// them.
var signalNames = map[syscall.Signal]string{
	syscall.SIGINT:  "Ctrl-C (SIGINT)",
	syscall.SIGTERM: "SIGTERM",
	syscall.SIGHUP:  "SIGHUP (the terminal or session closed)",
}

// SignalName is s as the user knows it.
func SignalName(s syscall.Signal) string {
	if name, ok := signalNames[s]; ok {
		return name
	}
	return s.String()
}

// ForceGap is how long after the first signal a second one ends the
// process at once. A Ctrl-C on a terminal reaches the child twice within
// microseconds (from the terminal and forwarded by the supervisor), which
// must count as one.
const ForceGap = time.Second

// StopDeadline is how long a command may take to stop after the first
// signal before the process ends anyway: the bound of "stops within about
// a second" for any step that does not watch the context (a read blocked
// on a silent pipe or FIFO, a step without a check).
const StopDeadline = 3 * time.Second

// CancelOnSignal returns a context that Ctrl-C, SIGTERM or SIGHUP (the
// terminal or ssh session closed; the supervisor passes all three on)
// cancels: every stage watches it, so the temporary output directories are
// removed and nothing half-written stays. interrupted returns the first
// such signal (0: none), for the exit code 128 + the signal. One rule for
// every command, whatever its code watches: a command that has not
// returned StopDeadline after the first signal, or a second signal at
// least ForceGap after the first, ends the process at once with 128 + the
// signal (130 for Ctrl-C); outputs are put in place only when complete, so
// nothing half-written is where an output is expected, and the temporary
// directories left are removed by the next writer of the same output.
// stop unregisters the signals.
func CancelOnSignal() (ctx context.Context, stop func(), interrupted func() syscall.Signal) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	var got atomic.Int32
	go func() {
		var first time.Time
		var deadline <-chan time.Time // after the first signal
		for {
			select {
			case <-done:
				return
			case <-deadline:
				ss := syscall.Signal(got.Load())
				fmt.Fprintf(os.Stderr, "revisit: interrupted by %s, and the command did not stop within %s: ended now; outputs are put in place only when complete (temporary directories left are removed by the next run writing the same output). Exit code %d.\n", SignalName(ss), StopDeadline, 128+int(ss))
				os.Exit(128 + int(ss))
			case s := <-sigs:
				ss, _ := s.(syscall.Signal)
				if ss == 0 {
					ss = syscall.SIGINT
				}
				if first.IsZero() {
					first = time.Now()
					got.Store(int32(ss))
					cancel()
					deadline = time.After(StopDeadline)
					continue
				}
				if time.Since(first) < ForceGap {
					continue // the same Ctrl-C, forwarded
				}
				fmt.Fprintf(os.Stderr, "revisit: %v again: stopping at once (temporary directories left are removed by the next run writing the same output)\n", s)
				os.Exit(128 + int(ss))
			}
		}
	}()
	return ctx, func() { signal.Stop(sigs); close(done); cancel() }, func() syscall.Signal { return syscall.Signal(got.Load()) }
}
