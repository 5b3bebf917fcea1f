package main

import (
	"os"
	"os/exec"
	"testing"

	"github.com/revisit-dev/revisit/internal/supervise"
)

// TestMain lets this test binary stand in for revisit itself when a command
// under test starts revisit as a child process (os.Executable is the test
// binary here): with REVISIT_TEST_AS_MAIN=1 it runs the arguments as
// revisit would and exits.
func TestMain(m *testing.M) {
	if os.Getenv("REVISIT_TEST_AS_MAIN") == "1" {
		if os.Getenv("REVISIT_TEST_RUNTIME_DEATH") == "1" {
			os.Exit(2) // as the Go runtime ends a process out of memory
		}
		if os.Getenv("REVISIT_TEST_SUPERVISE") == "1" {
			// as main: this process supervises a child (this binary
			// again, REVISIT_SUPERVISED set) that does the work
			os.Exit(supervise.Main(os.Args[1:], execute))
		}
		os.Exit(supervise.ChildExit(execute(os.Args[1:])))
	}
	os.Exit(m.Run())
}

// revisitProcess is this test binary as the revisit program with args: a
// supervising process and its worker, as main runs them.
func revisitProcess(args ...string) *exec.Cmd {
	c := exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), "REVISIT_TEST_AS_MAIN=1", "REVISIT_TEST_SUPERVISE=1")
	return c
}
