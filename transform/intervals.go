package transform

import (
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// Common units, in seconds (see package units).
const (
	Second = units.Second
	Minute = units.Minute
	Hour   = units.Hour
	Day    = units.Day
	Week   = units.Week
	Year   = units.Year
)

// ParseUnit reads a unit name (s, min, h, d, w, y and their long forms) and
// returns its length in seconds: see units.ParseUnit.
func ParseUnit(s string) (float64, error) { return units.ParseUnit(s) }

// UnitName is the short name of a unit returned by ParseUnit: see
// units.Name.
func UnitName(unit float64) string { return units.Name(unit) }

// DefaultUnit is hours for sources with 1-second resolution (Wikipedia, git
// logs) and days for date-only sources (Yelp), as SPEC §3 says.
func DefaultUnit(p *series.Page) float64 {
	if p.Resolution >= units.Day {
		return Day
	}
	return Hour
}

// Intervals returns U_i = (u_{i+1} − u_i)/unit for the page's sorted update
// times: n−1 values for n updates.
func Intervals(updates []int64, unit float64) []float64 {
	if len(updates) < 2 {
		return nil
	}
	u := make([]float64, len(updates)-1)
	for i := range u {
		u[i] = float64(updates[i+1]-updates[i]) / unit
	}
	return u
}

// Times returns the update times relative to the first one, in unit:
// t_i = (u_i − u_0)/unit, so the observation window is [0, T].
func Times(updates []int64, unit float64) []float64 {
	t := make([]float64, len(updates))
	for i, u := range updates {
		t[i] = float64(u-updates[0]) / unit
	}
	return t
}

// Lifetime is T = u_last − u_first in unit.
func Lifetime(updates []int64, unit float64) float64 {
	if len(updates) == 0 {
		return 0
	}
	return float64(updates[len(updates)-1]-updates[0]) / unit
}
