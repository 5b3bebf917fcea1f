package reports

import (
	"encoding/csv"
	"io"

	"github.com/revisit-dev/revisit/internal/tables"
)

// WriteCSV writes t as RFC 4180 CSV with a header row (each column named
// with the unit of its raw values, e.g. "E[U] (h)", "share (fraction)") and
// the cells in full precision (see Machine): the machine-readable twin of
// the Markdown table.
func WriteCSV(w io.Writer, t *tables.Table) error {
	cw := csv.NewWriter(w)
	head := make([]string, len(t.Columns))
	for j, c := range t.Columns {
		head[j] = machineHeader(c)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	rec := make([]string, len(t.Columns))
	for _, r := range t.Rows {
		for j, c := range t.Columns {
			rec[j] = Machine(c.Kind, cell(r, j))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteCurvesCSV writes every curve of f in long form, one point a row:
// curve name, x, y (headed by the figure's axis labels), full precision.
// Every point the figure holds is written, including those a log axis
// cannot show.
func WriteCurvesCSV(w io.Writer, f *tables.Figure) error {
	cw := csv.NewWriter(w)
	xl, yl := f.XLabel, f.YLabel
	if xl == "" {
		xl = "x"
	}
	if yl == "" {
		yl = "y"
	}
	if err := cw.Write([]string{"curve", xl, yl}); err != nil {
		return err
	}
	for _, c := range f.Curves {
		n := min(len(c.X), len(c.Y))
		for i := range n {
			rec := []string{c.Name, machineFloat(c.X[i]), machineFloat(c.Y[i])}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
