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

// The terminal prints a value as the report does: 1234.6 as "1,235"
// (4 significant digits, thousands separators from 1,000), percentages with
// one number of decimals per column chosen from its smallest value (0.0025
// → "0.25%", so the column reads 25.00% and 0.25%), a time not at
// midnight with its time of day (Anarchism's first revision, date -u -d
// @1002831527), an identifier in plain digits, fitted parameters in
// their display unit (ν = 0.7993 h = 47.96 min); only the minus sign
// differs, ASCII on the terminal (see Style).
func TestFprintCellsAsTheReport(t *testing.T) {
	tb := Table{Title: "t", Columns: []Column{
		{Name: "page_id", Kind: Int}, {Name: "x", Kind: Float}, {Name: "share", Kind: Percent},
		{Name: "first", Kind: Time}, {Name: "parameters", Kind: String}, {Name: "title", Kind: String}},
		Rows: [][]any{
			{int64(1663608137959423511), 1234.6, 0.25, int64(1002831527), "k = 1.003, ν = 0.7993 h", "a − b"},
			{int64(12), -0.5, 0.0025, int64(1704067200), "μ = -0.7986 (ln h)", "c"},
		}}
	var b bytes.Buffer
	if err := Fprint(&b, tb); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	want := [][]string{
		{"1663608137959423511", "1,235", "25.00%", "2001-10-11 20:18:47", "k = 1.003, ν = 47.96 min", "a − b"},
		{"12", "-0.5", "0.25%", "2024-01-01 00:00:00", "μ = -0.7986 (ln h)", "c"},
	}
	for i, w := range want {
		if got, w := strings.Join(strings.Fields(lines[3+i]), " "), strings.Join(w, " "); got != w {
			t.Errorf("row %d = %q, want %q", i, got, w)
		}
	}
	report := HumanRows(&tb, Report)
	for i, w := range want {
		for j := range w {
			if strings.ReplaceAll(report[i][j], "−", "-") != strings.ReplaceAll(w[j], "−", "-") {
				t.Errorf("row %d col %d: report %q, terminal %q", i, j, report[i][j], w[j])
			}
		}
	}
	if report[1][1] != "−0.5" || report[1][4] != "μ = −0.7986 (ln h)" || report[0][5] != "a − b" {
		t.Errorf("report style lost its minus sign, or the title was changed: %q", report)
	}
}

// Numbers are aligned right and text left, under a line of dashes as wide
// as each column: the layout of every table the commands print.
func TestFprintLayout(t *testing.T) {
	tb := Table{Title: "Sites", Notes: []string{"two sites"},
		Columns: []Column{{Name: "site", Kind: String}, {Name: "pages", Kind: Int}, {Name: "KS", Kind: Float}},
		Rows:    [][]any{{"en.wikipedia.org", int64(15180), -0.25}, {"x", int64(3), nil}}}
	var b bytes.Buffer
	if err := Fprint(&b, tb); err != nil {
		t.Fatal(err)
	}
	want := "Sites\n" +
		"site               pages     KS\n" +
		"----------------  ------  -----\n" +
		"en.wikipedia.org  15,180  -0.25\n" +
		"x                      3      —\n" +
		"  note: two sites\n\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
