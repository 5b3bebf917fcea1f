package reports

import (
	"fmt"
	"io"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
)

// WriteFindings prints b's headline (Headline) for a terminal: "Findings:"
// and one sentence per item, its control characters escaped; nothing when
// the tables carry no finding.
func WriteFindings(w io.Writer, b *tables.Bundle) {
	h := Headline(b)
	if len(h) == 0 {
		return
	}
	fmt.Fprintln(w, "Findings:")
	for _, s := range h {
		fmt.Fprintln(w, human.Text("  - "+s))
	}
}
