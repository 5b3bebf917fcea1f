//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/internal/supervise"
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
		os.Exit(supervise.ChildExit(execute([]string{"run"}))) // no INPUT: bad usage
	case "badinput":
		os.Exit(supervise.ChildExit(execute([]string{"-q", "ingest", "/nonexistent/x.xml", "-o", os.Getenv("REVISIT_TEST_OUT")})))
	case "kill":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	case "block":
		fmt.Printf("ready %d\n", os.Getpid())
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
		code, ok, own := superviseCaptured(cmd)
		if !ok {
			t.Fatalf("%s: child did not start", c.mode)
		}
		all := stderr.String() + own
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

// startJobsOnFIFOs starts this binary as revisit ingest --jobs 2 reading
// two FIFOs dir/in0.csv and dir/in1.csv into dir/ds, its standard error to
// stderr (nil: none). It returns once each child has opened its FIFO and
// been sent one record, with the writing ends still open; where FIFOs
// cannot be made it skips the test.
func startJobsOnFIFOs(t *testing.T, dir string, stderr io.Writer) (*exec.Cmd, []*os.File) {
	t.Helper()
	var fifos []string
	for i := range 2 {
		p := filepath.Join(dir, fmt.Sprintf("in%d.csv", i))
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		fifos = append(fifos, p)
	}
	out := filepath.Join(dir, "ds")
	cmd := exec.Command(os.Args[0], append([]string{"-q", "ingest", "--id", "id", "--time", "time", "--jobs", "2", "-o", out}, fifos...)...)
	cmd.Env = append(os.Environ(), "REVISIT_TEST_AS_MAIN=1")
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The children open the FIFOs: once both are open for reading, the
	// work is under way (the .jobs- directory exists).
	var ws []*os.File
	for _, p := range fifos {
		w, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
		fmt.Fprintf(w, "id,time\na,2021-01-01T00:00:00Z\n")
	}
	return cmd, ws
}

// SIGHUP (the terminal or the ssh session closed) is one of the signals
// the supervisor passes to the child: the child must cancel its work on it
// like on Ctrl-C, not die at once. Otherwise ingest --jobs leaves its
// .OUT.jobs-* directory (every part read so far, never removed by a later
// run) and its children keep running.
func TestSIGHUPCancelsIngestJobs(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	cmd, ws := startJobsOnFIFOs(t, dir, &stderr)
	time.Sleep(200 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGHUP)
	time.Sleep(200 * time.Millisecond)
	for _, w := range ws {
		w.Close() // the children see the end of their input
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("ingest --jobs did not end within 30 s of SIGHUP")
	}
	if err == nil {
		t.Errorf("ingest --jobs ended with exit 0 after SIGHUP")
	}
	if ps := cmd.ProcessState; ps != nil && !ps.Exited() {
		t.Errorf("ingest --jobs was killed by SIGHUP (%v) instead of stopping its work", ps)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || e.Name() == "ds" {
			t.Errorf("left behind after SIGHUP: %s", e.Name())
		}
	}
	if n := strings.Count(stderr.String(), "interrupted by"); n != 1 {
		t.Errorf("%d lines say the ingest was interrupted, want 1 (not one per child)", n)
	}
	t.Logf("stderr: %s", stderr.String())
}

// A stage that cannot notice the cancellation (here: ingest blocked reading
// a FIFO whose writer stays silent) must not make Ctrl-C useless: a second
// Ctrl-C, a second or more after the first, ends the process at once
// (exit 130) instead of being swallowed.
func TestSecondInterruptStopsAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "in.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	cmd := exec.Command(os.Args[0], "-q", "ingest", "--id", "id", "--time", "time", fifo, "-o", filepath.Join(dir, "ds"))
	cmd.Env = append(os.Environ(), "REVISIT_TEST_AS_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	fmt.Fprintf(w, "id,time\n")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("a second Ctrl-C did not stop ingest blocked on its input")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d after the second Ctrl-C, want 130", code)
	}
}

// When one child fails, the others are stopped; the error names the input
// that failed, not an earlier input whose child was only stopped because of
// it.
func TestIngestJobsBlamesTheFailedInput(t *testing.T) {
	t.Setenv("REVISIT_TEST_AS_MAIN", "1")
	dir := t.TempDir()
	slow := filepath.Join(dir, "in0.csv")
	if err := syscall.Mkfifo(slow, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	bad := filepath.Join(dir, "in1.csv")
	os.WriteFile(bad, []byte("id,time\na,not-a-time\n"), 0o644)
	go func() {
		w, err := os.OpenFile(slow, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		fmt.Fprintf(w, "id,time\na,2021-01-01T00:00:00Z\n")
		time.Sleep(time.Second) // in1 fails meanwhile; in0's child is stopped
		w.Close()
	}()
	root := newRoot()
	root.SetArgs([]string{"-q", "ingest", "--id", "id", "--time", "time", "--jobs", "2", "-o", filepath.Join(dir, "ds"), slow, bad})
	err := root.Execute()
	if err == nil {
		t.Fatal("a bad input was ingested")
	}
	if !strings.Contains(err.Error(), "in1.csv") || strings.Contains(err.Error(), "in0.csv") {
		t.Errorf("error %q: want it to name in1.csv (the bad input), not in0.csv", err)
	}
}

// A worker process that cannot be started (here: its program is missing;
// under a low ulimit -v, fork or exec fails the same way) is one line on
// stderr and exit 3, not a silent fallback or a runtime dump; a low
// address-space limit is named in it.
func TestSupervisorCannotStartChild(t *testing.T) {
	r, w, _ := os.Pipe()
	saved := os.Stderr
	os.Stderr = w
	code, ok := supervise.Run(exec.Command(filepath.Join(t.TempDir(), "no-such-revisit")))
	os.Stderr = saved
	w.Close()
	var out bytes.Buffer
	out.ReadFrom(r)
	msg := out.String()
	if ok || code != exitInternal {
		t.Errorf("child not started: code %d ok %v, want %d and false", code, ok, exitInternal)
	}
	if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "cannot start the worker process") || !strings.Contains(msg, "Exit code 3") {
		t.Errorf("want one line saying the worker could not start, got %q", msg)
	}
}

// Ctrl-\ (SIGQUIT) makes the Go runtime print the goroutines of the
// process doing the work and end it with exit 2, which is bad usage in
// revisit's table: the supervisor passes SIGQUIT on to its child (the
// stack dump, a debugging aid, is the worker's) and exits 128 + 3 = 131,
// saying so, like a shell reports a program SIGQUIT ended. Before, the
// supervisor itself died of it with its own stack dump and exit 2, and
// the child ran on until its parent's death stopped it.
func TestSupervisorQuit(t *testing.T) {
	if os.Getenv("REVISIT_TEST_CHILD") != "" {
		t.Skip("in the child")
	}
	quit := make(chan os.Signal, 1)
	signal.Notify(quit, syscall.SIGQUIT) // this test process survives its own SIGQUIT
	defer signal.Stop(quit)
	cmd := exec.Command(os.Args[0], "-test.run=^TestSupervisorChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "REVISIT_TEST_CHILD=block")
	out, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	go func() {
		var pid int
		if _, err := fmt.Fscanf(out, "ready %d\n", &pid); err != nil {
			return
		}
		syscall.Kill(os.Getpid(), syscall.SIGQUIT) // as Ctrl-\ reaches the supervisor
		time.Sleep(20 * time.Second)
		syscall.Kill(pid, syscall.SIGKILL) // not passed on: end the test
	}()
	code, ok, own := superviseCaptured(cmd)
	w.Close()
	if !ok {
		t.Fatal("child did not start")
	}
	if code != exitSIGQUIT || !strings.Contains(own, "SIGQUIT") || !strings.Contains(stderr.String(), "goroutine") {
		t.Errorf("SIGQUIT: exit %d, want %d, the child's goroutines and a line naming it; supervisor said %q, child:\n%.300s", code, exitSIGQUIT, own, stderr.String())
	}
}

// superviseCaptured runs cmd under runSupervised, which writes its own lines to
// os.Stderr, with os.Stderr captured: the exit code, whether the child
// started, and those lines.
func superviseCaptured(cmd *exec.Cmd) (code int, ok bool, own string) {
	r, w, _ := os.Pipe()
	saved := os.Stderr
	os.Stderr = w
	code, ok = supervise.Run(cmd)
	os.Stderr = saved
	w.Close()
	var b bytes.Buffer
	b.ReadFrom(r)
	return code, ok, b.String()
}
