//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// The Go runtime ends a process that runs out of memory (or crashes) with
// exit code 2, which SPEC §8 reserves for bad usage. So revisit does its
// work in a child process and maps the child's status:
//
//	child exits 0 or 1          → the same
//	child exits exitUsageChild  → 2 (bad usage, reported by revisit itself)
//	child exits 2               → exitInternal (3): the Go runtime ended it
//	                              (out of memory, or a crash)
//	child killed by a signal    → 128 + the signal (SIGKILL: named as the
//	                              kernel's out-of-memory killer, its usual cause)
//
// SIGINT, SIGTERM and SIGHUP sent to the parent are passed to the child,
// which cancels its work and removes its temporary outputs.

// supervisedEnv is set in the child's environment.
const supervisedEnv = "REVISIT_SUPERVISED"

// exitUsageChild is the child's exit code for bad usage (sysexits
// EX_USAGE); the parent turns it back into exitUsage.
const exitUsageChild = 64

// supervised reports whether this process is the child doing the work.
func supervised() bool { return os.Getenv(supervisedEnv) != "" }

// runSupervised runs the child c (this program with the same arguments)
// and returns the exit code for the parent; ok is false when the child
// could not be started, so the caller does the work itself.
func runSupervised(c *exec.Cmd) (code int, ok bool) {
	if c.Stdin == nil && c.Stdout == nil && c.Stderr == nil {
		c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	}
	if c.Env == nil {
		c.Env = os.Environ()
	}
	c.Env = append(c.Env, supervisedEnv+"=1")
	stopWithParent(c) // kill -9 of the parent stops the child's work too
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	if err := c.Start(); err != nil {
		return 0, false
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				c.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err := c.Wait()
	close(done)
	if err == nil {
		return exitOK, true
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, "revisit:", err)
		return exitInternal, true
	}
	ws, _ := ee.Sys().(syscall.WaitStatus)
	switch {
	case ws.Signaled():
		s := ws.Signal()
		if s == syscall.SIGKILL {
			fmt.Fprintln(os.Stderr, "revisit: killed (SIGKILL), most likely by the kernel's out-of-memory killer; outputs are left as they were")
		}
		return 128 + int(s), true
	case ws.ExitStatus() == exitUsageChild:
		return exitUsage, true
	case ws.ExitStatus() == exitUsage:
		fmt.Fprintln(os.Stderr, "revisit: stopped by the Go runtime (out of memory, or an internal error: see the message above); outputs are left as they were. Exit code 3.")
		return exitInternal, true
	default:
		return ws.ExitStatus(), true
	}
}
