package tables

import (
	"math"
	"strconv"
	"testing"
)

func TestHuman(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		k    Kind
		v    any
		want string
		how  string
	}{
		{Int, int64(15180), "15,180", "Anarchism's revisions with a thousands separator"},
		{Int, int64(-1234567), "−1,234,567", "true minus sign"},
		{Int, nil, "—", "missing cell"},
		{Int, nan, "—", "NaN in an int column"},
		{Float, 4.80123, "4.801", "4 significant digits"},
		{Float, 0.123456, "0.1235", "4 significant digits, rounded half up"},
		{Float, 999.94, "999.9", "largest value kept with a decimal"},
		{Float, 999.96, "1,000", "rounds to 1000: integer with separator"},
		{Float, 12345.678, "12,346", "integers from 1,000 up"},
		{Float, 0.001, "0.001", "smallest fixed-notation value"},
		{Float, 0.000012346, "1.235e-05", "exponent below 10⁻³, 4 significant digits"},
		{Float, 2.5e15, "2.500e+15", "exponent from 10¹⁵"},
		{Float, -0.5, "−0.5", "true minus sign"},
		{Float, 0.0, "0", "zero"},
		{Float, nan, "—", "NaN"},
		{Float, math.Inf(1), "∞", "+Inf"},
		{Percent, 0.254, "25.4%", "0.254 × 100"},
		{Percent, 1.0, "100%", "whole"},
		{Percent, 0.000123, "0.0123%", "0.000123 × 100 = 0.0123"},
		{Percent, nan, "—", "NaN"},
		{Seconds, 17280.0, "4.8 h", "4.8 × 3600 s"},
		{Seconds, 276480.0, "3.2 d", "3.2 × 86400 s"},
		{Seconds, 262250660.0, "8.3 y", "Anarchism's lifetime: 262250660 s / 31557600 s = 8.31 y"},
		{Seconds, 2700.0, "45 min", "45 × 60 s: integer from 10 of the unit"},
		{Seconds, 59.96, "60 s", "59.96 s < 1 min stays in seconds; from 10 s up rounded to an integer"},
		{Seconds, 0.0123, "12 ms", "12.3 ms"},
		{Seconds, 0.0, "0 s", "zero"},
		{Seconds, -17280.0, "−4.8 h", "negative"},
		{Bytes, int64(999), "999 B", "below 1 kB"},
		{Bytes, int64(1910314), "1.9 MB", "large.xml.lzma's size, SI"},
		{Bytes, int64(123456789), "123 MB", "integer from 10 of the unit"},
		{Bytes, int64(999999999), "1.0 GB", "rounding to 1000 MB moves to GB"},
		{Time, int64(1002831527), "2001-10-11 20:18:47", "Anarchism's first revision (date -u -d @1002831527)"},
		{Time, int64(1704067200), "2024-01-01", "midnight UTC: date only"},
		{String, "Anarchism", "Anarchism", "as is"},
		{String, nil, "—", "missing"},
	}
	for _, c := range cases {
		if got := Human(c.k, c.v); got != c.want {
			t.Errorf("Human(%s, %v) = %q, want %q (%s)", c.k, c.v, got, c.want, c.how)
		}
	}
}

func TestMachine(t *testing.T) {
	cases := []struct {
		k    Kind
		v    any
		want string
	}{
		{Int, int64(1<<60 + 1), "1152921504606846977"}, // 2^60+1, beyond float64's exact integers
		{Float, 0.1, "0.1"},
		{Float, 1.0 / 3, "0.3333333333333333"}, // shortest repr that reads back exactly
		{Float, 262250660.0, "262250660"},
		{Float, 1.2346e-05, "1.2346e-05"},
		{Float, math.NaN(), ""},
		{Float, math.Inf(-1), "-Inf"},
		{Percent, 0.254, "0.254"}, // the fraction, not the percentage
		{Seconds, 17280.0, "17280"},
		{Bytes, int64(1910314), "1910314"},
		{Time, int64(1002831527), "2001-10-11T20:18:47Z"},
		{String, "a,b", "a,b"}, // quoting is the CSV writer's job
		{String, nil, ""},
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
	tb := Table{Columns: []Column{{Name: "d", Kind: Time}},
		Rows: [][]any{{int64(1704067200)}, {int64(1704153600)}}} // 2024-01-01, 2024-01-02
	if got := HumanRows(&tb, Report); got[0][0] != "2024-01-01" || got[1][0] != "2024-01-02" {
		t.Errorf("date-only column: %v", got)
	}
	tb.Rows = append(tb.Rows, []any{int64(1704067201)})
	if got := HumanRows(&tb, Report); got[0][0] != "2024-01-01 00:00:00" || got[2][0] != "2024-01-01 00:00:01" {
		t.Errorf("mixed column: %v", got)
	}
}

// A Float column of non-negative values mixing values below 10⁻³ with
// larger ones prints all of them in one scientific notation (4 significant
// digits, written out by hand below), zero and missing cells as usual; a
// column without tiny values, with a value ≥ 1,000, or with a negative
// value (a correlation) keeps the ordinary format.
func TestHumanRowsScientificColumn(t *testing.T) {
	tb := Table{Columns: []Column{
		{Name: "wmrd", Kind: Float},
		{Name: "ks", Kind: Float},
		{Name: "big", Kind: Float},
		{Name: "rho", Kind: Float},
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
	got := HumanRows(&tb, Report)
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
	tb := Table{Columns: []Column{
		{Name: "page_id", Kind: Int},
		{Name: "updates", Kind: Int},
		{Name: "id", Kind: Int},
	}, Rows: [][]any{{int64(1663608137959423511), int64(15180), int64(12345)}}}
	got := HumanRows(&tb, Report)[0]
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
	tb := Table{Columns: []Column{
		{Name: "ratio", Kind: Percent},
		{Name: "small", Kind: Percent},
		{Name: "tiny", Kind: Percent},
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
	got := HumanRows(&tb, Report)
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Errorf("row %d col %s: %q, want %q", i, tb.Columns[j].Name, got[i][j], want[i][j])
			}
		}
	}
}
