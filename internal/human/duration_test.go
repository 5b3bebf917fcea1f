package human

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/internal/units"
)

// Expected values are worked out by hand from the rule: the largest of
// y (365.25 d), d, h, min, s of which the typical magnitude is ≥ 1.
func TestDisplayUnit(t *testing.T) {
	for _, c := range []struct {
		secs float64
		name string
		s    float64
	}{
		{1446 * 3600, "d", units.Day}, // 60.25 d
		{13540 * 3600, "y", units.Year},
		{units.Year, "y", units.Year}, {365 * units.Day, "d", units.Day},
		{units.Day, "d", units.Day}, {86399, "h", 3600},
		{-7200, "h", 3600}, {60, "min", 60}, {59.9, "s", 1}, {0.5, "s", 1},
		{0, "s", 1}, {math.NaN(), "s", 1}, {math.Inf(1), "s", 1},
	} {
		if n, s := DisplayUnit(c.secs); n != c.name || s != c.s {
			t.Errorf("DisplayUnit(%g) = %s, %g; want %s, %g", c.secs, n, s, c.name, c.s)
		}
	}
}

func TestTypicalMagnitude(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		v    []float64
		want float64
	}{
		{[]float64{0, 3, -1, nan, 2, inf}, 2}, // |v| of 3, −1, 2: median 2
		{[]float64{1, 4}, 2.5},
		{[]float64{-5}, 5},
	} {
		if got := TypicalMagnitude(c.v); got != c.want {
			t.Errorf("TypicalMagnitude(%v) = %g, want %g", c.v, got, c.want)
		}
	}
	if got := TypicalMagnitude([]float64{0, nan}); !math.IsNaN(got) {
		t.Errorf("TypicalMagnitude of no finite non-zero value = %g, want NaN", got)
	}
	// A column of intervals about 60 days long, computed in hours, is
	// shown in days (median 1,440 h = 60 d), even with a short one.
	if n, _ := DisplayUnitOf([]float64{1440 * 3600, 1500 * 3600, 3 * 3600}); n != "d" {
		t.Errorf("DisplayUnitOf(60-day intervals) = %s, want d", n)
	}
}

func TestPlain(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{13540.0 / 24, "564.2"}, {13540, "13,540"}, {60.25, "60.25"}, {0.2, "0.2"},
		{0.00012346, "0.0001235"}, {-0.0005, "−0.0005"}, {0.00100, "0.001"},
		{2e15, "2,000,000,000,000,000"}, {1e-13, "0"}, {0, "0"},
		{math.NaN(), "—"}, {math.Inf(1), "∞"},
	} {
		if got := Plain(c.f); got != c.want {
			t.Errorf("Plain(%g) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		secs float64
		want string
	}{
		{13540 * 3600, "1.545 y"}, // 13,540 h / 8,766 h
		{1.25 * 3600, "1.25 h"}, {564 * units.Day, "1.544 y"}, {300 * units.Day, "300 d"},
		{90, "1.5 min"}, {0, "0 s"}, {math.NaN(), "—"},
	} {
		if got := Duration(c.secs); got != c.want {
			t.Errorf("Duration(%g) = %q, want %q", c.secs, got, c.want)
		}
	}
	if got := DurationIn(48600, "d", units.Day); got != "0.5625 d" {
		t.Errorf("DurationIn(48600 s, d) = %q, want 0.5625 d", got)
	}
}
