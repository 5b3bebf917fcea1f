package tables

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/revisit-dev/revisit/internal/human"
)

// Fprint writes t for the terminal, the one table printer every command
// uses: the title, the header (HumanHeads) over a line of dashes, the
// cells as HumanRows prints them in the Terminal style, numeric columns
// (Numeric) aligned right and the others left, two spaces between
// columns, then the notes. A cell holding a control character, a tab or a
// line break (a title from the data) is quoted with them escaped
// (human.Path), so it cannot act on the terminal or break the table; the
// title and notes are escaped in place (human.Text). Machine-readable
// copies are the JSON files of the results directory and the CSV and
// Parquet files of FileWriter.
func Fprint(w io.Writer, t Table) error {
	head := HumanHeads(&t)
	for i := range head {
		head[i] = human.Path(head[i])
	}
	cells := [][]string{head}
	for _, row := range HumanRows(&t, Terminal) {
		for i := range row {
			row[i] = human.Path(row[i])
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
			if Numeric(t.Columns[i].Kind) {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
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
