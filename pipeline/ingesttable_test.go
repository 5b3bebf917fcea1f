package pipeline

import (
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest"
)

// The report's ingest table speaks of the sources read: a date-only
// source (Yelp tips) collapses same-day records, not same-second ones, and
// a dataset of logs with no MediaWiki input names no namespace or redirect
// filter.
func TestIngestTableSpeaksOfItsSource(t *testing.T) {
	rowsOf := func(sum *ingest.Summary) (map[string]int64, string) {
		tb := IngestTable(sum)
		rows := map[string]int64{}
		for _, r := range tb.Rows {
			rows[r[0].(string)] = r[1].(int64)
		}
		return rows, strings.Join(tb.Notes, "\n")
	}
	const sameSecond, sameDay = "same-second revisions collapsed", "same-day revisions collapsed (dates without a time of day)"

	tips := &ingest.Summary{
		Filters: dataset.Filters{MinUpdates: 2, NotApplicable: []string{"namespaces", "no_redirects", "revision_filters"}},
		Counts:  dataset.Counts{PagesRead: 10, PagesKept: 4, Collapsed: 7, CollapsedSameDay: 7, PagesDaily: 4, Updates: 30},
	}
	rows, notes := rowsOf(tips)
	if rows[sameDay] != 7 {
		t.Errorf("date-only source: %q = %d, want 7 (rows %v)", sameDay, rows[sameDay], rows)
	}
	if _, ok := rows[sameSecond]; ok {
		t.Errorf("date-only source has a %q row: %v", sameSecond, rows)
	}
	if strings.Contains(notes, "MediaWiki") || strings.Contains(notes, "redirects") {
		t.Errorf("notes of a Yelp/log dataset name wiki filters:\n%s", notes)
	}

	// A mix: 3 of the 7 collapsed revisions were in daily pages.
	mixed := &ingest.Summary{Counts: dataset.Counts{PagesKept: 5, PagesDaily: 2, Collapsed: 7, CollapsedSameDay: 3}}
	if rows, _ := rowsOf(mixed); rows[sameSecond] != 4 || rows[sameDay] != 3 {
		t.Errorf("mixed resolutions: rows %v, want 4 same-second and 3 same-day", rows)
	}

	wiki := &ingest.Summary{Filters: dataset.Filters{Namespaces: []int32{0}, MinUpdates: 2}, Counts: dataset.Counts{PagesKept: 3, Collapsed: 5}}
	rows, notes = rowsOf(wiki)
	if rows[sameSecond] != 5 || !strings.Contains(notes, "MediaWiki namespaces [0]") {
		t.Errorf("wiki: rows %v notes %q", rows, notes)
	}
}
