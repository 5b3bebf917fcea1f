package reports

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/usage"
)

// Command refuses, before reading any input, a missing -o (bad usage)
// and an output directory revisit did not write (a refusal); an input
// that is not a results directory is bad input naming it.
func TestCommandRefusals(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine")
	file := filepath.Join(dir, "file")
	empty := filepath.Join(dir, "empty")
	for _, d := range []string{mine, empty} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{file, filepath.Join(mine, "notes.txt")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(dir, "missing")
	out := filepath.Join(dir, "rep")
	con := console.Console{Out: new(bytes.Buffer), Err: new(bytes.Buffer)}
	run := func(out string, in ...string) error {
		return Command(context.Background(), CommandOptions{Options: Options{Inputs: in}, Out: out}, con)
	}
	if err := run("", missing); !usage.Is(err) || err.Error() != "report: -o REPORT_DIR is required" {
		t.Errorf("no -o: %v", err)
	}
	if err := run(mine, missing); !usage.IsRefused(err) {
		t.Errorf("-o a directory of the user's: %v, want a refusal", err)
	}
	for _, c := range []struct {
		in   string
		want string
	}{
		{missing, "report: stat " + missing + ": no such file or directory"},
		{file, "report: " + file + " is not a directory (give the results directories analyze, replay or simulate wrote)"},
		{empty, "report: no tables or figures under " + empty + " (expected tables/*.json or figures/*.json, as analyze writes)"},
	} {
		if err := run(out, c.in); err == nil || usage.Is(err) || err.Error() != c.want {
			t.Errorf("input %s: %v, want bad input %q", c.in, err, c.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed report left %s: %v", out, err)
	}
}

// Command renders the tables and figures of its inputs, merged, and says
// where index.html is after the Findings; -q says nothing.
func TestCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "results")
	if err := findingsBundle().Write(in); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "rep")
	var stdout, stderr bytes.Buffer
	opt := CommandOptions{Options: Options{Inputs: []string{in}, Title: "t"}, Out: out}
	if err := Command(context.Background(), opt, console.Console{Out: &stdout, Err: &stderr}); err != nil {
		t.Fatal(err)
	}
	var findings bytes.Buffer
	WriteFindings(&findings, findingsBundle())
	n := len(findingsBundle().Tables)
	want := findings.String() + "report: " + strconv.Itoa(n) + " tables, 0 figures → " + filepath.Join(out, "index.html") + "\n"
	if stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("stdout %q, stderr\n%s\nwant\n%s", stdout.String(), stderr.String(), want)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Error(err)
	}
	stderr.Reset()
	if err := Command(context.Background(), opt, console.Console{Out: &stdout, Err: &stderr, Quiet: true}); err != nil || stderr.Len()+stdout.Len() != 0 {
		t.Errorf("-q: %v, printed %q %q", err, stdout.String(), stderr.String())
	}
}
