package tables

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/units"
)

// IsDuration reports whether cells of kind k are durations (Duration or
// Seconds).
func IsDuration(k Kind) bool { return k == Duration || k == Seconds }

// UnitSeconds is the length in seconds of a unit as tables and figures
// name it: a --unit name in any spelling (s, min, h, d, w, y, hours,
// years; units.ParseUnit), a Go duration as units.Name prints other
// lengths ("1m30s"), or units.Label's "90 s". ok is false for anything
// else (a unit that is not a time: "h²", "1/h").
func UnitSeconds(name string) (s float64, ok bool) {
	if u, err := units.ParseUnit(name); err == nil {
		return u, true
	}
	n := strings.TrimSpace(name)
	if d, err := time.ParseDuration(n); err == nil && d > 0 {
		return d.Seconds(), true
	}
	if v, ok := strings.CutSuffix(n, " s"); ok {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 && !math.IsInf(f, 0) {
			return f, true
		}
	}
	return 0, false
}

// SecondsPerValue is how many seconds one raw value of c is worth: 1 for
// Seconds, the length of c.Unit for Duration (1 when Unit is empty). ok
// is false for a column that is not a duration, or a Duration whose Unit
// is not a time unit (it is then shown like a Float). A Duration whose
// Unit is a time unit squared ("h²": an MSE, a variance) has squared
// true and s is the length of the unit itself: a raw value v is worth
// v·s² square seconds.
func (c Column) SecondsPerValue() (s float64, squared, ok bool) {
	switch c.Kind {
	case Seconds:
		return 1, false, true
	case Duration:
		if c.Unit == "" {
			return 1, false, true
		}
		if base, sq := strings.CutSuffix(c.Unit, "²"); sq {
			s, ok = UnitSeconds(base)
			return s, true, ok
		}
		s, ok = UnitSeconds(c.Unit)
		return s, false, ok
	}
	return 0, false, false
}

// DisplayUnit is the unit in which people read column j of t (a
// Duration or Seconds column): human.DisplayUnit of the median |value|
// over the column's finite non-zero cells, in seconds — the largest of y,
// d, h, min and s of which that median is at least 1 — or over the cells
// of every duration column of its UnitGroup. A squared column (Unit
// "h²") counts with the square roots of its cells and is shown in the
// square of the unit ("d²"), so that an MSE grouped with its RMSE reads
// in the same unit. It returns the unit's name and the factor that turns
// a raw cell of column j into it (raw × factor); ok is false when column
// j is not a duration.
func (t *Table) DisplayUnit(j int) (name string, factor float64, ok bool) {
	if j < 0 || j >= len(t.Columns) {
		return "", 0, false
	}
	per, sq, ok := t.Columns[j].SecondsPerValue()
	if !ok {
		return "", 0, false
	}
	var secs []float64
	for k, c := range t.Columns {
		if k != j && (c.UnitGroup == "" || c.UnitGroup != t.Columns[j].UnitGroup) {
			continue
		}
		pk, sqk, ok := c.SecondsPerValue()
		if !ok {
			continue
		}
		for _, r := range t.Rows {
			if k < len(r) {
				if f, ok := r[k].(float64); ok {
					if sqk {
						f = math.Sqrt(math.Abs(f))
					}
					secs = append(secs, f*pk)
				}
			}
		}
	}
	name, s := human.DisplayUnitOf(secs)
	if sq {
		return name + "²", (per / s) * (per / s), true
	}
	return name, per / s, true
}

// AxisUnit is the unit in which people read an axis whose values vs are
// in unit (Figure.XUnit or YUnit): the display unit of the median |v|, and
// the factor that turns a value into it. ok is false when unit is empty
// or not a time unit (the axis is then shown as it is).
func AxisUnit(unit string, vs []float64) (name string, factor float64, ok bool) {
	if unit == "" {
		return "", 0, false
	}
	per, ok := UnitSeconds(unit)
	if !ok {
		return "", 0, false
	}
	secs := make([]float64, len(vs))
	for i, v := range vs {
		secs[i] = v * per
	}
	name, s := human.DisplayUnitOf(secs)
	return name, per / s, true
}

// AxisLabel is an axis label with its unit in parentheses ("interval x
// (h)"), the label alone when unit is empty.
func AxisLabel(label, unit string) string {
	if unit == "" {
		return label
	}
	return label + " (" + unit + ")"
}
