package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outputOf runs execute(args) and returns its exit code and what it wrote
// to standard output and standard error.
func outputOf(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var got [2]string
	var pipes [2][2]*os.File
	done := make(chan struct{}, 2)
	for i := range pipes {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		pipes[i] = [2]*os.File{r, w}
		go func() {
			b, _ := io.ReadAll(r)
			got[i] = string(b)
			done <- struct{}{}
		}()
	}
	savedOut, savedErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = pipes[0][1], pipes[1][1]
	code = execute(args)
	os.Stdout, os.Stderr = savedOut, savedErr
	for _, p := range pipes {
		p[1].Close()
	}
	<-done
	<-done
	for _, p := range pipes {
		p[0].Close()
	}
	return code, got[0], got[1]
}

// -q, in every command: a successful command prints nothing, on standard
// output or standard error, except its result when standard output is
// where it goes (README "Commands": the tables of schedule, simulate and
// policies without -o, analyze --recommend, generate -o -).
func TestQuietIsSilent(t *testing.T) {
	p, log := refusalFixtures(t)
	for _, c := range []struct {
		name   string
		args   []string // -o is added unless printed is set
		result bool     // standard output is the result: printed with -q too
	}{
		{"ingest", append([]string{"ingest"}, log...), false},
		{"generate parquet", []string{"generate", "--pages", "3", "--format", "parquet"}, false},
		{"generate mediawiki", []string{"generate", "--pages", "3"}, false},
		{"replay", []string{"replay", p("ds"), "--top", "3"}, false},
		{"estimate", []string{"estimate", p("caps.cdx"), "--format", "cdx"}, false},
		{"analyze", []string{"analyze", p("ds"), p("rp"), "--reps", "19"}, false},
		{"simulate", []string{"simulate", "--T", "1e2", "--paths", "2"}, false},
		{"policies", []string{"policies", p("ds"), "--budget", "2", "--no-sweeps"}, false},
		{"schedule", []string{"schedule", p("rp"), "--budget", "30/d"}, false},
		{"schedule --validate", []string{"schedule", "--validate", p("ds"), "--sampler", "const:24", "--budget", "30/d"}, false},
		{"report", []string{"report", p("an")}, false},
		{"run", append([]string{"run"}, append(log, "--reps", "19")...), false},
		{"merge replay", []string{"merge", "replay", p("rs0"), p("rs1")}, false},
		{"merge analysis", []string{"merge", "analysis", p("as0"), p("as1")}, false},
		{"merge estimate", []string{"merge", "estimate", p("es0"), p("es1")}, false},
		{"merge dataset", []string{"merge", "dataset", p("ds")}, false},
		{"simulate without -o", []string{"simulate", "--T", "1e2", "--paths", "2"}, true},
		{"policies without -o", []string{"policies", p("ds"), "--budget", "2", "--no-sweeps"}, true},
		{"schedule without -o", []string{"schedule", p("rp"), "--budget", "30/d"}, true},
		{"analyze --recommend", []string{"analyze", "--recommend", p("rp")}, true},
		{"generate -o -", []string{"generate", "--pages", "3", "-o", "-"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"-q"}, c.args...)
			out := filepath.Join(t.TempDir(), "out")
			if c.name == "generate mediawiki" {
				out += ".xml"
			}
			if !c.result {
				args = append(args, "-o", out)
			}
			code, stdout, stderr := outputOf(t, args...)
			if code != exitOK {
				t.Fatalf("exit %d; stderr:\n%s", code, stderr)
			}
			if stderr != "" {
				t.Errorf("-q, and something on standard error:\n%.500s", stderr)
			}
			if c.result && strings.TrimSpace(stdout) == "" {
				t.Errorf("-q without -o: the result is not printed")
			}
			if !c.result && stdout != "" {
				t.Errorf("-q, and something on standard output:\n%.500s", stdout)
			}
		})
	}
}
