package tables

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/internal/units"
)

func TestUnitSeconds(t *testing.T) {
	for _, c := range []struct {
		name string
		s    float64
		ok   bool
	}{
		{"h", 3600, true}, {"d", units.Day, true}, {"years", units.Year, true}, {"min", 60, true},
		{"1m30s", 90, true}, {"90 s", 90, true}, {"1.5 s", 1.5, true},
		{"h²", 0, false}, {"1/h", 0, false}, {"", 0, false}, {"pages", 0, false},
	} {
		s, ok := UnitSeconds(c.name)
		if s != c.s || ok != c.ok {
			t.Errorf("UnitSeconds(%q) = %g, %v; want %g, %v", c.name, s, ok, c.s, c.ok)
		}
	}
}

// A slow source's intervals (about 60 days) computed in hours are shown
// in days; a column of the same table with minutes keeps its own unit,
// and columns of one UnitGroup share the unit of all their cells.
func TestDisplayUnit(t *testing.T) {
	tb := Table{
		Columns: []Column{
			{Name: "E[U]", Unit: "h", Kind: Duration},
			{Name: "Δ", Unit: "h", Kind: Duration},
			{Name: "Δ_ε exact", Unit: "h", Kind: Duration, UnitGroup: "g"},
			{Name: "Δ_ε Poisson", Unit: "h", Kind: Duration, UnitGroup: "g"},
			{Name: "span", Kind: Seconds},
			{Name: "n", Kind: Int},
			{Name: "var", Unit: "h²", Kind: Duration},
		},
		Rows: [][]any{
			{1440.0, 0.5, 30.0, 20.0, 3.0 * units.Day, int64(1), 1.0},
			{1500.0, 0.25, 10.0, math.NaN(), 5.0 * units.Day, int64(2), 2.0},
			{3.0, 0.75, 12.0, 9.0, nil, int64(3), 3.0},
		},
	}
	for _, c := range []struct {
		j      int
		name   string
		factor float64
	}{
		{0, "d", 1.0 / 24},        // median 1,440 h = 60 d
		{1, "min", 60},            // median 0.5 h = 30 min
		{2, "h", 1},               // group g: 30, 10, 12, 20, 9 h → median 12 h
		{3, "h", 1},               // the same unit as its group
		{4, "d", 1.0 / units.Day}, // seconds: median 4 d
	} {
		name, f, ok := tb.DisplayUnit(c.j)
		if !ok || name != c.name || math.Abs(f-c.factor) > 1e-15*c.factor {
			t.Errorf("column %d: DisplayUnit = %s, %g, %v; want %s, %g", c.j, name, f, ok, c.name, c.factor)
		}
	}
	// A squared column: |cells| 1, 2, 3 h² → roots 1, 1.414, 1.732 h,
	// median 1.414 h: shown in h².
	if name, f, ok := tb.DisplayUnit(6); !ok || name != "h²" || f != 1 {
		t.Errorf("column 6 (h²): DisplayUnit = %s, %g, %v; want h², 1, true", name, f, ok)
	}
	for _, j := range []int{5, 7, -1} {
		if _, _, ok := tb.DisplayUnit(j); ok {
			t.Errorf("column %d is not a duration, DisplayUnit says it is", j)
		}
	}
}

// An MSE grouped with its RMSE is shown in the square of the RMSE's unit:
// RMSE 600 h and 1,200 h, MSE 360,000 h² and 1,440,000 h² (roots 600 and
// 1,200 h): median over the group 900 h = 37.5 d, so d and d² (1/24²).
func TestDisplayUnitSquared(t *testing.T) {
	tb := Table{
		Columns: []Column{{Name: "MSE", Unit: "h²", Kind: Duration, UnitGroup: "e"}, {Name: "RMSE", Unit: "h", Kind: Duration, UnitGroup: "e"}},
		Rows:    [][]any{{360000.0, 600.0}, {1440000.0, 1200.0}},
	}
	if name, f, ok := tb.DisplayUnit(0); !ok || name != "d²" || math.Abs(f-1.0/576) > 1e-18 {
		t.Errorf("MSE: DisplayUnit = %s, %g, %v; want d², 1/576", name, f, ok)
	}
	if name, f, ok := tb.DisplayUnit(1); !ok || name != "d" || f != 1.0/24 {
		t.Errorf("RMSE: DisplayUnit = %s, %g, %v; want d, 1/24", name, f, ok)
	}
}

func TestAxisUnit(t *testing.T) {
	// Ages of a slow source in hours: median 1,000 h ≥ 1 d, < 1 y.
	name, f, ok := AxisUnit("h", []float64{10, 1000, 1e5, math.NaN()})
	if !ok || name != "d" || f != 1.0/24 {
		t.Errorf("AxisUnit(h, …) = %s, %g, %v; want d, 1/24", name, f, ok)
	}
	if _, _, ok := AxisUnit("", []float64{1}); ok {
		t.Error("an axis without unit has a display unit")
	}
	if _, _, ok := AxisUnit("1/h", []float64{1}); ok {
		t.Error("a rate axis has a display unit")
	}
	if got := AxisLabel("interval x", "h"); got != "interval x (h)" {
		t.Errorf("AxisLabel = %q", got)
	}
}

// Duration cells and the new fields survive the JSON round trip.
func TestDurationRoundTrip(t *testing.T) {
	dir := t.TempDir()
	in := Bundle{
		Tables: []Table{{ID: "d", Columns: []Column{{Name: "E[U]", Unit: "h", Kind: Duration, UnitGroup: "g"}},
			Rows: [][]any{{1446.0}, {math.NaN()}}}},
		Figures: []Figure{{ID: "f", XLabel: "interval x", XUnit: "h", YUnit: "d", Curves: []Curve{{X: []float64{1}, Y: []float64{2}}}}},
	}
	if err := in.Write(dir); err != nil {
		t.Fatal(err)
	}
	out, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	tb := out.Tables[0]
	if tb.Columns[0] != in.Tables[0].Columns[0] || tb.Rows[0][0] != 1446.0 || !math.IsNaN(tb.Rows[1][0].(float64)) {
		t.Errorf("table after round trip: %+v", tb)
	}
	if f := out.Figures[0]; f.XUnit != "h" || f.YUnit != "d" {
		t.Errorf("figure units after round trip: %q %q", f.XUnit, f.YUnit)
	}
}
