package reports

import (
	"io"

	"github.com/revisit-dev/revisit/internal/csvout"
	"github.com/revisit-dev/revisit/internal/tables"
)

// WriteCSV writes t as RFC 4180 CSV with a header row (each column named
// with the unit of its raw values, e.g. "E[U] (h)", "share (fraction)") and
// the cells in full precision (see Machine): the machine-readable twin of
// the Markdown table. A text cell that a spreadsheet would read as a
// formula is guarded (csvout.Text); numbers never are, so −1.3 stays -1.3.
func WriteCSV(w io.Writer, t *tables.Table) error {
	cw := csvout.NewWriter(w)
	head := make([]string, len(t.Columns))
	for j, c := range t.Columns {
		head[j] = machineHeader(c)
	}
	if err := cw.Header(head...); err != nil {
		return err
	}
	for _, r := range t.Rows {
		for j, c := range t.Columns {
			v := cell(r, j)
			if _, text := v.(string); text {
				cw.Text(Machine(c.Kind, v))
			} else {
				cw.Value(Machine(c.Kind, v))
			}
		}
		if err := cw.End(); err != nil {
			return err
		}
	}
	return cw.Flush()
}

// WriteCurvesCSV writes every curve of f in long form, one point a row:
// curve name, x, y (headed by the figure's axis labels, with the unit the
// values are in when the axis is a duration: "interval x (h)"), full
// precision.
// Every point the figure holds is written, including those a log axis
// cannot show. When a curve carries a band (YLo, YHi), two more columns
// hold it ("y low", "y high"; empty for curves without one).
func WriteCurvesCSV(w io.Writer, f *tables.Figure) error {
	cw := csvout.NewWriter(w)
	xl, yl := tables.AxisLabel(f.XLabel, f.XUnit), tables.AxisLabel(f.YLabel, f.YUnit)
	if xl == "" {
		xl = "x"
	}
	if yl == "" {
		yl = "y"
	}
	head := []string{"curve", xl, yl}
	band := false
	for _, c := range f.Curves {
		band = band || c.HasBand()
	}
	if band {
		head = append(head, yl+" low", yl+" high")
	}
	if err := cw.Header(head...); err != nil {
		return err
	}
	for _, c := range f.Curves {
		n := min(len(c.X), len(c.Y))
		for i := range n {
			cw.Text(c.Name)
			cw.Value(machineFloat(c.X[i]))
			cw.Value(machineFloat(c.Y[i]))
			if band {
				lo, hi := "", ""
				if c.HasBand() {
					lo, hi = machineFloat(c.YLo[i]), machineFloat(c.YHi[i])
				}
				cw.Value(lo)
				cw.Value(hi)
			}
			if err := cw.End(); err != nil {
				return err
			}
		}
	}
	return cw.Flush()
}
