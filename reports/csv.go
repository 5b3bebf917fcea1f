package reports

import (
	"io"
	"strconv"

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
		head[j] = tables.MachineHeader(c)
	}
	if err := cw.Header(head...); err != nil {
		return err
	}
	for _, r := range t.Rows {
		for j, c := range t.Columns {
			v := tables.CellAt(r, j)
			if _, text := v.(string); text {
				cw.Text(tables.Machine(c.Kind, v))
			} else {
				cw.Value(tables.Machine(c.Kind, v))
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
// hold it ("y low", "y high"; empty for curves without one). When a curve
// summarises the replay's seeds (Seeds), a last column "seed" says whose
// points a row holds: "mean" for the curve drawn (its band the seeds'
// range), then the seed index r for each seed's own points; it is empty
// for the curves that do not depend on the seed.
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
	band, seeds := false, false
	for _, c := range f.Curves {
		band = band || c.HasBand()
		seeds = seeds || len(c.Seeds) > 0
	}
	if band {
		head = append(head, yl+" low", yl+" high")
	}
	if seeds {
		head = append(head, "seed")
	}
	if err := cw.Header(head...); err != nil {
		return err
	}
	write := func(c tables.Curve, seed string) error {
		for i := range min(len(c.X), len(c.Y)) {
			cw.Text(c.Name)
			cw.Value(tables.MachineFloat(c.X[i]))
			cw.Value(tables.MachineFloat(c.Y[i]))
			if band {
				lo, hi := "", ""
				if c.HasBand() {
					lo, hi = tables.MachineFloat(c.YLo[i]), tables.MachineFloat(c.YHi[i])
				}
				cw.Value(lo)
				cw.Value(hi)
			}
			if seeds {
				cw.Value(seed) // "mean" or a seed index
			}
			if err := cw.End(); err != nil {
				return err
			}
		}
		return nil
	}
	for _, c := range f.Curves {
		seed := ""
		if len(c.Seeds) > 0 {
			seed = "mean"
		}
		if err := write(c, seed); err != nil {
			return err
		}
		for _, s := range c.Seeds {
			if err := write(s, strconv.Itoa(s.Seed)); err != nil {
				return err
			}
		}
	}
	return cw.Flush()
}
