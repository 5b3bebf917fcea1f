package human

import (
	"math"
	"slices"
	"strconv"

	"github.com/dustin/go-humanize"

	"github.com/revisit-dev/revisit/internal/units"
)

// Display units of durations for people, from the largest: a value
// shown in one of them reads without e-notation and without a long run
// of digits. A year is the Julian year, 365.25 days, as in --unit y.
var displayUnits = [...]struct {
	name string
	s    float64
}{{"y", units.Year}, {"d", units.Day}, {"h", 3600}, {"min", 60}, {"s", 1}}

// DisplayUnit is the unit in which people read durations whose typical
// magnitude is typ seconds: the largest of y, d, h, min and s of which typ
// is at least 1 ("s" when typ is below a second, zero, NaN or infinite).
// It returns the unit's name and its length in seconds. Callers pass the
// median |value| of a table column, of a figure axis or of the values of
// one message, so that a column of intervals around 60 days reads
// "60.2 d" and not "1,445 h", and every value of a column shares a unit.
func DisplayUnit(typ float64) (name string, s float64) {
	if finite(typ) {
		for _, u := range displayUnits {
			if math.Abs(typ) >= u.s {
				return u.name, u.s
			}
		}
	}
	return "s", 1
}

// DisplayUnitOf is DisplayUnit of the median of |v| over the finite,
// non-zero values of secs (durations in seconds): the unit one column,
// axis or message shows all of them in.
func DisplayUnitOf(secs []float64) (name string, s float64) {
	return DisplayUnit(TypicalMagnitude(secs))
}

// TypicalMagnitude is the median of |v| over the finite non-zero values
// of v (the mean of the middle two for an even count), NaN when there is
// none: the magnitude a display unit is chosen from. Zeros are left out
// so that a column of mostly-zero durations still gets the unit of its
// non-zero ones.
func TypicalMagnitude(v []float64) float64 {
	a := make([]float64, 0, len(v))
	for _, x := range v {
		if finite(x) && x != 0 {
			a = append(a, math.Abs(x))
		}
	}
	if len(a) == 0 {
		return math.NaN()
	}
	slices.Sort(a)
	n := len(a)
	if n%2 == 1 {
		return a[n/2]
	}
	return (a[n/2-1] + a[n/2]) / 2
}

// Plain prints a number as Float does — about 4 significant digits,
// thousands separators from 1,000, a true minus sign, "—" for NaN — but
// never in e-notation: from 10¹⁵ up as a whole number with separators,
// below 10⁻³ in plain decimals to 4 significant digits (0.0001235), and
// "0" below 10⁻¹² (a duration 10¹² times shorter than its column's unit
// is none). It prints durations already converted to a display unit.
func Plain(f float64) string {
	switch {
	case !finite(f) || f == 0:
		return Float(f)
	}
	a := math.Abs(f)
	neg := ""
	if f < 0 {
		neg = "−"
	}
	switch {
	case a >= 1e15:
		return neg + humanize.Commaf(math.Round(a))
	case a >= 1e-3:
		return neg + Float(a)
	case a < 1e-12:
		return "0"
	}
	// 4 significant digits: decimals = 3 − ⌊log10 a⌋, trailing zeros off.
	dec := 3 - int(math.Floor(math.Log10(a)))
	s := strconv.FormatFloat(a, 'f', dec, 64)
	for len(s) > 1 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return neg + s
}

// DurationIn prints a duration of secs seconds in the display unit (name,
// s seconds long) with Plain and the unit: DurationIn(48600, "d", 86400)
// is "0.5625 d". Messages that state several related durations choose the
// unit once (DisplayUnitOf) and print each with it.
func DurationIn(secs float64, name string, s float64) string {
	if !finite(secs) {
		return Float(secs)
	}
	return Plain(secs/s) + " " + name
}

// Duration prints one duration of secs seconds in its own display unit
// with 4 significant digits: "1.25 h", "564.2 d", "1.545 y" (Seconds
// rounds harder: "1.5 y"); "0 s" for 0, "—" for NaN. It states a given
// parameter (Δ = 1.25 h) without losing its digits.
func Duration(secs float64) string {
	if secs == 0 {
		return "0 s"
	}
	name, s := DisplayUnit(secs)
	return DurationIn(secs, name, s)
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
