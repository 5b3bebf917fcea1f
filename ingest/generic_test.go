package ingest

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/internal/realdata"
)

// A generic log through the driver: the gzip CSV of ca-fires-history
// (SOURCES.md §3: 3,706 change events; incidents.json 2,581 and
// incidents-june-2023-format.json 1,113; the other 12 rows, counted with
// cut | sort | uniq -c, are README.md 6 and .github/workflows/scrape.yml 6).
func TestRealGenericCSV(t *testing.T) {
	in := realdata.Path(t, "other/simonw__ca-fires-history/simonw-ca-fires-history_file_commits.csv.gz")
	s, ps := run(t, Options{Inputs: []string{in}, Source: "ca-fires",
		Generic: generic.Options{ID: "path", Time: "commit_time_utc"}})
	if s.Counts.RevisionsRead != 3706 || len(ps) != 4 {
		t.Fatalf("%d revisions, %d pages; want 3,706 and 4", s.Counts.RevisionsRead, len(ps))
	}
	want := map[string]int64{"incidents.json": 2581, "incidents-june-2023-format.json": 1113, "README.md": 6, ".github/workflows/scrape.yml": 6}
	for _, p := range ps {
		if got := int64(p.NUpdates()) + p.Collapsed; got != want[p.Title] || p.Source != "ca-fires" || p.ID != generic.PageID(p.Title) {
			t.Errorf("%q: %d revisions, source %q, id %d; want %d", p.Title, got, p.Source, p.ID, want[p.Title])
		}
	}
	if s.Inputs[0].Format != "generic+gzip" {
		t.Errorf("format %q", s.Inputs[0].Format)
	}
	// Without --id the same file is an unknown format…
	_, err := Run(context.Background(), Options{Inputs: []string{in}, Output: filepath.Join(t.TempDir(), "x")})
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Errorf("without --id: %v", err)
	}
	// …and a column that is not in the header is a usage problem.
	_, err = Run(context.Background(), Options{Inputs: []string{in}, Output: filepath.Join(t.TempDir(), "y"),
		Generic: generic.Options{ID: "path", Time: "no_such_column"}})
	if err == nil {
		t.Error("a missing time column was accepted")
	}
}

// Many inputs in one run and a gzip JSON-arrays log (SOURCES.md §4): the
// COVID-19 article in 118 editions, one jsonkeys file each (74,224
// revisions), and Kevinisagirl's 1,000 enwiki articles (231,538 revisions,
// 28 same-second duplicates).
func TestRealGenericManyInputs(t *testing.T) {
	dir := realdata.Path(t, "wikipedia/ajoer__Newswork-on-Wikipedia/covid19_020720")
	ins, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	s, ps := run(t, Options{Inputs: ins, Source: "covid19",
		Generic: generic.Options{Format: generic.FormatJSONKeys, IDFromFileName: true}})
	if len(ins) != 118 || len(ps) != 118 || s.Counts.RevisionsRead != 74224 || len(s.Inputs) != 118 {
		t.Errorf("covid: %d files, %d pages, %d revisions", len(ins), len(ps), s.Counts.RevisionsRead)
	}
	kev := realdata.Path(t, "wikipedia/Kevinisagirl__Wikipedia-Revisions-1000-articleid-sample/articlesthatareoldenough.txt.gz")
	s, ps = run(t, Options{Inputs: []string{kev}, Generic: generic.Options{ID: "0", Time: "2"}})
	if len(ps) != 1000 || s.Counts.RevisionsRead != 231538 || s.Counts.Collapsed != 28 {
		t.Errorf("kevinisagirl: %d pages, %d revisions, %d collapsed", len(ps), s.Counts.RevisionsRead, s.Counts.Collapsed)
	}
}
