package reports

// Duration axes: a figure whose x or y values are durations (XUnit,
// YUnit) is drawn in a unit chosen from its data, as the tables are.

import (
	"github.com/revisit-dev/revisit/internal/tables"
)

// forDisplay is f as people see it: an axis whose values are durations
// (f.XUnit, f.YUnit) shown in the display unit of the median |value| of
// its finite points over every curve (tables.AxisUnit: the largest of y,
// d, h, min and s of which that median is at least 1), its values scaled
// and its label naming that unit ("interval x (d)"); an axis unit that is
// not a time ("1/h") is only named in the label. Labels and curve names
// are typeset with minus signs (minusSigns). f itself is left as it is:
// its CSV keeps the values in the unit they were computed in.
func forDisplay(f *tables.Figure) *tables.Figure {
	out := *f
	out.XUnit, out.YUnit = "", ""
	var xs, ys []float64
	for _, c := range f.Curves {
		xs = append(xs, c.X...)
		ys = append(ys, c.Y...)
	}
	xName, xf, xok := tables.AxisUnit(f.XUnit, xs)
	yName, yf, yok := tables.AxisUnit(f.YUnit, ys)
	out.XLabel, out.YLabel = tables.AxisLabel(f.XLabel, f.XUnit), tables.AxisLabel(f.YLabel, f.YUnit)
	if xok {
		out.XLabel = tables.AxisLabel(f.XLabel, xName)
	}
	if yok {
		out.YLabel = tables.AxisLabel(f.YLabel, yName)
	}
	out.XLabel, out.YLabel = minusSigns(out.XLabel), minusSigns(out.YLabel)
	out.Curves = make([]tables.Curve, len(f.Curves))
	for i, c := range f.Curves {
		if xok {
			c.X = scaled(c.X, xf)
		}
		if yok {
			c.Y, c.YLo, c.YHi = scaled(c.Y, yf), scaled(c.YLo, yf), scaled(c.YHi, yf)
		}
		c.Name = minusSigns(c.Name)
		out.Curves[i] = c
	}
	return &out
}

// scaled is v × factor, a new slice (nil for nil).
func scaled(v []float64, factor float64) []float64 {
	if v == nil {
		return nil
	}
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x * factor
	}
	return out
}
