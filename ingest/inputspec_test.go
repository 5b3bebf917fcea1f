package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/generic"
)

// TestSkipLinesDetected: --skip-lines is honoured when the format is
// detected (no --format): a title line before a CSV header does not make
// the input an unknown format. Worked by hand: 3 records of 2 objects.
func TestSkipLinesDetected(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "log.csv", "Data pulled on 10/29/2014 at 11:05:58\nid,t\na,10\nb,20\na,30\n")
	g := generic.Options{ID: "id", Time: "t", TimeLayout: "epoch"}
	_, err := Run(t.Context(), Options{Inputs: []string{in}, Output: filepath.Join(dir, "x"), Generic: g})
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("without --skip-lines: %v, want a *FormatError", err)
	}
	g.SkipLines = 1
	s, ps := run(t, Options{Inputs: []string{in}, Generic: g})
	if len(ps) != 2 || s.Counts.RevisionsRead != 3 || s.Inputs[0].SkipLines != 1 || !strings.HasPrefix(s.Inputs[0].Format, KindGeneric) {
		t.Fatalf("pages %d, revisions %d, inputs %+v", len(ps), s.Counts.RevisionsRead, s.Inputs)
	}
	if str := s.String(); !strings.Contains(str, "1 line skipped before the header") {
		t.Errorf("summary:\n%s", str)
	}
}

// TestSkipLinesPerInput: INPUT:skip=N skips lines of that input alone; the
// others take --skip-lines (here 0). A file whose name ends in ":skip=1"
// is read as named, and the suffix of a file that exists under the name
// without it is the option.
func TestSkipLinesPerInput(t *testing.T) {
	dir := t.TempDir()
	titled := write(t, dir, "titled.csv", "Data pulled on 10/29/2014\nid,t\na,10\nb,20\n")
	plain := write(t, dir, "plain.csv", "id,t\nc,30\nd,40\ne,50\n")
	g := generic.Options{ID: "id", Time: "t", TimeLayout: "epoch"}
	out := filepath.Join(dir, "out")
	s, ps := run(t, Options{Inputs: []string{titled + ":skip=1", plain}, Output: out, Generic: g})
	if len(ps) != 5 || s.Counts.RevisionsRead != 5 {
		t.Fatalf("pages %d, revisions %d", len(ps), s.Counts.RevisionsRead)
	}
	if s.Inputs[0].Name != titled || s.Inputs[0].SkipLines != 1 || s.Inputs[1].Name != plain || s.Inputs[1].SkipLines != 0 {
		t.Errorf("inputs %+v", s.Inputs)
	}
	// The global --skip-lines 1 on both would eat plain.csv's header.
	g.SkipLines = 1
	s, ps = run(t, Options{Inputs: []string{titled, plain + ":skip=0"}, Generic: g})
	if len(ps) != 5 || s.Inputs[1].SkipLines != 0 {
		t.Errorf("skip=0 override: pages %d, inputs %+v", len(ps), s.Inputs)
	}
	// A real file named …:skip=1 is that file.
	odd := write(t, dir, "odd.csv:skip=1", "id,t\nf,60\n")
	g.SkipLines = 0
	s, ps = run(t, Options{Inputs: []string{odd}, Generic: g})
	if len(ps) != 1 || s.Inputs[0].Name != odd || s.Inputs[0].SkipLines != 0 {
		t.Errorf("odd name: pages %d, inputs %+v", len(ps), s.Inputs)
	}
	// Neither name exists: the error names the file without the suffix.
	_, err := Run(t.Context(), Options{Inputs: []string{filepath.Join(dir, "missing.csv:skip=2")}, Output: filepath.Join(dir, "y"), Generic: g})
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing.csv") || strings.Contains(err.Error(), "skip=2") {
		t.Errorf("missing: %v", err)
	}
}

// TestParseInput checks the suffix rule on names without files.
func TestParseInput(t *testing.T) {
	for _, c := range []struct {
		arg  string
		path string
		skip int
		err  bool
	}{
		{"-", "-", 3, false},
		{"-:skip=2", "-", 2, false},
		{"a.csv", "a.csv", 3, false},
		{"a.csv:skip=0", "a.csv", 0, false},
		{"a.csv:skip=12", "a.csv", 12, false},
		{"a.csv:skip=", "a.csv:skip=", 3, false},
		{"a.csv:skip=-1", "a.csv:skip=-1", 3, false},
		{"a:skip=1:b", "a:skip=1:b", 3, false},
		{"a.csv:skip=99999999999999999999", "", 0, true},
	} {
		got, err := parseInput(c.arg, 3)
		if (err != nil) != c.err || (!c.err && (got.path != c.path || got.skip != c.skip)) {
			t.Errorf("%q: %+v, %v; want %q %d (error %v)", c.arg, got, err, c.path, c.skip, c.err)
		}
	}
}
