package csvout

import (
	"encoding/csv"
	"math"
	"strings"
	"testing"
)

// hostile are text cells a spreadsheet would evaluate, or that CSV must
// quote, or that a terminal would act on.
var hostile = []string{`=HYPERLINK("http://x","y")`, "+1", "-2", "@SUM(A1)", "\tTab", "\rCR", "a,comma", `a"quote`, "new\nline", "esc\x1b[2J", "", "plain", "'quoted"}

// Text cells read back (encoding/csv) as the original with one "'" in
// front exactly when the original starts with = + - @ TAB CR or "'"; numbers,
// negative ones included, are never prefixed. The expected guard is the
// OWASP list, written out here rather than taken from Guarded.
func TestTextAndNumbers(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	if err := w.Header("title", "value", "n", "x"); err != nil {
		t.Fatal(err)
	}
	for i, s := range hostile {
		w.Text(s)
		w.Value("-1.3")
		w.Int(-int64(i))
		w.Float(-0.5 * float64(i))
		if err := w.End(); err != nil {
			t.Fatal(err)
		}
	}
	w.Text("nan")
	w.Value("")
	w.Int(0)
	w.Float(math.NaN())
	w.End()
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(hostile)+2 {
		t.Fatalf("%d records, want %d:\n%s", len(recs), len(hostile)+2, b.String())
	}
	for i, s := range hostile {
		r := recs[i+1]
		want := s
		switch {
		case strings.HasPrefix(s, "="), strings.HasPrefix(s, "+"), strings.HasPrefix(s, "-"), strings.HasPrefix(s, "@"),
			strings.HasPrefix(s, "\t"), strings.HasPrefix(s, "\r"), strings.HasPrefix(s, "'"):
			want = "'" + s
		}
		if r[0] != want {
			t.Errorf("text %q written as %q, want %q", s, r[0], want)
		}
		if r[1] != "-1.3" || (i > 0 && !strings.HasPrefix(r[2], "-")) || (i > 0 && !strings.HasPrefix(r[3], "-")) {
			t.Errorf("numbers of row %d prefixed: %q", i, r[1:])
		}
	}
	if last := recs[len(recs)-1]; last[3] != "" || last[2] != "0" {
		t.Errorf("NaN row %q, want an empty float cell", last)
	}
}

// README's rule for reading a text cell back, "strip one leading ' to get
// the original", holds for every text: also for one that starts with "'"
// itself (Wikipedia has "'Allo 'Allo!" and "'Tis Pity She's a Whore"),
// which Text therefore guards too. Before, "'Allo 'Allo!" was written as
// it is and read back as "Allo 'Allo!".
func TestTextReadsBackByStrippingOneQuote(t *testing.T) {
	for _, s := range append(hostile, "'Allo 'Allo!", "'", "''", "'=1+1", "=", "-", "x'") {
		cell := Text(s)
		if got := strings.TrimPrefix(cell, "'"); got != s {
			t.Errorf("Text(%q) = %q reads back as %q", s, cell, got)
		}
		if Guarded(s) != (cell != s) {
			t.Errorf("Guarded(%q) = %v, but Text gives %q", s, Guarded(s), cell)
		}
	}
}
