package ingest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest/generic"
)

// TestFiltersApplicable: the wiki-only filters (namespaces, redirects,
// revision filters) are named not applicable for a generic log — in the
// manifest, in FilterNotes (the report's ingest table) and, when asked for,
// in the summary — and stay as they were for a MediaWiki dump.
func TestFiltersApplicable(t *testing.T) {
	dir := t.TempDir()
	csv := write(t, dir, "git.csv", "path,t\na.go,2020-01-02T03:04:05Z\na.go,2020-01-03T03:04:05Z\n")
	out := filepath.Join(dir, "git")
	s, _ := run(t, Options{Inputs: []string{csv}, Output: out, NoRedirects: true, DropBots: true,
		Generic: generic.Options{ID: "path", Time: "t"}})
	m, err := dataset.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"namespaces", "no_redirects", "revision_filters"}
	if !slices.Equal(m.Filters.NotApplicable, want) || !slices.Equal(s.Filters.NotApplicable, want) {
		t.Errorf("not applicable: manifest %v, summary %v; want %v", m.Filters.NotApplicable, s.Filters.NotApplicable, want)
	}
	notes := s.FilterNotes()
	if len(notes) != 1 || notes[0] != "filters: at least 0 updates per page; bad records fatal" {
		t.Errorf("notes %q", notes)
	}
	if str := s.String(); !strings.Contains(str, "not applied: --no-redirects, --drop-bots (MediaWiki XML and mediawiki_history only; no such input was read)") {
		t.Errorf("summary:\n%s", str)
	}
	// Nothing asked for: nothing said.
	s, _ = run(t, Options{Inputs: []string{csv}, Generic: generic.Options{ID: "path", Time: "t"}})
	if str := s.String(); strings.Contains(str, "not applied") {
		t.Errorf("summary:\n%s", str)
	}

	xml := write(t, dir, "d.xml", wikiXML(map[string][]rev{"Alpha": {{10, "a", "Alice", false}, {20, "b", "Bob", false}}}, []string{"Alpha"}))
	out = filepath.Join(dir, "wiki")
	s, _ = run(t, Options{Inputs: []string{xml}, Output: out, MinUpdates: 2, DropBots: true})
	if m, err = dataset.ReadManifest(out); err != nil || m.Filters.NotApplicable != nil {
		t.Errorf("wiki manifest filters %+v (%v)", m.Filters, err)
	}
	// The notes pipeline.IngestTable wrote before FilterNotes, word for word.
	wantNotes := []string{
		"filters: MediaWiki namespaces [0]; at least 2 updates per page; redirects kept; bad records fatal",
		"what counts as an update: identity reverts and the revisions they undo kept; bot edits left out; minor edits kept",
	}
	if got := s.FilterNotes(); !slices.Equal(got, wantNotes) {
		t.Errorf("wiki notes %q", got)
	}
	if strings.Contains(s.String(), "not applied") {
		t.Errorf("wiki summary:\n%s", s)
	}
}
