package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

// WriteFindings prints the headline's sentences under "Findings:", one
// item each, and nothing for a bundle without findings.
func TestWriteFindings(t *testing.T) {
	b := findingsBundle()
	var want strings.Builder
	want.WriteString("Findings:\n")
	for _, s := range Headline(b) {
		want.WriteString("  - " + s + "\n")
	}
	var got bytes.Buffer
	WriteFindings(&got, b)
	if got.String() != want.String() || len(Headline(b)) == 0 {
		t.Errorf("WriteFindings:\n%s\nwant:\n%s", got.String(), want.String())
	}
	got.Reset()
	WriteFindings(&got, &tables.Bundle{})
	if got.Len() != 0 {
		t.Errorf("no findings: printed %q", got.String())
	}
}
