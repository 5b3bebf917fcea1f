package tables

import (
	"bytes"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/units"
)

// The terminal table of a slow source shows E[U] in days (median 1,446 h
// = 60.25 d), and the lifetime T (in years) in years, each column in one
// unit named in its header.
func TestFprintDurationColumns(t *testing.T) {
	tb := Table{Title: "Top pages",
		Columns: []Column{{Name: "title", Kind: String}, {Name: "E[U]", Unit: "h", Kind: Duration},
			{Name: "T", Unit: "years", Kind: Duration}, {Name: "span", Kind: Seconds}},
		Rows: [][]any{{"a", 1446.0, 8.3, 3.0 * units.Day}, {"b", 72.0, 2.5, units.Day}, {"c", 3000.0, 0.5, 2.0 * units.Day}}}
	var b bytes.Buffer
	if err := Fprint(&b, tb); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if got := strings.Fields(lines[1]); strings.Join(got, " ") != "title E[U] (d) T (y) span (d)" {
		t.Errorf("header = %q", lines[1])
	}
	for i, want := range []string{"a 60.25 8.3 3", "b 3 2.5 1", "c 125 0.5 2"} {
		if got := strings.Join(strings.Fields(lines[3+i]), " "); got != want {
			t.Errorf("row %d = %q, want %q", i, got, want)
		}
	}
}

// A title holding ESC, a tab or a line break reaches the terminal quoted with
// them escaped ("esc\x1b[2J"), so it cannot act on the terminal or break the
// table's lines and columns; the title and notes are escaped too.
func TestFprintEscapesTitles(t *testing.T) {
	tb := Table{Title: "Top \x1b[31mpages", Notes: []string{"note \x1b[2J"},
		Columns: []Column{{Name: "title", Kind: String}, {Name: "n", Kind: Int}},
		Rows:    [][]any{{"esc\x1b[2J", int64(1)}, {"new\nline", int64(2)}, {"a\tb", int64(3)}, {"plain", int64(4)}}}
	var b bytes.Buffer
	if err := Fprint(&b, tb); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if strings.ContainsRune(s, 0x1b) || strings.ContainsRune(s, '\t') {
		t.Errorf("control characters reach the terminal:\n%q", s)
	}
	lines := strings.Split(s, "\n")
	for i, want := range []string{`"esc\x1b[2J" 1`, `"new\nline" 2`, `"a\tb" 3`, "plain 4"} {
		if got := strings.Join(strings.Fields(lines[3+i]), " "); got != want {
			t.Errorf("row %d = %q, want %q", i, got, want)
		}
	}
	if lines[0] != `Top \x1b[31mpages` || !strings.Contains(s, `note \x1b[2J`) {
		t.Errorf("title or note not escaped:\n%s", s)
	}
}
