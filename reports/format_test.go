package reports

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

func TestHuman(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		k    tables.Kind
		v    any
		want string
		how  string
	}{
		{tables.Int, int64(15180), "15,180", "Anarchism's revisions with a thousands separator"},
		{tables.Int, int64(-1234567), "−1,234,567", "true minus sign"},
		{tables.Int, nil, "—", "missing cell"},
		{tables.Int, nan, "—", "NaN in an int column"},
		{tables.Float, 4.80123, "4.801", "4 significant digits"},
		{tables.Float, 0.123456, "0.1235", "4 significant digits, rounded half up"},
		{tables.Float, 999.94, "999.9", "largest value kept with a decimal"},
		{tables.Float, 999.96, "1,000", "rounds to 1000: integer with separator"},
		{tables.Float, 12345.678, "12,346", "integers from 1,000 up"},
		{tables.Float, 0.001, "0.001", "smallest fixed-notation value"},
		{tables.Float, 0.000012346, "1.235e-05", "exponent below 10⁻³, 4 significant digits"},
		{tables.Float, 2.5e15, "2.500e+15", "exponent from 10¹⁵"},
		{tables.Float, -0.5, "−0.5", "true minus sign"},
		{tables.Float, 0.0, "0", "zero"},
		{tables.Float, nan, "—", "NaN"},
		{tables.Float, math.Inf(1), "∞", "+Inf"},
		{tables.Percent, 0.254, "25.4%", "0.254 × 100"},
		{tables.Percent, 1.0, "100%", "whole"},
		{tables.Percent, 0.000123, "0.0123%", "0.000123 × 100 = 0.0123"},
		{tables.Percent, nan, "—", "NaN"},
		{tables.Seconds, 17280.0, "4.8 h", "4.8 × 3600 s"},
		{tables.Seconds, 276480.0, "3.2 d", "3.2 × 86400 s"},
		{tables.Seconds, 262250660.0, "8.3 y", "Anarchism's lifetime: 262250660 s / 31557600 s = 8.31 y"},
		{tables.Seconds, 2700.0, "45 min", "45 × 60 s: integer from 10 of the unit"},
		{tables.Seconds, 59.96, "60 s", "59.96 s < 1 min stays in seconds; from 10 s up rounded to an integer"},
		{tables.Seconds, 0.0123, "12 ms", "12.3 ms"},
		{tables.Seconds, 0.0, "0 s", "zero"},
		{tables.Seconds, -17280.0, "−4.8 h", "negative"},
		{tables.Bytes, int64(999), "999 B", "below 1 kB"},
		{tables.Bytes, int64(1910314), "1.9 MB", "large.xml.lzma's size, SI"},
		{tables.Bytes, int64(123456789), "123 MB", "integer from 10 of the unit"},
		{tables.Bytes, int64(999999999), "1.0 GB", "rounding to 1000 MB moves to GB"},
		{tables.Time, int64(1002831527), "2001-10-11 20:18:47", "Anarchism's first revision (date -u -d @1002831527)"},
		{tables.Time, int64(1704067200), "2024-01-01", "midnight UTC: date only"},
		{tables.String, "Anarchism", "Anarchism", "as is"},
		{tables.String, nil, "—", "missing"},
	}
	for _, c := range cases {
		if got := Human(c.k, c.v); got != c.want {
			t.Errorf("Human(%s, %v) = %q, want %q (%s)", c.k, c.v, got, c.want, c.how)
		}
	}
}

func TestMachine(t *testing.T) {
	cases := []struct {
		k    tables.Kind
		v    any
		want string
	}{
		{tables.Int, int64(1<<60 + 1), "1152921504606846977"}, // 2^60+1, beyond float64's exact integers
		{tables.Float, 0.1, "0.1"},
		{tables.Float, 1.0 / 3, "0.3333333333333333"}, // shortest repr that reads back exactly
		{tables.Float, 262250660.0, "262250660"},
		{tables.Float, 1.2346e-05, "1.2346e-05"},
		{tables.Float, math.NaN(), ""},
		{tables.Float, math.Inf(-1), "-Inf"},
		{tables.Percent, 0.254, "0.254"}, // the fraction, not the percentage
		{tables.Seconds, 17280.0, "17280"},
		{tables.Bytes, int64(1910314), "1910314"},
		{tables.Time, int64(1002831527), "2001-10-11T20:18:47Z"},
		{tables.String, "a,b", "a,b"}, // quoting is the CSV writer's job
		{tables.String, nil, ""},
	}
	for _, c := range cases {
		if got := Machine(c.k, c.v); got != c.want {
			t.Errorf("Machine(%s, %v) = %q, want %q", c.k, c.v, got, c.want)
		}
		if f, ok := c.v.(float64); ok && finite(f) {
			back, err := strconv.ParseFloat(Machine(c.k, c.v), 64)
			if err != nil || back != f {
				t.Errorf("Machine(%v) does not read back: %v %v", f, back, err)
			}
		}
	}
}

// Time columns print dates only when every value falls on midnight UTC.
func TestHumanRowsTimeColumn(t *testing.T) {
	tb := tables.Table{Columns: []tables.Column{{Name: "d", Kind: tables.Time}},
		Rows: [][]any{{int64(1704067200)}, {int64(1704153600)}}} // 2024-01-01, 2024-01-02
	if got := HumanRows(&tb); got[0][0] != "2024-01-01" || got[1][0] != "2024-01-02" {
		t.Errorf("date-only column: %v", got)
	}
	tb.Rows = append(tb.Rows, []any{int64(1704067201)})
	if got := HumanRows(&tb); got[0][0] != "2024-01-01 00:00:00" || got[2][0] != "2024-01-01 00:00:01" {
		t.Errorf("mixed column: %v", got)
	}
}

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

// A Float column of non-negative values mixing values below 10⁻³ with
// larger ones prints all of them in one scientific notation (4 significant
// digits, written out by hand below), zero and missing cells as usual; a
// column without tiny values, with a value ≥ 1,000, or with a negative
// value (a correlation) keeps the ordinary format.
func TestHumanRowsScientificColumn(t *testing.T) {
	tb := tables.Table{Columns: []tables.Column{
		{Name: "wmrd", Kind: tables.Float},
		{Name: "ks", Kind: tables.Float},
		{Name: "big", Kind: tables.Float},
		{Name: "rho", Kind: tables.Float},
	}, Rows: [][]any{
		{2.421e-4, 0.5, 1234.0, 0.4537},
		{0.001218, 0.03961, 5e-4, -0.001113},
		{0.01267, 0.25, 2.0, 5.25e-4},
		{0.0, math.NaN(), 3.0, 0.0},
		{0.3, 0.1, 4.0, 0.1},
	}}
	want := [][]string{
		{"2.421e-04", "0.5", "1,234", "0.4537"},
		{"1.218e-03", "0.03961", "5.000e-04", "−0.001113"},
		{"1.267e-02", "0.25", "2", "5.250e-04"},
		{"0", "—", "3", "0"},
		{"3.000e-01", "0.1", "4", "0.1"},
	}
	got := HumanRows(&tb)
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Errorf("row %d col %s: %q, want %q", i, tb.Columns[j].Name, got[i][j], want[i][j])
			}
		}
	}
}

// Identifier columns print plain digits (an id is a name: a hashed page id
// 1663608137959423511 must not read 1,663,608,137,959,423,511), counts
// keep their thousands separators.
func TestHumanRowsIDColumn(t *testing.T) {
	tb := tables.Table{Columns: []tables.Column{
		{Name: "page_id", Kind: tables.Int},
		{Name: "updates", Kind: tables.Int},
		{Name: "id", Kind: tables.Int},
	}, Rows: [][]any{{int64(1663608137959423511), int64(15180), int64(12345)}}}
	got := HumanRows(&tb)[0]
	want := []string{"1663608137959423511", "15,180", "12345"}
	for j := range want {
		if got[j] != want[j] {
			t.Errorf("%s: %q, want %q", tb.Columns[j].Name, got[j], want[j])
		}
	}
}

// Percent columns print every value with the same decimals (hand-rounded
// below): one decimal while the smallest non-zero value is ≥ 1 %, two
// from 0.1 %, three below; exactly 0 and 100 % print as "0%" and "100%";
// missing values stay "—".
func TestHumanRowsPercentColumn(t *testing.T) {
	tb := tables.Table{Columns: []tables.Column{
		{Name: "ratio", Kind: tables.Percent},
		{Name: "small", Kind: tables.Percent},
		{Name: "tiny", Kind: tables.Percent},
	}, Rows: [][]any{
		{1.0, 0.0025, 0.00012},
		{0.812, 0.5, 0.5},
		{0.8546, math.NaN(), -0.0004},
		{0.0, 0.01, 0.0},
	}}
	want := [][]string{
		{"100%", "0.25%", "0.012%"},
		{"81.2%", "50.00%", "50.000%"},
		{"85.5%", "—", "−0.040%"},
		{"0%", "1.00%", "0%"},
	}
	got := HumanRows(&tb)
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Errorf("row %d col %s: %q, want %q", i, tb.Columns[j].Name, got[i][j], want[i][j])
			}
		}
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
	got := HumanRows(forPeople(&tb))
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
	if h := HumanRows(forPeople(&small)); len(h[0]) != 2 || h[0][0] != "12" {
		t.Errorf("small id hidden: %q", h)
	}
}
