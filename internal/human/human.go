// Package human is revisit's one formatter of numbers for people: the
// cells of every table (tables.Human builds on it, for the report and the
// terminal alike) and every summary
// printed in the terminal (ingest, generate, replay, estimate, policies,
// simulate, analyze). It imports nothing of revisit, so that every stage
// can use it (a stage never imports a later one: ingest cannot import
// reports).
//
// Conventions: thousands separators with commas, a true minus sign (−),
// about 4 significant digits, SI byte prefixes, durations in their
// natural unit, and "—" for a missing value (NaN).
package human

import (
	"math"
	"strconv"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/revisit-dev/revisit/internal/units"
)

// Dash is printed for a missing value (NaN, null).
const Dash = "—"

// Comma prints an integer with thousands separators and a true minus
// sign: 1,234,567 and −1,000.
func Comma(n int64) string {
	if n < 0 {
		if n == math.MinInt64 {
			return "−" + humanize.Comma(n)[1:]
		}
		return "−" + humanize.Comma(-n)
	}
	return humanize.Comma(n)
}

// Count is "1 page" or "2,000 pages": n with thousands separators and the
// noun in the singular (n = 1) or plural.
func Count(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Comma(n) + " " + many
}

// Float prints about 4 significant digits: 0.1235, 12.35, 999.9, and
// integers with separators from 1,000 up (1,235, 12,346); 1.235e-05 below
// 10⁻³ and 1.235e+15 from 10¹⁵ up; "∞", "−∞", and "—" for NaN.
func Float(f float64) string {
	switch {
	case math.IsNaN(f):
		return Dash
	case math.IsInf(f, 1):
		return "∞"
	case math.IsInf(f, -1):
		return "−∞"
	case f == 0:
		return "0"
	}
	a := math.Abs(f)
	neg := ""
	if f < 0 {
		neg = "−"
	}
	switch {
	case a >= 1e15:
		return neg + strconv.FormatFloat(a, 'e', 3, 64)
	case a >= 999.95: // 4 or more integer digits: round to an integer
		return neg + Comma(int64(math.Round(a)))
	case a >= 1e-3:
		return neg + strconv.FormatFloat(a, 'g', 4, 64)
	default:
		return neg + strconv.FormatFloat(a, 'e', 3, 64)
	}
}

// durationUnit is the natural unit of Seconds for a ≥ 0 seconds: the
// largest of y (365.25 d), d, h, min, s, ms and µs in which a is at least
// 1 (µs below that).
func durationUnit(a float64) (name string, s float64) {
	for _, u := range [...]struct {
		name string
		s    float64
	}{{"y", units.Year}, {"d", units.Day}, {"h", 3600}, {"min", 60}, {"s", 1}, {"ms", 1e-3}} {
		if a >= u.s {
			return u.name, u.s
		}
	}
	return "µs", 1e-6
}

// Seconds prints a duration in seconds in its natural unit: the largest
// unit in which it is at least 1, one decimal below 10 of that unit and
// none from 10 up ("4.8 h", "3.2 d", "8.3 y", "45 min"); "0 s", and "—"
// for NaN.
func Seconds(f float64) string {
	switch {
	case math.IsNaN(f):
		return Dash
	case math.IsInf(f, 0):
		return Float(f)
	case f == 0:
		return "0 s"
	}
	a := math.Abs(f)
	neg := ""
	if f < 0 {
		neg = "−"
	}
	name, s := durationUnit(a)
	x := a / s
	var v string
	if math.Round(x*10)/10 < 10 {
		v = strconv.FormatFloat(x, 'f', 1, 64)
	} else {
		v = Comma(int64(math.Round(x)))
	}
	return neg + v + " " + name
}

// Bytes prints a size with SI prefixes: "999 B", "1.9 MB", "123 MB",
// "1.0 GB" (one decimal below 10 of the unit, none from 10 up; rounding
// that reaches 1000 moves to the next unit).
func Bytes(n int64) string {
	neg := ""
	a := float64(n)
	if n < 0 {
		neg, a = "−", -a
	}
	if a < 1000 {
		return neg + strconv.FormatFloat(a, 'f', 0, 64) + " B"
	}
	units := [...]string{"kB", "MB", "GB", "TB", "PB", "EB"}
	for i, u := range units {
		x := a / math.Pow(1000, float64(i+1))
		if math.Round(x) >= 1000 && i+1 < len(units) {
			continue
		}
		if math.Round(x*10)/10 < 10 {
			return neg + strconv.FormatFloat(x, 'f', 1, 64) + " " + u
		}
		return neg + strconv.FormatFloat(x, 'f', 0, 64) + " " + u
	}
	return neg + strconv.FormatFloat(a, 'e', 2, 64) + " B"
}

// Rate prints n things done in d per second, rounded down to an integer
// with separators ("12,345"); "0" when d ≤ 0.
func Rate(n int64, d time.Duration) string {
	sec := d.Seconds()
	if sec <= 0 {
		return "0"
	}
	return Comma(int64(float64(n) / sec))
}

// ByteRate prints n bytes done in d per second ("123 MB/s"); "0 B/s" when
// d ≤ 0.
func ByteRate(n int64, d time.Duration) string {
	sec := d.Seconds()
	if sec <= 0 {
		return "0 B/s"
	}
	return Bytes(int64(float64(n)/sec)) + "/s"
}

// Elapsed prints a wall-clock duration: "708 ms" under a second, else
// rounded to a tenth of a second as Go prints it ("12.3s", "2m5.1s").
func Elapsed(d time.Duration) string {
	if d < time.Second {
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	return d.Round(100 * time.Millisecond).String()
}
