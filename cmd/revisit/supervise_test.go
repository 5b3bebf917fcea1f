//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestSupervisorChild is not a test: it is the child process of
// TestSupervisedExitCodes (this test binary run again with
// REVISIT_TEST_CHILD set), doing what a revisit child would do.
func TestSupervisorChild(t *testing.T) {
	switch os.Getenv("REVISIT_TEST_CHILD") {
	case "":
		t.Skip("child process of TestSupervisedExitCodes")
	case "oom":
		// A real out-of-memory death: under a 4 GiB address-space limit
		// the runtime cannot map 16 GiB and ends the process (exit 2).
		syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: 4 << 30, Max: 4 << 30})
		b := make([]byte, 16<<30)
		b[len(b)-1] = 1
		os.Exit(int(b[0]))
	case "usage":
		os.Exit(childExit(execute([]string{"run"}))) // no INPUT: bad usage
	case "badinput":
		os.Exit(childExit(execute([]string{"-q", "ingest", "/nonexistent/x.xml", "-o", os.Getenv("REVISIT_TEST_OUT")})))
	case "kill":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
}

// The supervising parent maps the child's end to SPEC's exit codes: an
// out-of-memory death of the Go runtime (exit 2) is not reported as bad
// usage (2) but as 3, bad usage stays 2, bad input 1, and a SIGKILL (the
// kernel's OOM killer) 128 + 9.
func TestSupervisedExitCodes(t *testing.T) {
	if os.Getenv("REVISIT_TEST_CHILD") != "" {
		t.Skip("in the child")
	}
	for _, c := range []struct {
		mode   string
		code   int
		stderr []string
	}{
		{"oom", exitInternal, []string{"out of memory", "stopped by the Go runtime"}},
		{"usage", exitUsage, []string{"no INPUT given"}},
		{"badinput", exitBadInput, []string{"/nonexistent/x.xml"}},
		{"kill", 128 + 9, []string{"out-of-memory killer"}},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSupervisorChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "REVISIT_TEST_CHILD="+c.mode, "REVISIT_TEST_OUT="+t.TempDir()+"/ds")
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stderr, &stderr
		// runSupervised writes its own lines to os.Stderr: redirect it.
		r, w, _ := os.Pipe()
		saved := os.Stderr
		os.Stderr = w
		code, ok := runSupervised(cmd)
		os.Stderr = saved
		w.Close()
		var own bytes.Buffer
		own.ReadFrom(r)
		if !ok {
			t.Fatalf("%s: child did not start", c.mode)
		}
		all := stderr.String() + own.String()
		if code != c.code {
			t.Errorf("%s: exit %d, want %d; stderr:\n%.600s", c.mode, code, c.code, all)
		}
		for _, s := range c.stderr {
			if !strings.Contains(all, s) {
				t.Errorf("%s: stderr lacks %q:\n%.600s", c.mode, s, all)
			}
		}
	}
}
