package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

func writeList(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pages.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Digits-only lines are ids, everything else titles; comments, blank
// lines, blanks around entries, a BOM and CRLF endings are ignored;
// duplicates count once.
func TestReadPageList(t *testing.T) {
	p := writeList(t, "\uFEFF# my pages\r\n12\r\n\r\n  Albert Einstein  \n#34\n 007\nR2-D2\n1984 film\n12\n  # indented comment\nAlbert Einstein\n-5\n3.0\nC#\n")
	l, err := ReadPageList(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{12, 7}; !reflect.DeepEqual(l.IDs, want) {
		t.Errorf("ids %v, want %v", l.IDs, want)
	}
	if want := []string{"Albert Einstein", "R2-D2", "1984 film", "-5", "3.0", "C#"}; !reflect.DeepEqual(l.Titles, want) {
		t.Errorf("titles %q, want %q", l.Titles, want)
	}
}

func TestReadPageListErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.txt")
	for _, c := range []struct {
		name, text, want string
	}{
		{"missing", "", "no such file"},
		{"empty", "# only\n\n   \n", "no page id or title (3 lines"},
		{"overflow", "1\n99999999999999999999\n", ":2: page id 99999999999999999999 does not fit"},
		{"not utf-8", "ok\n\xff\xfe\n", ":2: not UTF-8"},
	} {
		p := missing
		if c.name != "missing" {
			p = writeList(t, c.text)
		}
		_, err := ReadPageList(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v, want one naming %s and saying %q", c.name, err, p, c.want)
		}
		_, err = NewSelection(p, "", nil)
		var se *SelectionError
		if err == nil || errors.As(err, &se) {
			t.Errorf("%s: NewSelection: %v, want a plain (bad input) error", c.name, err)
		}
	}
}

func TestNewSelectionUsageErrors(t *testing.T) {
	for _, c := range []struct {
		match  string
		groups []string
	}{{"(unclosed", nil}, {"a**", nil}, {"", []string{"a", ""}}} {
		_, err := NewSelection("", c.match, c.groups)
		var se *SelectionError
		if !errors.As(err, &se) {
			t.Errorf("NewSelection(%q, %q) = %v, want a SelectionError", c.match, c.groups, err)
		}
	}
	if s, err := NewSelection("", "", nil); s != nil || err != nil {
		t.Errorf("no flags: %v, %v, want no selection", s, err)
	}
}

// Keep is the AND of the criteria, the list being ids OR titles; the
// summary counts pages and names the entries and groups no page has,
// whatever the other criteria.
func TestSelectionKeep(t *testing.T) {
	p := writeList(t, "1\n2\nGamma\n99\nNo Such Page\n3\n")
	pages := []series.Page{
		{ID: 1, Title: "Alpha", Group: "(Main)"},
		{ID: 2, Title: "Beta", Group: "Talk"},
		{ID: 3, Title: "Gamma", Group: "(Main)"},
		{ID: 4, Title: "Gamma", Group: "Talk"}, // by title
		{ID: 5, Title: "Delta", Group: "(Main)"},
	}
	for _, c := range []struct {
		name   string
		file   string
		match  string
		groups []string
		want   []int64
	}{
		{"list", p, "", nil, []int64{1, 2, 3, 4}},
		{"match", "", "^[AG]", nil, []int64{1, 3, 4}},
		{"group", "", "", []string{"Talk"}, []int64{2, 4}},
		{"list and match", p, "a$", nil, []int64{1, 2, 3, 4}},
		{"all three", p, "^G", []string{"Talk", "Nowhere"}, []int64{4}},
		{"groups", "", "", []string{"Talk", "(Main)"}, []int64{1, 2, 3, 4, 5}},
	} {
		s, err := NewSelection(c.file, c.match, c.groups)
		if err != nil {
			t.Fatal(err)
		}
		tl := s.Tally()
		var got []int64
		for i := range pages {
			if tl.Keep(&pages[i]) {
				got = append(got, pages[i].ID)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: kept %v, want %v", c.name, got, c.want)
		}
		sum := tl.Summary()
		if sum.Read != 5 || sum.Selected != int64(len(c.want)) {
			t.Errorf("%s: read %d selected %d, want 5 and %d", c.name, sum.Read, sum.Selected, len(c.want))
		}
		if c.file != "" && (sum.Unmatched != 2 || !reflect.DeepEqual(sum.UnmatchedFirst, []string{"99", `"No Such Page"`})) {
			t.Errorf("%s: unmatched %d %q, want 99 and \"No Such Page\"", c.name, sum.Unmatched, sum.UnmatchedFirst)
		}
		if c.name == "all three" && !reflect.DeepEqual(sum.UnmatchedGroups, []string{"Nowhere"}) {
			t.Errorf("%s: unmatched groups %q", c.name, sum.UnmatchedGroups)
		}
	}
	var none *Selection
	if tl := none.Tally(); !tl.Keep(&pages[0]) || tl.Summary() != nil {
		t.Error("no selection must keep every page and summarise nothing")
	}
}

// The summary lists the first MaxUnmatchedListed unmatched entries in
// file order and counts the rest; the digest ignores order, comments and
// duplicates.
func TestSelectionSummaryAndDigest(t *testing.T) {
	var lines []string
	for i := range 8 {
		lines = append(lines, string(rune('a'+i)))
	}
	s, err := NewSelection(writeList(t, strings.Join(lines, "\n")), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := s.Tally().Summary()
	if sum.Unmatched != 8 || !reflect.DeepEqual(sum.UnmatchedFirst, []string{`"a"`, `"b"`, `"c"`, `"d"`, `"e"`}) {
		t.Errorf("unmatched %d %q", sum.Unmatched, sum.UnmatchedFirst)
	}
	if d := sum.Describe(); !strings.Contains(d, `8 ids or titles not found: "a", "b", "c", "d", "e" and 3 more`) || !strings.Contains(d, "selected 0 of 0 pages by --pages") {
		t.Errorf("Describe = %q", d)
	}
	a, _ := NewSelection(writeList(t, "1\nx\n2\n"), "", nil)
	b, _ := NewSelection(writeList(t, "# same\n2\nx\n1\n1\n"), "", nil)
	c, _ := NewSelection(writeList(t, "1\nx\n3\n"), "", nil)
	if a.Spec().PagesDigest != b.Spec().PagesDigest || a.Spec().PagesDigest == c.Spec().PagesDigest {
		t.Errorf("digests %s %s %s: want the first two equal, the third different", a.Spec().PagesDigest, b.Spec().PagesDigest, c.Spec().PagesDigest)
	}
}
