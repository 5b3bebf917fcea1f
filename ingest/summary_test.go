package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/internal/realdata"
)

// The summary says every reason as a phrase, number first, naming the
// flag; counts have thousands separators; the rate is of decompressed
// bytes; "1 input", not "1 input(s)"; a system decoder is named, the
// built-in one is not.
func TestSummaryWording(t *testing.T) {
	since := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	s := &Summary{
		Output: "out",
		Inputs: []dataset.Input{{Name: "large.xml.lzma", Format: "mediawiki+lzma", Decoder: "xz 5.4.1", Size: 1_900_000, Bad: map[string]int64{"timestamp": 2, "json": 1}},
			{Name: "b.xml.gz", Format: "mediawiki+gzip", Decoder: "builtin", Size: 1_000}},
		Filters: dataset.Filters{Namespaces: []int32{0, 1}, MinUpdates: 2, NoRedirects: true, SkipBad: true, Since: &since},
		Counts: dataset.Counts{PagesRead: 2_000, PagesKept: 831, RevisionsRead: 1_500_000, RevisionsKept: 1_234_567, Updates: 1_234_000, Collapsed: 567,
			Skipped: map[string]int64{"min_updates": 1_063, "namespace": 94, "redirect": 12, "time_range": 1, "revisions_of_skipped_pages": 265_433,
				"revisions_outside_time_range": 1_000, "archive_members_fifo": 2, "bad_timestamp": 2, "bad_json": 1}},
		Bad:          map[string]int64{"timestamp": 2, "json": 1},
		Bytes:        1_900_000,
		Decompressed: 1_050_000_000,
		Elapsed:      700 * time.Millisecond,
		Remapped:     3,
	}
	want := `ingested 2 inputs: 1.9 MB read (1.1 GB decompressed) in 700 ms: 1.5 GB/s, 2,142,857 revisions/s → out
  large.xml.lzma (mediawiki+lzma, 1.9 MB, decoded by xz 5.4.1; 3 bad records skipped: 1 json, 2 timestamp)
  b.xml.gz (mediawiki+gzip, 1.0 kB)
pages:     2,000 read, 831 kept
revisions: 1,500,000 read, 1,234,567 kept → 1,234,000 updates (567 same-second revisions collapsed)
left out:  94 pages outside --namespaces 0,1
           12 redirect pages (--no-redirects)
           1 page with no revision since 2010-01-01 (--since)
           1,063 pages below --min-updates 2
           3 bad records (--skip-bad): 1 json, 2 timestamp
           265,433 revisions of the pages left out
           1,000 revisions outside the time range (--since)
           2 archive members that are FIFOs (not files)
3 page ids remapped: two sources used the same id
`
	if got := s.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// Plain input, several inputs: no "decompressed" when nothing was.
	s = &Summary{Output: "o", Inputs: []dataset.Input{{Name: "a.csv", Format: "generic", Size: 1000}, {Name: "b.csv", Format: "generic", Size: 1000}},
		Counts: dataset.Counts{PagesRead: 1, PagesKept: 1, RevisionsRead: 1, RevisionsKept: 1, Updates: 1, Skipped: map[string]int64{}},
		Bytes:  2000, Decompressed: 2000, Elapsed: 2 * time.Second}
	if got := strings.SplitN(s.String(), "\n", 2)[0]; got != "ingested 2 inputs: 2.0 kB read in 2s: 1.0 kB/s, 0 revisions/s → o" {
		t.Errorf("first line %q", got)
	}
	if got := s.String(); !strings.Contains(got, "1 kept → 1 update (0 same-second revisions collapsed)") || strings.Contains(got, "left out") {
		t.Errorf("summary:\n%s", got)
	}
}

// The summary and the throughput count decompressed bytes: the Pyrus page
// compressed with LZMA is 1,057–1,184 B stored and 3,871 B of XML
// (SOURCES.md), the size of article-pyrus.xml.
func TestSummaryDecompressedBytes(t *testing.T) {
	xml := realdata.Path(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml")
	lz := xml + ".lzma"
	st, _ := os.Stat(xml)
	stLZ, _ := os.Stat(lz)
	s, _ := run(t, Options{Inputs: []string{lz, xml}, AllNamespaces: true, SkipBad: true}) // the second Pyrus is a duplicate page
	if s.Bytes != stLZ.Size()+st.Size() || s.Decompressed != 2*st.Size() || st.Size() != 3871 {
		t.Fatalf("bytes %d, decompressed %d; want %d and 2 × %d", s.Bytes, s.Decompressed, stLZ.Size()+st.Size(), st.Size())
	}
	if !strings.Contains(s.String(), " read (7.7 kB decompressed) in ") {
		t.Errorf("summary:\n%s", s)
	}
}

// Yelp without the business file: the summary says in words that titles
// are business ids and how to get names, and the manifest records it.
func TestYelpTitlesAreIDs(t *testing.T) {
	dir := t.TempDir()
	rev := filepath.Join(dir, "yelp_academic_dataset_review.json")
	os.WriteFile(rev, []byte(`{"review_id":"r1","user_id":"u1","business_id":"B1","stars":5,"text":"x","date":"2018-01-01 10:00:00"}`+"\n"), 0o644)
	out := filepath.Join(dir, "ds")
	s, ps := run(t, Options{Inputs: []string{rev}, Output: out})
	if ps[0].Title != "B1" {
		t.Fatalf("title %q", ps[0].Title)
	}
	if !strings.Contains(s.String(), "yelp: 1 business; titles are business ids: add yelp_academic_dataset_business.json to the inputs to show names\n") {
		t.Errorf("summary:\n%s", s)
	}
	m, err := dataset.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Manifest.Extra["yelp_titles"]; got != "business_id (no business file among the inputs)" {
		t.Errorf("manifest yelp_titles %v", got)
	}
	// With it: names, and the manifest says so.
	biz := filepath.Join(dir, "yelp_academic_dataset_business.json")
	os.WriteFile(biz, []byte(`{"business_id":"B1","name":"Joe's Diner","city":"Tempe"}`+"\n"), 0o644)
	s, ps = run(t, Options{Inputs: []string{rev, biz}, Output: out})
	m, _ = dataset.Open(out)
	if ps[0].Title != "Joe's Diner" || m.Manifest.Extra["yelp_titles"] != "name" || strings.Contains(s.String(), "titles are business ids") ||
		!strings.Contains(s.String(), "yelp: 1 business joined to the business file (titled by name), 0 not in it (titled by id)") {
		t.Errorf("title %q, manifest %v, summary:\n%s", ps[0].Title, m.Manifest.Extra["yelp_titles"], s)
	}
}

// The generic reader's title changes reach the summary and manifest.
func TestSummaryTitleChanges(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "log.csv")
	os.WriteFile(p, []byte("id,name,time\na,Alpha,2020-01-01\na,Beta,2020-01-02\n"), 0o644)
	s, ps := run(t, Options{Inputs: []string{p}, Generic: generic.Options{ID: "id", Time: "time", Title: "name"}})
	if ps[0].Title != "Alpha" || s.TitleChanges != 1 ||
		!strings.Contains(s.String(), "1 record had another --title value than its object's first (the first is kept)") {
		t.Errorf("title %q, changes %d, summary:\n%s", ps[0].Title, s.TitleChanges, s)
	}
}
