package tables

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/units"
)

// Style is the reader a table's cells are formatted for (HumanRows). The
// cells are the same in both, but for the minus sign.
type Style uint8

const (
	// Report is a document's reader (Markdown, HTML, LaTeX, figures): a
	// negative number takes the true minus sign U+2212 (−0.5), which
	// typesets as wide as "+".
	Report Style = iota
	// Terminal is a reader of the terminal, who also pipes the table to
	// sort, awk or grep and pastes it into a spreadsheet: a negative number
	// takes the ASCII hyphen-minus (-0.5), the only minus those tools read
	// as one; text from the data (a page title) is left as it is.
	Terminal
)

// ErrorPercent is the kind reports gives, in the tables it shows people,
// to the error columns of a method table (WMRD, KS): a Float fraction
// printed by ErrPercent. Tables are never written with it (the CSV keeps
// the producer's kind and values).
const ErrorPercent Kind = "reports-error-percent"

// Human formats one cell for people, by its column's kind: thousands
// separators for Int, about 4 significant digits for Float, a percentage for
// Percent, the natural unit for Seconds ("4.8 h", "3.2 d", "8.3 y"), SI sizes
// for Bytes, a UTC date for Time; NaN and missing cells print as "—".
func Human(k Kind, v any) string {
	switch k {
	case Int:
		if n, ok := AsInt(v); ok {
			return human.Comma(n)
		}
	case Bytes:
		if n, ok := AsInt(v); ok {
			return human.Bytes(n)
		}
	case Time:
		if n, ok := AsInt(v); ok {
			t := time.Unix(n, 0).UTC()
			if n%units.Day == 0 {
				return t.Format("2006-01-02")
			}
			return t.Format("2006-01-02 15:04:05")
		}
	case Float:
		if f, ok := AsFloat(v); ok {
			return human.Float(f)
		}
	case Percent:
		if f, ok := AsFloat(v); ok {
			if !finite(f) {
				return human.Float(f)
			}
			return human.Float(100*f) + "%"
		}
	case Seconds:
		if f, ok := AsFloat(v); ok {
			return human.Seconds(f)
		}
	case Duration:
		// Alone, a cell does not say its unit: HumanRows prints a
		// Duration column in the unit chosen for it.
		if f, ok := AsFloat(v); ok {
			return human.Plain(f)
		}
	}
	return humanOther(v)
}

// humanOther prints a string cell, or a cell whose type does not match its
// column (shown as it is rather than dropped).
func humanOther(v any) string {
	switch x := v.(type) {
	case nil:
		return human.Dash
	case string:
		return x
	case float64:
		return human.Float(x)
	case int64:
		return human.Comma(x)
	case int:
		return human.Comma(int64(x))
	case bool:
		return strconv.FormatBool(x)
	}
	return strings.TrimSpace(strings.ReplaceAll(fmt.Sprint(v), "\n", " "))
}

// Machine formats one cell for CSV: integers in full, floats with the
// shortest representation that reads back to the same float64, Percent as
// the fraction, Seconds in seconds, Time as RFC 3339 UTC, NaN and missing
// cells as the empty field.
func Machine(k Kind, v any) string {
	switch k {
	case Time:
		if n, ok := AsInt(v); ok {
			return time.Unix(n, 0).UTC().Format(time.RFC3339)
		}
	case Int, Bytes:
		if n, ok := AsInt(v); ok {
			return strconv.FormatInt(n, 10)
		}
	}
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		switch {
		case math.IsNaN(x):
			return ""
		case math.IsInf(x, 1):
			return "Inf"
		case math.IsInf(x, -1):
			return "-Inf"
		}
		return MachineFloat(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	}
	return fmt.Sprint(v)
}

// MachineHeader names a CSV column with the unit its raw values are in.
func MachineHeader(c Column) string {
	unit := c.Unit
	switch c.Kind {
	case Percent:
		unit = "fraction"
	case Seconds:
		unit = "s"
	case Duration:
		if unit == "" {
			unit = "s"
		}
	case Bytes:
		unit = "bytes"
	case Time:
		unit = "UTC"
	}
	if unit == "" {
		return c.Name
	}
	return c.Name + " (" + unit + ")"
}

// HumanHeads names the columns of t for people: each with its unit when
// the printed cells do not already carry one, a duration column
// (Duration, Seconds) with the unit HumanRows prints it in, chosen from
// its values (Table.DisplayUnit): "E[U] (d)" for intervals of
// about 60 days computed in hours.
func HumanHeads(t *Table) []string {
	heads := make([]string, len(t.Columns))
	for j := range t.Columns {
		heads[j] = HumanHead(t, j)
	}
	return heads
}

// HumanHead is the header of column j of t for people (see HumanHeads).
func HumanHead(t *Table, j int) string {
	c := t.Columns[j]
	if name, _, ok := t.DisplayUnit(j); ok {
		return c.Name + " (" + name + ")"
	}
	switch c.Kind {
	case Percent, Bytes, Time:
		return c.Name
	}
	if c.Unit == "" {
		return c.Name
	}
	return c.Name + " (" + c.Unit + ")"
}

// Numeric reports whether a column of kind k holds numbers, which every
// rendering for people right-aligns.
func Numeric(k Kind) bool {
	switch k {
	case Int, Float, Percent, Seconds, Duration, Bytes, ErrorPercent:
		return true
	}
	return false
}

// CellAt returns row[j], or nil when the row is short or j < 0 (a column
// col did not find).
func CellAt(row []any, j int) any {
	if j >= 0 && j < len(row) {
		return row[j]
	}
	return nil
}

// AsInt is v as an integer: an integer type, or a float64 without a
// fractional part.
func AsInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case int32:
		return int64(x), true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<62 {
			return int64(x), true
		}
	}
	return 0, false
}

// AsFloat is v as a float64: a float or an integer type.
func AsFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	}
	return 0, false
}

// MachineFloat is the shortest decimal that reads back to the same float64:
// fixed notation from 10⁻⁴ to 10²¹ (262250660, 0.254), exponent notation
// outside (1.2346e-05).
func MachineFloat(x float64) string {
	if a := math.Abs(x); a == 0 || a >= 1e-4 && a < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// HumanRows formats every cell of t for people in style s (see Human and
// Style), as every table of a report (Report) and the terminal (Terminal,
// Fprint) print them, column by
// column: a Time column whose values all fall on midnight UTC prints dates
// only, otherwise every cell shows date and time; a Float column of
// non-negative values with one below 10⁻³ (and none from 1,000 up) prints
// every value in the
// same scientific notation, so that errors of 2.4e-04 and 1.2e-02 can be
// compared at a glance instead of reading 2.421e-04 next to 0.01218; an
// Int column of identifiers (page_id, id, …_id) prints plain digits, since
// an id is a name, not a quantity (1663608137959423511, not
// 1,663,608,137,959,423,511); a Percent column prints every value with
// the same number of decimals (81.2% 85.5% 4.3%, not 81.2% 85.46% 4.3%),
// exactly 0 and 100% as such; a p-value column ("KS p", "Ljung–Box p")
// prints plain decimals, "< 0.001" below 10⁻³ (see pValue); fitted
// parameters print with a true minus sign; a duration column (Duration,
// Seconds) prints every value in one unit chosen from the column's values
// (Table.DisplayUnit; HumanHeads names it), never in e-notation:
// intervals of about 60 days computed in hours print as 60.25, under
// "E[U] (d)", where the CSV keeps 1446 under "E[U] (h)".
func HumanRows(t *Table, s Style) [][]string {
	dateOnly := make([]bool, len(t.Columns))
	sci := make([]bool, len(t.Columns))
	pctDec := make([]int, len(t.Columns))
	durFactor := make([]float64, len(t.Columns)) // 0: not a duration
	for j, c := range t.Columns {
		if _, f, ok := t.DisplayUnit(j); ok {
			durFactor[j] = f
		}
		sci[j] = c.Kind == Float && sciColumn(t.Rows, j)
		if c.Kind == Percent {
			pctDec[j] = percentDecimals(t.Rows, j)
		}
		if c.Kind != Time {
			continue
		}
		dateOnly[j] = true
		for _, r := range t.Rows {
			if n, ok := AsInt(CellAt(r, j)); ok && n%units.Day != 0 {
				dateOnly[j] = false
				break
			}
		}
	}
	out := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		row := make([]string, len(t.Columns))
		for j, c := range t.Columns {
			v := CellAt(r, j)
			if durFactor[j] != 0 {
				if f, ok := AsFloat(v); ok {
					row[j] = human.Plain(f * durFactor[j])
					continue
				}
			}
			if c.Kind == Time && !dateOnly[j] {
				if n, ok := AsInt(v); ok {
					row[j] = time.Unix(n, 0).UTC().Format("2006-01-02 15:04:05")
					continue
				}
			}
			if c.Kind == Int && idColumn(c.Name) {
				if n, ok := AsInt(v); ok {
					row[j] = strconv.FormatInt(n, 10)
					continue
				}
			}
			if c.Kind == Percent {
				if f, ok := AsFloat(v); ok && finite(f) {
					row[j] = percent(f, pctDec[j])
					continue
				}
			}
			if c.Kind == String && c.Name == "parameters" {
				if str, ok := v.(string); ok {
					row[j] = HumanParams(str)
					continue
				}
			}
			if c.Kind == Float && pColumn(c.Name) {
				if f, ok := AsFloat(v); ok && finite(f) {
					row[j] = pValue(f)
					continue
				}
			}
			if c.Kind == ErrorPercent {
				if f, ok := AsFloat(v); ok {
					row[j] = ErrPercent(f)
					continue
				}
			}
			if sci[j] {
				if f, ok := AsFloat(v); ok && finite(f) && f != 0 {
					row[j] = sciFloat(f)
					continue
				}
			}
			row[j] = Human(c.Kind, v)
		}
		if s == Terminal {
			for j, c := range t.Columns {
				if _, text := CellAt(r, j).(string); !text || c.Name == "parameters" {
					row[j] = strings.ReplaceAll(row[j], "−", "-")
				}
			}
		}
		out[i] = row
	}
	return out
}

// sciColumn tells whether column j of rows holds a finite non-zero value
// below 10⁻³, none of 1,000 or more (where thousands separators read
// better) and no negative one: errors, distances and p-values, not signed
// quantities such as correlations, whose values near 0 mean "about 0"
// and read better as −0.001113 than as −1.113e-03.
func sciColumn(rows [][]any, j int) bool {
	tiny := false
	for _, r := range rows {
		f, ok := AsFloat(CellAt(r, j))
		if !ok || !finite(f) || f == 0 {
			continue
		}
		if f < 0 {
			return false
		}
		a := f
		if a >= 999.95 {
			return false
		}
		if a < 1e-3 {
			tiny = true
		}
	}
	return tiny
}

// sciFloat prints f ≥ 0 with 4 significant digits in scientific notation:
// 2.421e-04, 1.218e-02.
func sciFloat(f float64) string { return strconv.FormatFloat(f, 'e', 3, 64) }

// idColumn tells whether a column named name holds identifiers rather than
// counts: "id", "page_id", "business_id", "rev id", ….
func idColumn(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	return n == "id" || strings.HasSuffix(n, "_id") || strings.HasSuffix(n, " id")
}

// percentDecimals chooses one number of decimals for the percentages of
// column j: 1, or more while the smallest non-zero |value| would print
// with fewer than 2 significant digits (0.25% → 2, 0.012% → 3), at most 3.
func percentDecimals(rows [][]any, j int) int {
	lo := math.Inf(1)
	for _, r := range rows {
		if f, ok := AsFloat(CellAt(r, j)); ok && finite(f) && f != 0 {
			lo = math.Min(lo, math.Abs(100*f))
		}
	}
	switch {
	case lo >= 1:
		return 1
	case lo >= 0.1:
		return 2
	default:
		return 3
	}
}

// percent prints the fraction f as a percentage with dec decimals, with
// a true minus sign; exactly 0 and 1 print as "0%" and "100%" (the oracle's
// ChangeRatio is 100%, not about 100.0%).
func percent(f float64, dec int) string {
	switch f {
	case 0:
		return "0%"
	case 1:
		return "100%"
	}
	s := strconv.FormatFloat(100*f, 'f', dec, 64)
	if strings.HasPrefix(s, "-") {
		s = "−" + s[1:]
		if strings.Trim(s[len("−"):], "0.") == "" {
			s = s[len("−"):] // −0.0 rounds to 0.0
		}
	}
	return s + "%"
}

// ErrPercent prints an error (a WMRD or KS distance, a fraction) as a
// percentage with two significant digits in plain decimals, never in
// e-notation: 0.000973 → "0.097%", 0.0083 → "0.83%", 0.0803 → "8.0%",
// 0.43 → "43%"; 0 → "0%", NaN → "—".
func ErrPercent(f float64) string {
	if !finite(f) {
		return human.Float(f)
	}
	return Sig2(100*f) + "%"
}

// HumanParams prints fitted parameters ("μ = -1.296 (ln h)") for people:
// a scale parameter that is a duration (β, ν) in its own display unit
// (human.Duration: "ν = 2510 h" → "ν = 104.6 d"), other values in
// e-notation in plain digits (human.Plain: "λ = 7.386e-05 /h" → "λ =
// 0.00007386 /h"; rates and μ stay in the computation unit), and a true
// minus sign (U+2212); the CSV keeps the text as the fit wrote it.
func HumanParams(s string) string {
	s = paramDuration.ReplaceAllStringFunc(s, func(m string) string {
		sub := paramDuration.FindStringSubmatch(m)
		f, err := strconv.ParseFloat(sub[2], 64)
		per, ok := UnitSeconds(sub[3])
		if err != nil || !ok || !finite(f) {
			return m
		}
		return sub[1] + " = " + human.Duration(f*per)
	})
	s = paramENotation.ReplaceAllStringFunc(s, func(m string) string {
		num := strings.TrimPrefix(m, "= ")
		f, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return m
		}
		return "= " + human.Plain(f)
	})
	return strings.ReplaceAll(s, "= -", "= −")
}

// paramDuration matches a scale parameter, a duration (Lomax β, Weibull
// ν), with its unit: "β = 2510 h".
var paramDuration = regexp.MustCompile(`(β|ν) = (-?[0-9]+(?:\.[0-9]+)?(?:e[+-][0-9]+)?) (s|min|h|d|w|y)\b`)

// paramENotation matches a parameter value in e-notation after "= ".
var paramENotation = regexp.MustCompile(`= -?[0-9]+(\.[0-9]+)?e[+-][0-9]+`)

// pColumn tells whether a column named name holds p-values: "p", "KS p",
// "Ljung–Box p", "p-value".
func pColumn(name string) bool {
	n := strings.TrimSpace(name)
	return n == "p" || strings.HasSuffix(n, " p") || strings.HasPrefix(n, "p-value")
}

// pValue prints a p-value in plain decimals with 4 significant digits
// (0.5885, 0.0213), and below 0.001 as "< 0.001" (0 included: a test
// statistic far out in the tail, not a probability of exactly 0).
func pValue(p float64) string {
	if p < 0.001 {
		return "< 0.001"
	}
	return strconv.FormatFloat(p, 'g', 4, 64)
}

// Sig2 prints f rounded to two significant digits, in plain decimals
// with thousands separators (0.62, 1.4, 12, 7,300); 0.9989 prints as 1.0.
func Sig2(f float64) string {
	if !finite(f) {
		return human.Float(f)
	}
	if f == 0 {
		return "0"
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 2, 64), 64)
	a := math.Abs(r)
	if a >= 100 {
		return human.Float(r)
	}
	dec := max(0, 1-int(math.Floor(math.Log10(a))))
	return strings.Replace(strconv.FormatFloat(r, 'f', dec, 64), "-", "−", 1)
}
