//go:build unix

package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// holder is a revisit process that holds the lock of an output while it
// waits for its input (a FIFO) to end.
type holder struct {
	cmd    *exec.Cmd
	fifo   *os.File
	stderr *lockedBuffer
	done   chan struct{}
}

// startHolder starts revisit with args (which read the FIFO in) and
// returns once lock exists.
func startHolder(t *testing.T, in, lock string, args ...string) *holder {
	t.Helper()
	if err := syscall.Mkfifo(in, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	h := &holder{cmd: revisitProcess(args...), stderr: &lockedBuffer{}, done: make(chan struct{})}
	h.cmd.Stdout, h.cmd.Stderr = io.Discard, h.stderr
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { h.cmd.Wait(); close(h.done) }()
	var err error
	if h.fifo, err = os.OpenFile(in, os.O_WRONLY, 0); err != nil {
		t.Fatal(err)
	}
	io.WriteString(h.fifo, "id,time\na,2021-01-01T00:00:00Z\na,2021-01-02T00:00:00Z\na,2021-01-04T00:00:00Z\n")
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Lstat(lock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear; stderr:\n%s", lock, h.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Cleanup(func() { h.finish(t) })
	return h
}

// finish ends the holder's input and waits for it.
func (h *holder) finish(t *testing.T) {
	if h.fifo == nil {
		return
	}
	h.fifo.Close()
	h.fifo = nil
	select {
	case <-h.done:
	case <-time.After(60 * time.Second):
		h.cmd.Process.Kill()
		<-h.done
		t.Errorf("the holder did not finish; stderr:\n%s", h.stderr.String())
	}
}

// One lock for a whole output, with two real processes. While revisit run
// writes OUT, every other command writing inside it (its stage
// directories, a path deeper down, the same path through a symbolic link
// to its parent) is refused at once, exit 2, in the message family of the
// lock; and while a command writes OUT/dataset, run -o OUT is refused.
// Writing beside OUT, or two outputs side by side in one directory, is
// not held up.
func TestOneLockForTheWholeOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("starts revisit processes")
	}
	busy := readmeCode(t, "another revisit process is writing it")
	p, log := refusalFixtures(t)

	out := p("OUT")
	h := startHolder(t, p("in"), p(".OUT.lock"), "run", p("in"), "--id", "id", "--time", "time", "--reps", "19", "-o", out)
	os.Symlink(filepath.Dir(out), p("link"))
	os.Symlink(out, p("linkout")) // a link to OUT itself
	for _, c := range []struct {
		name string
		args []string
	}{
		{"ingest OUT/dataset", append(append([]string{"ingest"}, log...), "-o", filepath.Join(out, "dataset"))},
		{"replay OUT/replay", []string{"replay", p("ds"), "--top", "3", "-o", filepath.Join(out, "replay")}},
		{"report OUT/report/mine", []string{"report", p("an"), "-o", filepath.Join(out, "report", "mine")}},
		{"schedule OUT/sched", []string{"schedule", p("rp"), "--budget", "30/d", "-o", filepath.Join(out, "sched")}},
		{"ingest link/OUT/dataset", append(append([]string{"ingest"}, log...), "-o", filepath.Join(p("link"), "OUT", "dataset"))},
		{"replay linkout/replay", []string{"replay", p("ds"), "--top", "3", "-o", filepath.Join(p("linkout"), "replay")}},
		{"ingest linkout/x/y", append(append([]string{"ingest"}, log...), "-o", filepath.Join(p("linkout"), "x", "y"))},
		{"generate OUT/gen.xml.gz", []string{"generate", "--pages", "2", "-o", filepath.Join(out, "gen.xml.gz")}},
		{"run OUT", append(append([]string{"run"}, log...), "-o", out)},
		{"run link/OUT", append(append([]string{"run"}, log...), "-o", filepath.Join(p("link"), "OUT"))},
	} {
		t.Run("inside a run: "+c.name, func(t *testing.T) {
			code, msg := stderrOf(t, append([]string{"-q"}, c.args...)...)
			if code != busy || !strings.Contains(msg, "another revisit process") || strings.Contains(msg, "--help") {
				t.Errorf("exit %d, want %d; stderr: %s", code, busy, msg)
			}
		})
	}
	if code, msg := stderrOf(t, append(append([]string{"-q", "ingest"}, log...), "-o", p("beside"))...); code != exitOK {
		t.Errorf("ingest beside the run's OUT: exit %d: %s", code, msg)
	}
	h.finish(t)
	if code := h.cmd.ProcessState.ExitCode(); code != exitOK {
		t.Fatalf("the run holding OUT: exit %d; stderr:\n%s", code, h.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "report", "index.html")); err != nil {
		t.Errorf("the run's own stages were not written: %v", err)
	}

	// The reverse: a stage being written inside OUT (the run's, now done)
	// holds up run -o OUT.
	h = startHolder(t, p("in2"), filepath.Join(out, ".dataset.lock"), "ingest", p("in2"), "--id", "id", "--time", "time", "-o", filepath.Join(out, "dataset"))
	code, msg := stderrOf(t, append(append([]string{"-q", "run"}, log...), "-o", out)...)
	if code != busy || !strings.Contains(msg, "inside this output") {
		t.Errorf("run -o OUT while OUT/dataset is written: exit %d, want %d; stderr: %s", code, busy, msg)
	}
	// a sibling output in the same directory is fine
	if code, msg := stderrOf(t, append(append([]string{"-q", "ingest"}, log...), "-o", filepath.Join(out, "other"))...); code != exitOK {
		t.Errorf("ingest OUT/other beside OUT/dataset: exit %d: %s", code, msg)
	}
	h.finish(t)
	if code := h.cmd.ProcessState.ExitCode(); code != exitOK {
		t.Fatalf("the ingest holding OUT/dataset: exit %d; stderr:\n%s", code, h.stderr.String())
	}
}
