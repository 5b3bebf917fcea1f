//go:build unix

package supervise

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// The Go runtime ends a process that runs out of memory (or crashes) with
// exit code 2, which SPEC §8 reserves for bad usage. So revisit does its
// work in a child process and maps the child's status:
//
//	child exits 0 or 1          → the same
//	child exits ExitUsageChild  → 2 (bad usage, reported by revisit itself)
//	child exits 2               → ExitInternal (3): the Go runtime ended it
//	                              (out of memory, or a crash)
//	child killed by a signal    → 128 + the signal (SIGKILL: named as the
//	                              kernel's out-of-memory killer, its usual cause)
//
// SIGINT, SIGTERM and SIGHUP sent to the parent are passed to the child,
// which cancels its work and removes its temporary outputs. SIGQUIT
// (Ctrl-\) is passed on too: the Go runtime prints the goroutines of the
// child, the process doing the work, and ends it with exit 2, which the
// parent reports as ExitSIGQUIT, not as the runtime's death (3) — nor
// does the parent die of it itself with exit 2, bad usage.

// Env is set in the child's environment.
const Env = "REVISIT_SUPERVISED"

// ExitUsageChild is the child's exit code for bad usage (sysexits
// EX_USAGE); the parent turns it back into ExitUsage.
const ExitUsageChild = 64

// Supervised reports whether this process is the child doing the work.
func Supervised() bool { return os.Getenv(Env) != "" }

// Run runs the child c (this program with the same arguments)
// and returns the exit code for the parent; ok is false when the child
// could not be started (said on stderr in one line: the exit code is then
// ExitInternal).
func Run(c *exec.Cmd) (code int, ok bool) {
	if c.Stdin == nil && c.Stdout == nil && c.Stderr == nil {
		c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	}
	if c.Env == nil {
		c.Env = os.Environ()
	}
	c.Env = append(c.Env, Env+"=1")
	StopWithParent(c) // kill -9 of the parent stops the child's work too
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	defer IgnoreSIGPIPE()() // a closed standard error must not end the supervisor (and its child with it)
	if err := c.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "revisit: cannot start the worker process: %v%s; nothing was done. Exit code %d.\n", err, LimitHint(), ExitInternal)
		return ExitInternal, false
	}
	done := make(chan struct{})
	var quit atomic.Bool // a SIGQUIT was passed on
	go func() {
		for {
			select {
			case s := <-sigs:
				if s == syscall.SIGQUIT {
					quit.Store(true)
				}
				c.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err := c.Wait()
	close(done)
	if quit.Load() && err != nil {
		fmt.Fprintf(os.Stderr, "revisit: quit by SIGQUIT (Ctrl-\\): the goroutines of the worker process are printed above; outputs are left as they were. Exit code %d.\n", ExitSIGQUIT)
		return ExitSIGQUIT, true
	}
	if err == nil {
		return ExitOK, true
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, "revisit:", err)
		return ExitInternal, true
	}
	ws, _ := ee.Sys().(syscall.WaitStatus)
	switch {
	case ws.Signaled():
		s := ws.Signal()
		if s == syscall.SIGKILL {
			fmt.Fprintln(os.Stderr, "revisit: killed (SIGKILL), most likely by the kernel's out-of-memory killer; outputs are left as they were")
		} else if name, ok := signalNames[s]; ok {
			// ended by the signal itself, before it could cancel its work
			fmt.Fprintf(os.Stderr, "revisit: interrupted by %s; outputs are left as they were. Exit code %d.\n", name, 128+int(s))
		}
		return 128 + int(s), true
	case ws.ExitStatus() == ExitUsageChild:
		return ExitUsage, true
	case ws.ExitStatus() == ExitUsage:
		fmt.Fprintf(os.Stderr, "revisit: stopped by the Go runtime (out of memory, or an internal error: see the message above)%s; outputs are left as they were. Exit code %d.\n", LimitHint(), ExitInternal)
		return ExitInternal, true
	default:
		return ws.ExitStatus(), true
	}
}

// minAddressSpace is the smallest address-space limit (ulimit -v) under
// which revisit starts reliably: measured with 'ulimit -v N; revisit
// --version' (README.md, "Exit codes"). Below it the Go runtime of the
// supervisor or of its child may fail to reserve its memory at start.
const minAddressSpace = 2 << 30

// LimitHint names the address-space limit (ulimit -v) when one is set
// below minAddressSpace: the likely reason the worker process could not
// start or the runtime could not allocate.
func LimitHint() string {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil {
		return ""
	}
	return limitHintFor(uint64(rl.Cur)) // int64 on some systems; RLIM_INFINITY is huge on all
}

// limitHintFor is LimitHint for the address-space limit cur, in bytes.
func limitHintFor(cur uint64) string {
	if cur >= minAddressSpace {
		return ""
	}
	return fmt.Sprintf(" (the address space is limited to %d MiB by ulimit -v; revisit needs at least %d MiB)", cur>>20, uint64(minAddressSpace)>>20)
}
