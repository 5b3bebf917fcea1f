package tables

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/revisit-dev/revisit/internal/human"
)

// Fprint writes a table for people: aligned columns, thousands
// separators, 4 significant digits, dates, durations in the natural unit
// and "—" for undefined values; a duration column (Duration,
// Seconds) in the one unit chosen from its values
// (Table.DisplayUnit, as the report shows it), named in its header.
// Machine-readable copies are the JSON files of the results directory and
// the CSV and Parquet files of FileWriter.
func Fprint(w io.Writer, t Table) error {
	head := make([]string, len(t.Columns))
	factor := make([]float64, len(t.Columns)) // 0: not a duration
	for i, c := range t.Columns {
		head[i] = c.Name
		if name, f, ok := t.DisplayUnit(i); ok {
			head[i] += " (" + name + ")"
			factor[i] = f
		} else if c.Unit != "" {
			head[i] += " (" + c.Unit + ")"
		}
	}
	cells := [][]string{head}
	for _, r := range t.Rows {
		row := make([]string, len(t.Columns))
		for i := range t.Columns {
			if i >= len(r) {
				continue
			}
			if v, ok := r[i].(float64); ok && factor[i] != 0 && !math.IsNaN(v) && !math.IsInf(v, 0) {
				row[i] = human.Plain(v * factor[i])
				continue
			}
			row[i] = human.Path(Cell(t.Columns[i].Kind, r[i])) // a title with control characters, quoted and escaped
		}
		cells = append(cells, row)
	}
	width := make([]int, len(head))
	for _, r := range cells {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", human.Text(t.Title))
	for k, r := range cells {
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if t.Columns[i].Kind == String {
				b.WriteString(c + pad)
			} else {
				b.WriteString(pad + c)
			}
			if i < len(r)-1 {
				b.WriteString("  ")
			}
		}
		trimLine(&b)
		b.WriteString("\n")
		if k == 0 {
			for i := range r {
				b.WriteString(strings.Repeat("-", width[i]))
				if i < len(r)-1 {
					b.WriteString("  ")
				}
			}
			b.WriteString("\n")
		}
	}
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "  note: %s\n", human.Text(n))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Cell formats one cell of the given kind for people.
func Cell(k Kind, c any) string {
	switch v := c.(type) {
	case nil:
		return "—"
	case string:
		return v
	case int64:
		switch k {
		case Time:
			return time.Unix(v, 0).UTC().Format("2006-01-02")
		case Bytes:
			return human.Bytes(max(v, 0))
		}
		return human.Comma(v)
	case int:
		return human.Comma(int64(v))
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "—"
		}
		switch k {
		case Percent:
			return fmt.Sprintf("%.1f%%", 100*v)
		case Seconds:
			return human.Seconds(v)
		}
		if math.Abs(v) >= 1e4 && math.Abs(v) < 1e15 {
			return human.Comma(int64(math.Round(v)))
		}
		return fmt.Sprintf("%.4g", v)
	}
	return fmt.Sprint(c)
}

// trimLine removes the spaces that padding left at the end of the line
// being built.
func trimLine(b *strings.Builder) {
	s := b.String()
	t := strings.TrimRight(s, " ")
	if len(t) != len(s) {
		b.Reset()
		b.WriteString(t)
	}
}
