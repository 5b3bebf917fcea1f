package reports

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/internal/tables"
)

// WriteCSV writes t as RFC 4180 CSV with a header row (each column named
// with the unit of its raw values, e.g. "E[U] (h)", "share (fraction)") and
// the cells in full precision (see Machine): the machine-readable twin of
// the Markdown table. A text cell that a spreadsheet would read as a
// formula is guarded (see csvText); numbers never are, so −1.3 stays -1.3.
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
			v := cell(r, j)
			rec[j] = Machine(c.Kind, v)
			if _, text := v.(string); text {
				rec[j] = csvText(rec[j])
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
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
	cw := csv.NewWriter(w)
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
	if err := cw.Write(head); err != nil {
		return err
	}
	write := func(c tables.Curve, seed string) error {
		for i := range min(len(c.X), len(c.Y)) {
			rec := []string{csvText(c.Name), machineFloat(c.X[i]), machineFloat(c.Y[i])}
			if band {
				lo, hi := "", ""
				if c.HasBand() {
					lo, hi = machineFloat(c.YLo[i]), machineFloat(c.YHi[i])
				}
				rec = append(rec, lo, hi)
			}
			if seeds {
				rec = append(rec, seed)
			}
			if err := cw.Write(rec); err != nil {
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
	cw.Flush()
	return cw.Error()
}

// csvText guards a text cell against formula injection (OWASP's "CSV
// injection"): a cell starting with "=", "+", "-", "@", a tab or a
// carriage return gets a leading "'", so that a spreadsheet shows it as
// text instead of evaluating it (a page titled "=HYPERLINK(…)"). Only
// text cells are guarded; numeric cells are written as numbers.
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
