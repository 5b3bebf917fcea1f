package reports

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

func TestTexEscapes(t *testing.T) {
	cases := map[string]string{
		`50% of a_b & c`: `50\% of a\_b \& c`,
		"λ = 2/h, Δ ≤ 1": `$\lambda$ = 2/h, $\Delta$ $\le$ 1`,
		"[0, 1)":         `{}[0, 1)`,
		`\x{y}`:          `\textbackslash{}x\{y\}`,
	}
	for in, want := range cases {
		if got := texText(in); got != want {
			t.Errorf("texText(%q) = %q, want %q", in, got, want)
		}
	}
	if got := texNumber("−1.235e-05"); got != `$-1.235\times10^{-5}$` {
		t.Errorf("texNumber = %q", got)
	}
}

// A text cell that a spreadsheet would evaluate gets a leading "'"; a
// negative number in a numeric column, and a curve name that is plain
// text, do not.
func TestCSVFormulaGuard(t *testing.T) {
	tb := tables.Table{ID: "g", Columns: []tables.Column{{Name: "title", Kind: tables.String}, {Name: "r", Kind: tables.Float}, {Name: "n", Kind: tables.Int}},
		Rows: [][]any{{"=1+2", -1.5, int64(-3)}, {"+x", 2.0, int64(1)}, {"-x", 0.0, int64(0)}, {"@x", 0.0, int64(0)}, {"\tx", 0.0, int64(0)}, {"\rx", 0.0, int64(0)}, {"plain -x", -0.25, int64(0)}}}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, &tb); err != nil {
		t.Fatal(err)
	}
	want := "title,r,n\n'=1+2,-1.5,-3\n'+x,2,1\n'-x,0,0\n'@x,0,0\n'\tx,0,0\n\"'\rx\",0,0\nplain -x,-0.25,0\n"
	if got := buf.String(); got != want {
		t.Errorf("CSV:\n%q\nwant\n%q", got, want)
	}
	f := tables.Figure{ID: "f", Curves: []tables.Curve{{Name: "-fit", X: []float64{-1}, Y: []float64{2}}, {Name: "M2", X: []float64{1}, Y: []float64{-2}}}}
	buf.Reset()
	if err := WriteCurvesCSV(&buf, &f); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "curve,x,y\n'-fit,-1,2\nM2,1,-2\n"; got != want {
		t.Errorf("curves CSV:\n%q\nwant\n%q", got, want)
	}
}

// p-values print in plain decimals, "< 0.001" below 10⁻³ (0 included);
// fitted parameters print with U+2212; a column of hashed page ids is
// left out for people when the table has titles, kept in the CSV.
func TestHumanPValuesParamsAndHashedIDs(t *testing.T) {
	tb := tables.Table{Columns: []tables.Column{{Name: "page_id", Kind: tables.Int}, {Name: "title", Kind: tables.String},
		{Name: "KS p", Kind: tables.Float}, {Name: "Ljung–Box p", Kind: tables.Float}, {Name: "parameters", Kind: tables.String}},
		Rows: [][]any{
			{int64(3098926962929305644), "a", 0.5885, 0.0, "μ = -1.296 (ln h), σ = 2.2"},
			{int64(3098928062440933855), "b", 0.0213, 1.641e-79, "λ = 0.21 /h"},
			{int64(3098928062440933856), "c", 1.0, 0.001, "α = 0.45, β = 0.05 h"},
		}}
	got := tables.HumanRows(forPeople(&tb), tables.Report)
	want := [][]string{
		{"a", "0.5885", "< 0.001", "μ = −1.296 (ln h), σ = 2.2"},
		{"b", "0.0213", "< 0.001", "λ = 0.21 /h"},
		{"c", "1", "0.001", "α = 0.45, β = 3 min"}, // 0.05 h
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows\n%q\nwant\n%q", got, want)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, &tb); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); !strings.HasPrefix(s, "page_id,title,") || !strings.Contains(s, `3098926962929305644,a,0.5885,0,"μ = -1.296 (ln h)`) {
		t.Errorf("CSV lost the ids or changed a minus:\n%s", s)
	}
	// Small ids (Wikipedia's 12) stay: they mean something.
	small := tables.Table{Columns: tb.Columns[:2], Rows: [][]any{{int64(12), "Anarchism"}}}
	if h := tables.HumanRows(forPeople(&small), tables.Report); len(h[0]) != 2 || h[0][0] != "12" {
		t.Errorf("small id hidden: %q", h)
	}
}
