//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/crawllog"
	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/replay"
)

// asRevisit runs args as the revisit program would (this test binary,
// supervising a child that does the work) with the given standard output,
// and returns its exit code and standard error.
func asRevisit(t *testing.T, stdout *os.File, args ...string) (int, string) {
	t.Helper()
	cmd := revisitProcess(args...)
	var stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// closedPipe is the write end of a pipe whose reader has gone, as '| head'
// leaves standard output once head has read its lines.
func closedPipe(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() { w.Close() })
	return w
}

// One rule for a standard output that cannot be written, in every
// command: a closed pipe ('… | head') or a full disk (/dev/full) neither
// kills the command (SIGPIPE) nor stops its work: its output directory is
// complete, one line on standard error says what was cut short, and the
// exit code is the README's "standard output" row (141), whatever the
// command prints (tables before writing, like schedule, or a summary
// after). report prints nothing on standard output: exit 0.
func TestClosedStdoutKeepsOutputs(t *testing.T) {
	if testing.Short() {
		t.Skip("starts revisit processes")
	}
	want := readmeCode(t, "standard output")
	p, _ := refusalFixtures(t)
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		full = nil
	} else {
		defer full.Close()
	}
	for _, c := range []struct {
		name   string
		args   []string
		marker string // a file the complete output holds ("": no -o)
		full   bool   // also with standard output on /dev/full
		code   int    // -1: want
	}{
		{"ingest", []string{"ingest", p("log.csv"), "--id", "id", "--time", "time"}, dataset.ManifestFile, true, -1},
		{"replay", []string{"replay", p("ds"), "--top", "3"}, replay.MetaFile, false, -1},
		{"estimate", []string{"estimate", p("caps.cdx"), "--format", "cdx"}, crawllog.EstimateMetaFile, false, -1},
		{"analyze", []string{"analyze", p("ds"), p("rp"), "--reps", "19"}, atomicdir.EntriesFile, true, -1},
		{"schedule", []string{"schedule", p("rp"), "--budget", "30/d"}, "schedule.parquet", true, -1},
		{"simulate", []string{"simulate", "--T", "1e2", "--paths", "2"}, atomicdir.EntriesFile, false, -1},
		{"policies", []string{"policies", p("ds"), "--budget", "2", "--no-sweeps"}, atomicdir.EntriesFile, false, -1},
		{"merge replay", []string{"merge", "replay", p("rs0"), p("rs1")}, replay.MetaFile, false, -1},
		{"run", []string{"run", p("log.csv"), "--id", "id", "--time", "time", "--reps", "19"}, filepath.Join("report", "index.html"), false, -1},
		{"report", []string{"report", p("an")}, "index.html", false, exitOK},
		{"generate -o -", []string{"generate", "--pages", "200"}, "", false, -1},
	} {
		code := c.code
		if code < 0 {
			code = want
		}
		outs := []struct {
			what string
			f    *os.File
		}{{"closed pipe", nil}}
		if c.full && full != nil {
			outs = append(outs, struct {
				what string
				f    *os.File
			}{"/dev/full", full})
		}
		for _, o := range outs {
			t.Run(c.name+" "+o.what, func(t *testing.T) {
				f := o.f
				if f == nil {
					f = closedPipe(t)
				}
				out := filepath.Join(t.TempDir(), "out")
				args := append(append([]string{}, c.args...), "-o", out)
				if c.marker == "" {
					args = append(append([]string{}, c.args...), "-o", "-")
				}
				got, msg := asRevisit(t, f, args...)
				if got != code {
					t.Errorf("exit %d, want %d; stderr:\n%s", got, code, msg)
				}
				if c.marker != "" {
					if _, err := os.Stat(filepath.Join(out, c.marker)); err != nil {
						t.Errorf("the output is not complete: %v; stderr:\n%s", err, msg)
					}
				}
				if n := strings.Count(msg, "standard output"); (code == want) != (n == 1) {
					t.Errorf("%d lines about standard output on stderr, want %d:\n%s", n, map[bool]int{true: 1}[code == want], msg)
				}
			})
		}
	}
}
