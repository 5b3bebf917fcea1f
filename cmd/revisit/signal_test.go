//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/internal/supervise"
)

// lockedBuffer is a bytes.Buffer that a child's output is copied into
// while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Ctrl-C, SIGTERM and SIGHUP sent to revisit (the supervising process, as
// a terminal or a job scheduler sends them) stop every command with the
// README's code for the signal (130, 143, 129), a line naming the
// command that was interrupted, and no output. Commands reading a FIFO
// (ingest, run, estimate, and schedule its --importance) get the signal
// while they wait for input, then the end of it; replay gets it in the
// middle of a long replay, generate in the middle of a long dump.
// hasTemp reports whether dir holds a temporary output (.NAME.tmp-…).
func hasTemp(dir string) bool {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), ".tmp-") {
			return true
		}
	}
	return false
}

func TestSignalExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts revisit processes")
	}
	dir := t.TempDir()
	six := filepath.Join(dir, "six.csv")
	os.WriteFile(six, []byte("id,time\np,1600000000\np,1600100000\np,1600500000\np,1601000000\np,1602000000\np,1603000000\n"), 0o644)
	ds := filepath.Join(dir, "six")
	if code, msg := stderrOf(t, "-q", "ingest", six, "--id", "id", "--time", "time", "--time-layout", "epoch", "-o", ds); code != exitOK {
		t.Fatalf("ingest: exit %d: %s", code, msg)
	}
	signals := []struct {
		sig  syscall.Signal
		what string // in the README's row
	}{{syscall.SIGINT, "SIGINT"}, {syscall.SIGTERM, "SIGTERM"}, {syscall.SIGHUP, "SIGHUP"}}
	csv := "id,time\na,2021-01-01T00:00:00Z\n"
	cdx := "com,a)/ 20200101000000 http://a/ text/html 200 A 1\n"
	for _, c := range []struct {
		name  string
		args  func(in, out string) []string
		input string // written to the FIFO in; "" for none
	}{
		{"ingest", func(in, out string) []string {
			return []string{"ingest", in, "--id", "id", "--time", "time", "-o", out}
		}, csv},
		{"run", func(in, out string) []string {
			return []string{"run", in, "--id", "id", "--time", "time", "-o", out}
		}, csv},
		{"estimate", func(in, out string) []string { return []string{"estimate", in, "--format", "cdx", "-o", out} }, cdx},
		{"replay", func(_, out string) []string {
			// 8·10⁸ visits with the limits out of the way: far longer than the test
			return []string{"replay", ds, "--sampler", "exp:1e6", "--max-visits", "1e13", "--max-pairs", "1e18", "-o", out}
		}, ""},
		{"schedule", func(in, out string) []string {
			return []string{"schedule", ds, "--budget", "30/d", "--importance", in, "-o", out}
		}, "1\t2\n"},
		{"generate", func(_, out string) []string {
			// a million pages: far longer than the test
			return []string{"generate", "--pages", "1000000", "--span", "10y", "-o", out + ".xml"}
		}, ""},
		{"analyze", func(in, out string) []string {
			return []string{"analyze", ds, "--pages", in, "--reps", "19", "-o", out}
		}, "1\n"},
		{"simulate", func(_, out string) []string {
			// 10⁸ visits per path: far longer than the test
			return []string{"simulate", "--T", "1e8", "--paths", "50", "-o", out}
		}, ""},
	} {
		for _, s := range signals {
			want := readmeCode(t, s.what)
			t.Run(c.name+" "+s.what, func(t *testing.T) {
				sub := t.TempDir()
				in, out := filepath.Join(sub, "in"), filepath.Join(sub, "out")
				if c.input != "" {
					if err := syscall.Mkfifo(in, 0o644); err != nil {
						t.Skip("no FIFOs here:", err)
					}
				}
				cmd := revisitProcess(c.args(in, out)...)
				var stderr lockedBuffer
				cmd.Stdout, cmd.Stderr = io.Discard, &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				done := make(chan struct{})
				go func() { cmd.Wait(); close(done) }()
				defer func() {
					select {
					case <-done:
					case <-time.After(60 * time.Second):
						cmd.Process.Kill()
						<-done
						t.Errorf("did not stop within 60 s of %s; stderr:\n%s", s.what, stderr.String())
					}
				}()
				var w *os.File
				if c.input != "" {
					// Opening returns once the worker opened the FIFO: its
					// signal handling is in place by then.
					var err error
					if w, err = os.OpenFile(in, os.O_WRONLY, 0); err != nil {
						t.Fatal(err)
					}
					io.WriteString(w, c.input)
					time.Sleep(300 * time.Millisecond)
				} else {
					// the worker logs before it replays; generate makes
					// its temporary file first; simulate says nothing
					// before its tables: a second is well into its work
					deadline := time.Now().Add(30 * time.Second)
					if c.name == "simulate" {
						deadline = time.Now().Add(time.Second)
					}
					for !strings.Contains(stderr.String(), "replay: ") && !hasTemp(sub) && time.Now().Before(deadline) {
						time.Sleep(20 * time.Millisecond)
					}
					time.Sleep(300 * time.Millisecond)
				}
				cmd.Process.Signal(s.sig)
				if w != nil {
					time.Sleep(300 * time.Millisecond)
					w.Close() // the end of the input: the worker sees the cancellation
				}
				select {
				case <-done:
				case <-time.After(60 * time.Second):
					return // the deferred check reports it
				}
				msg := stderr.String()
				if code := cmd.ProcessState.ExitCode(); code != want {
					t.Errorf("exit %d, want %d; stderr:\n%s", code, want, msg)
				}
				line := fmt.Sprintf("revisit %s: interrupted by ", c.name)
				if !strings.Contains(msg, line) || !strings.Contains(msg, "nothing") {
					t.Errorf("stderr lacks %q… saying nothing was written:\n%s", line, msg)
				}
				if strings.Contains(msg, "context canceled") {
					t.Errorf("stderr shows Go's \"context canceled\":\n%s", msg)
				}
				for _, o := range []string{out, out + ".xml"} {
					if _, err := os.Stat(o); !os.IsNotExist(err) {
						t.Errorf("output %s exists after %s (%v)", o, s.what, err)
					}
				}
				ents, _ := os.ReadDir(sub)
				for _, e := range ents {
					if strings.HasPrefix(e.Name(), ".") {
						t.Errorf("left behind: %s", e.Name())
					}
				}
			})
		}
	}
}

// A command that cannot notice the signal (here ingest, blocked reading
// a FIFO whose writer stays silent) is ended supervise.StopDeadline after it, with
// the signal's exit code and a line saying so: the bound holds for every
// command whatever its code watches; a second Ctrl-C, a second or more
// after the first, ends it at once. It leaves its temporary directory,
// which the next writer of the same output removes.
func TestSignalDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("starts revisit processes")
	}
	for _, second := range []bool{false, true} {
		name := "deadline"
		if second {
			name = "second Ctrl-C"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
			if err := syscall.Mkfifo(in, 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			cmd := revisitProcess("ingest", in, "--id", "id", "--time", "time", "-o", out)
			var stderr lockedBuffer
			cmd.Stdout, cmd.Stderr = io.Discard, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w, err := os.OpenFile(in, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			io.WriteString(w, "id,time\na,2021-01-01T00:00:00Z\n")
			time.Sleep(300 * time.Millisecond)
			sent := time.Now()
			cmd.Process.Signal(syscall.SIGINT)
			if second {
				time.Sleep(supervise.ForceGap + 200*time.Millisecond)
				cmd.Process.Signal(syscall.SIGINT)
			}
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(supervise.StopDeadline + 30*time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("not ended %s after SIGINT; stderr:\n%s", time.Since(sent), stderr.String())
			}
			took := time.Since(sent)
			msg := stderr.String()
			if code := cmd.ProcessState.ExitCode(); code != exitSIGINT {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitSIGINT, msg)
			}
			switch {
			case !second && (took < supervise.StopDeadline || !strings.Contains(msg, "did not stop within")):
				t.Errorf("ended after %s (deadline %s); stderr:\n%s", took, supervise.StopDeadline, msg)
			case second && (took >= supervise.StopDeadline || !strings.Contains(msg, "again: stopping at once")):
				t.Errorf("ended after %s by the second Ctrl-C (deadline %s); stderr:\n%s", took, supervise.StopDeadline, msg)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("output %s exists (%v)", out, err)
			}
			csv := filepath.Join(dir, "log.csv")
			os.WriteFile(csv, []byte("id,time\na,2021-01-01T00:00:00Z\na,2021-01-02T00:00:00Z\n"), 0o644)
			if code, msg := stderrOf(t, "-q", "ingest", csv, "--id", "id", "--time", "time", "-o", out); code != exitOK {
				t.Fatalf("ingest again: exit %d: %s", code, msg)
			}
			if hasTemp(dir) {
				t.Errorf("the next ingest into %s left the temporary directory in place: %v", out, dirNames(t, dir))
			}
		})
	}
}
