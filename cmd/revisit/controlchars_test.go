package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outputsOf runs execute(args) and returns its exit code and what it
// wrote to standard output and standard error.
func outputsOf(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	capture := func(f **os.File) (func() string, error) {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		saved := *f
		*f = w
		got := make(chan string)
		go func() { b, _ := io.ReadAll(r); got <- string(b) }()
		return func() string { *f = saved; w.Close(); return <-got }, nil
	}
	endOut, err := capture(&os.Stdout)
	if err != nil {
		t.Fatal(err)
	}
	endErr, err := capture(&os.Stderr)
	if err != nil {
		endOut()
		t.Fatal(err)
	}
	code = execute(args)
	return code, endOut(), endErr()
}

// File names reach the terminal with their control characters escaped:
// a name holding ESC [2J (clear the screen) is printed as \x1b[2J, in
// error messages and in summaries alike.
func TestControlCharactersInNamesAreEscaped(t *testing.T) {
	dir := t.TempDir()
	esc := "esc\x1b[2J"
	missing := filepath.Join(dir, esc+".xml")
	code, out, msg := outputsOf(t, "ingest", missing, "-o", filepath.Join(dir, "ds"))
	if code != exitBadInput {
		t.Errorf("ingest of a missing file: exit %d, want %d", code, exitBadInput)
	}
	if strings.ContainsRune(out+msg, 0x1b) || !strings.Contains(msg, `esc\x1b[2J.xml`) {
		t.Errorf("error message not escaped: %q", msg)
	}

	in := filepath.Join(dir, esc+".csv")
	os.WriteFile(in, []byte("id,time\na,2021-01-01T00:00:00Z\na,2021-01-02T00:00:00Z\na,2021-01-03T00:00:00Z\n"), 0o644)
	ds := filepath.Join(dir, "ds\x1b[31m")
	code, out, msg = outputsOf(t, "ingest", in, "--id", "id", "--time", "time", "-o", ds)
	if code != exitOK {
		t.Fatalf("ingest: exit %d: %s", code, msg)
	}
	if strings.ContainsRune(out+msg, 0x1b) {
		t.Errorf("ingest summary sends ESC to the terminal:\nstdout %q\nstderr %q", out, msg)
	}
	if !strings.Contains(out, `\x1b[31m`) {
		t.Errorf("ingest summary does not name the output: %q", out)
	}
	code, out, msg = outputsOf(t, "replay", ds, "-o", filepath.Join(dir, "rp\x1b[2J"))
	if code != exitOK {
		t.Fatalf("replay: exit %d: %s", code, msg)
	}
	if strings.ContainsRune(out+msg, 0x1b) || !strings.Contains(out, `rp\x1b[2J`) {
		t.Errorf("replay summary not escaped:\nstdout %q\nstderr %q", out, msg)
	}
}
