package console

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// A log line reaches standard error escaped, and nothing does under -q.
func TestLogf(t *testing.T) {
	var out, errw bytes.Buffer
	c := Console{Out: &out, Err: &errw}
	c.Logf("read %s", "a\x1b[2Jb")
	if got, want := errw.String(), "read a\\x1b[2Jb\n"; got != want {
		t.Errorf("log line %q, want %q", got, want)
	}
	if c.Log() == nil {
		t.Error("Log() is nil without -q")
	}
	errw.Reset()
	q := Console{Out: &out, Err: &errw, Quiet: true}
	q.Logf("read %s", "x")
	if errw.Len() != 0 || out.Len() != 0 || q.Log() != nil || q.Terminal() != nil {
		t.Errorf("quiet console printed %q/%q or gave a log", errw.String(), out.String())
	}
}

// Tables are printed without -o whatever -q says, and with -o only
// without -q.
func TestPrintsTables(t *testing.T) {
	for _, c := range []struct {
		quiet bool
		out   string
		want  bool
	}{{false, "", true}, {true, "", true}, {false, "dir", true}, {true, "dir", false}} {
		if got := (Console{Quiet: c.quiet}).PrintsTables(c.out); got != c.want {
			t.Errorf("quiet %v, out %q: PrintsTables %v, want %v", c.quiet, c.out, got, c.want)
		}
	}
}

// PrintSafe escapes what it prints and returns the printer's error first.
func TestPrintSafe(t *testing.T) {
	var b bytes.Buffer
	boom := errors.New("boom")
	err := PrintSafe(&b, func(w io.Writer) error { io.WriteString(w, "t\x07itle\n"); return boom })
	if !errors.Is(err, boom) || b.String() != "t\\x07itle\n" {
		t.Errorf("PrintSafe: %q, %v", b.String(), err)
	}
	if (Console{Err: &b}).ErrIsTerminal() {
		t.Error("a buffer is a terminal")
	}
}

// No progress bar is drawn under -q or where standard error is not a
// terminal (a file, a pipe): the stage logs lines there instead.
func TestBarOnlyOnATerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "err")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, c := range []Console{{Err: new(strings.Builder)}, {Err: f}, {Err: f, Quiet: true}} {
		if b := c.Bar(10, "test", "pages"); b != nil {
			t.Errorf("a bar on %T (quiet %v)", c.Err, c.Quiet)
		}
	}
}
