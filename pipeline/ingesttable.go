package pipeline

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
)

// inputsLabel names the inputs on one line: all of them up to three,
// else the first two and how many more (a shell glob may give hundreds).
func inputsLabel(inputs []string) string {
	if len(inputs) <= 3 {
		return strings.Join(inputs, " ")
	}
	return fmt.Sprintf("%s %s and %d more inputs", inputs[0], inputs[1], len(inputs)-2)
}

// IngestTable is the report's account of ingest (SPEC §7.1: what was
// filtered and why): pages and revisions read and kept, same-second (or,
// for date-only sources, same-day) revisions collapsed, and every count of
// pages or records left out, by reason, as the manifest records them; the
// filters in force that apply to the sources read are notes.
func IngestTable(sum *ingest.Summary) tables.Table {
	c := sum.Counts
	rows := [][]any{
		{"pages read", c.PagesRead},
		{"pages kept", c.PagesKept},
		{"revisions read", c.RevisionsRead},
		{"revisions kept (of kept pages, in the time range)", c.RevisionsKept},
	}
	// Date-only sources (Yelp tips) collapse same-day records, not
	// same-second ones: one row per resolution that occurs.
	switch day := c.CollapsedSameDay; {
	case c.PagesDaily == 0:
		rows = append(rows, []any{"same-second revisions collapsed", c.Collapsed})
	case c.PagesDaily == c.PagesKept:
		rows = append(rows, []any{"same-day revisions collapsed (dates without a time of day)", day})
	default:
		rows = append(rows, []any{"same-second revisions collapsed", c.Collapsed - day},
			[]any{"same-day revisions collapsed (dates without a time of day)", day})
	}
	rows = append(rows, []any{"updates (after collapsing)", c.Updates})
	for _, sk := range ingest.Skips(c) {
		rows = append(rows, []any{sk.Reason.Label(sum.Filters.MinUpdates), sk.N})
	}
	notes := sum.FilterNotes() // only the filters that apply to the sources read
	var names []string
	for _, in := range sum.Inputs {
		names = append(names, filepath.Base(in.Name))
	}
	return tables.Table{
		ID: "ingest_counts", Title: "Ingest: read, kept and left out", Section: tables.SectionCorpus, Order: 1,
		Source:  fmt.Sprintf("%s (%s, %s) → %s", inputsLabel(names), plural(len(sum.Inputs), "input"), human.Bytes(sum.Bytes), sum.Output),
		Notes:   notes,
		Columns: []tables.Column{{Name: "what", Kind: tables.String}, {Name: "count", Kind: tables.Int}},
		Rows:    rows,
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
