package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/source"
)

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func xmlPage(title string, id, nrev int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<page><title>%s</title><ns>0</ns><id>%d</id>", title, id)
	for i := 0; i < nrev; i++ {
		fmt.Fprintf(&b, "<revision><id>%d</id><timestamp>2001-01-01T00:00:%02dZ</timestamp></revision>", i+1, i)
	}
	return b.String() + "</page>"
}

const xmlHead = `<mediawiki version="0.10"><siteinfo><dbname>capwiki</dbname></siteinfo>`

// wantBad runs opt without SkipBad and checks that the error is a
// ParseError of reason naming file (and line, page when given), and that no
// dataset is left; then with SkipBad, and returns the summary.
func wantBad(t *testing.T, opt Options, reason, file string, line int64, page string) *Summary {
	t.Helper()
	out := filepath.Join(t.TempDir(), "ds")
	opt.Output = out
	_, err := Run(context.Background(), opt)
	var pe *source.ParseError
	if !errors.As(err, &pe) || pe.Reason != reason || pe.File != file || (line > 0 && pe.Line != line) || (page != "" && pe.Page != page) {
		t.Fatalf("err %v (%+v); want a %s ParseError in %s line %d page %q", err, pe, reason, file, line, page)
	}
	if !strings.Contains(err.Error(), file) {
		t.Errorf("message %q does not name the file", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a dataset was left after an error")
	}
	opt.Output, opt.SkipBad = "", true
	s, _ := runEmpty(t, opt)
	if s.Bad[reason] != 1 || s.Counts.Skipped["bad_"+reason] != 1 {
		t.Errorf("with SkipBad: bad %v, skipped %v; want one %s", s.Bad, s.Counts.Skipped, reason)
	}
	return s
}

// --max-revisions-per-page on a MediaWiki dump: the page past the cap is an
// error at its revision past the cap, or with --skip-bad a skipped page
// whose revisions are read and counted.
func TestMaxRevisionsPerPage(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "dump.xml", xmlHead+xmlPage("Big", 1, 5)+xmlPage("Small", 2, 2)+"</mediawiki>")
	s := wantBad(t, Options{Inputs: []string{p}, MaxRevisionsPerPage: 3}, "too-many-revisions", p, 0, "Big")
	c := s.Counts
	if c.PagesKept != 1 || c.RevisionsRead != 7 || c.RevisionsKept != 2 || c.Skipped["revisions_of_skipped_pages"] != 5 {
		t.Errorf("counts %+v; want 1 page kept, 7 revisions read, 2 kept, 5 of skipped pages", c)
	}
	// At the cap exactly, the page is kept.
	s, ps := run(t, Options{Inputs: []string{p}, MaxRevisionsPerPage: 5})
	if len(ps) != 2 || s.Counts.RevisionsKept != 7 {
		t.Errorf("cap 5: %d pages, %d revisions", len(ps), s.Counts.RevisionsKept)
	}
	// A page over the cap in a namespace left out is no error: counted as
	// a namespace skip, its revisions as read.
	q := write(t, dir, "ns.xml", xmlHead+strings.Replace(xmlPage("Wikipedia:Sandbox", 3, 5), "<ns>0</ns>", "<ns>4</ns>", 1)+
		strings.Replace(xmlPage("Wikipedia:Sandbox2", 4, 5), "<ns>0</ns>", "", 1)+xmlPage("Small", 2, 2)+"</mediawiki>")
	s, ps = run(t, Options{Inputs: []string{q}, MaxRevisionsPerPage: 3})
	if c := s.Counts; len(ps) != 1 || c.Skipped["namespace"] != 2 || c.RevisionsRead != 12 || c.Skipped["revisions_of_skipped_pages"] != 10 {
		t.Errorf("namespace left out: %d pages, counts %+v", len(ps), c)
	}
	if _, ps := run(t, Options{Inputs: []string{q}, MaxRevisionsPerPage: 3, AllNamespaces: true, SkipBad: true}); len(ps) != 1 {
		t.Errorf("all namespaces: %d pages kept, want 1", len(ps))
	}
	var oe *OptionError
	if _, err := Run(context.Background(), Options{Inputs: []string{p}, Output: filepath.Join(dir, "x"), MaxRevisionsPerPage: -1}); !errors.As(err, &oe) {
		t.Errorf("negative cap: %v", err)
	}
}

// The cap applies to generic objects within one file (the record past it
// is the error, with its line) and across files (the merged object).
func TestMaxRevisionsPerPageGeneric(t *testing.T) {
	dir := t.TempDir()
	g := generic.Options{ID: "id", Time: "time"}
	one := write(t, dir, "one.csv", "id,time\nx,2020-01-01T00:00:00Z\ny,2020-01-01T00:00:00Z\nx,2020-01-02T00:00:00Z\nx,2020-01-03T00:00:00Z\nx,2020-01-04T00:00:00Z\n")
	s := wantBad(t, Options{Inputs: []string{one}, Generic: g, MaxRevisionsPerPage: 3}, "too-many-revisions", one, 6, "x")
	if c := s.Counts; c.RevisionsRead != 5 || c.PagesKept != 1 || c.Skipped["revisions_of_skipped_pages"] != 4 {
		t.Errorf("one file: counts %+v", c)
	}
	a := write(t, dir, "a.csv", "id,time\nx,2020-01-01T00:00:00Z\nx,2020-01-02T00:00:00Z\n")
	b := write(t, dir, "b.csv", "id,time\ny,2020-01-01T00:00:00Z\nx,2020-01-03T00:00:00Z\nx,2020-01-04T00:00:00Z\n")
	s = wantBad(t, Options{Inputs: []string{a, b}, Generic: g, MaxRevisionsPerPage: 3}, "too-many-revisions", b, 3, "x")
	if c := s.Counts; c.RevisionsRead != 5 || c.PagesKept != 1 || c.Skipped["revisions_of_skipped_pages"] != 4 {
		t.Errorf("two files: counts %+v", c)
	}
	// A Yelp business too.
	rv := func(bid, date string) string {
		return `{"review_id":"r","user_id":"u","business_id":"` + bid + `","stars":5,"date":"` + date + `"}` + "\n"
	}
	y := write(t, dir, "review.json", rv("b1", "2015-01-01")+rv("b2", "2015-01-01")+rv("b1", "2015-01-02")+rv("b1", "2015-01-03"))
	s = wantBad(t, Options{Inputs: []string{y}, MaxRevisionsPerPage: 2}, "too-many-revisions", y, 4, "b1")
	if c := s.Counts; c.RevisionsRead != 4 || c.PagesKept != 1 || c.Skipped["revisions_of_skipped_pages"] != 3 {
		t.Errorf("yelp: counts %+v", c)
	}
}

// --max-line-bytes: a longer JSON line, TSV line, CSV record (short, or far
// longer than the CSV reader's buffer) or jsonkeys file is an error naming
// its line, or with --skip-bad one counted bad record, the rest being read.
func TestMaxLineBytes(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 1000)
	huge := strings.Repeat("y", 300<<10)
	g := generic.Options{ID: "id", Time: "time"}
	for _, c := range []struct {
		name, content string
		generic       generic.Options
		line          int64
		kept          int64 // revisions kept with SkipBad
	}{
		{"l.jsonl", `{"id":"a","time":"2020-01-01T00:00:00Z"}` + "\n" + `{"id":"a","time":"2020-01-02T00:00:00Z","x":"` + long + `"}` + "\n" + `{"id":"a","time":"2020-01-03T00:00:00Z"}` + "\n", g, 2, 2},
		{"t.tsv", "id\ttime\tx\na\t2020-01-01T00:00:00Z\t-\na\t2020-01-02T00:00:00Z\t" + long + "\na\t2020-01-03T00:00:00Z\t-\n", g, 3, 2},
		{"c.csv", "id,time,x\na,2020-01-01T00:00:00Z,-\na,2020-01-02T00:00:00Z,\"" + long + "\"\na,2020-01-03T00:00:00Z,-\n", g, 3, 2},
		{"h.csv", "id,time,x\na,2020-01-01T00:00:00Z,-\na,2020-01-02T00:00:00Z,\"" + huge + "\"\na,2020-01-03T00:00:00Z,-\n", g, 3, 2},
		{"review.json", `{"review_id":"r","user_id":"u","business_id":"b","date":"2015-01-01"}` + "\n" + `{"review_id":"r","user_id":"u","business_id":"b","date":"2015-01-02","text":"` + long + `"}` + "\n" + `{"review_id":"r","user_id":"u","business_id":"b","date":"2015-01-03"}` + "\n", generic.Options{}, 2, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := write(t, dir, c.name, c.content)
			s := wantBad(t, Options{Inputs: []string{p}, Generic: c.generic, MaxLineBytes: 200}, "line-too-long", p, c.line, "")
			if s.Counts.RevisionsKept != c.kept {
				t.Errorf("with SkipBad: %d revisions kept, want %d", s.Counts.RevisionsKept, c.kept)
			}
			// Under the default cap the file is good.
			if s, _ := run(t, Options{Inputs: []string{p}, Generic: c.generic}); s.Counts.RevisionsKept != c.kept+1 {
				t.Errorf("default cap: %d revisions kept, want %d", s.Counts.RevisionsKept, c.kept+1)
			}
		})
	}
	// A jsonkeys file is one record.
	p := write(t, dir, "fr.json", `{"2020-01-01T00:00:00Z": 1, "2020-01-02T00:00:00Z": "`+long+`"}`)
	opt := Options{Inputs: []string{p}, Generic: generic.Options{Format: "jsonkeys", IDFromFileName: true}, MaxLineBytes: 200}
	s := wantBad(t, opt, "line-too-long", p, 1, "fr")
	if s.Counts.RevisionsRead != 0 {
		t.Errorf("jsonkeys: %d revisions read", s.Counts.RevisionsRead)
	}
}

// Epoch values beyond what Parquet's millisecond timestamps hold are bad
// timestamps at their line.
func TestEpochBeyondParquet(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "e.csv", "id,time\na,1600000000\na,9300000000000000\na,-9300000000000000\na,1600000001\n")
	opt := Options{Inputs: []string{p}, Generic: generic.Options{ID: "id", Time: "time", TimeLayout: "epoch"}}
	out := filepath.Join(dir, "ds")
	opt.Output = out
	_, err := Run(context.Background(), opt)
	var pe *source.ParseError
	if !errors.As(err, &pe) || pe.Reason != "timestamp" || pe.Line != 3 || pe.File != p || !errors.Is(err, source.ErrTimestamp) {
		t.Fatalf("err %v; want a timestamp ParseError at line 3", err)
	}
	opt.Output, opt.SkipBad = "", true
	s, ps := run(t, opt)
	if s.Bad["timestamp"] != 2 || len(ps) != 1 || ps[0].NUpdates() != 2 || ps[0].Updates[0] != 1600000000 {
		t.Errorf("with SkipBad: bad %v, pages %+v", s.Bad, ps)
	}
	// The largest storable second is kept.
	q := write(t, dir, "m.csv", "id,time\na,9223372036854775\n")
	if _, ps := run(t, Options{Inputs: []string{q}, Generic: generic.Options{ID: "id", Time: "time", TimeLayout: "epoch"}}); len(ps) != 1 || ps[0].Updates[0] != 9223372036854775 {
		t.Errorf("max time: %+v", ps)
	}
}

// A NUL byte in a record of a CSV is that record's problem, found at its
// line, not an "unknown format" of the file; a NUL in the first line is
// reported as such.
func TestNULInCSV(t *testing.T) {
	dir := t.TempDir()
	g := generic.Options{ID: "id", Time: "time"}
	p := write(t, dir, "n.csv", "id,time\na,2020-01-01T00:00:00Z\na,2020-01-02\x00T00:00:00Z\na,2020-01-03T00:00:00Z\n")
	s := wantBad(t, Options{Inputs: []string{p}, Generic: g}, "timestamp", p, 3, "a")
	if s.Counts.RevisionsKept != 2 {
		t.Errorf("with SkipBad: %d revisions kept", s.Counts.RevisionsKept)
	}
	q := write(t, dir, "u.csv", "i\x00d\x00,\x00t\x00\n")
	_, err := Run(context.Background(), Options{Inputs: []string{q}, Output: filepath.Join(dir, "ds"), Generic: g})
	var fe *FormatError
	if !errors.As(err, &fe) || fe.NUL != 1 || !strings.Contains(err.Error(), "NUL byte") {
		t.Errorf("err %v; want a FormatError about the NUL at byte 1", err)
	}
}

// Revisions of pages dropped as bad are read revisions: counted in
// revisions_read and revisions_of_skipped_pages (run checks the accounting).
func TestBadPagesCountRevisions(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "d.xml", xmlHead+"<page><ns>0</ns><id>1</id><revision><timestamp>2001-01-01T00:00:00Z</timestamp></revision><revision><timestamp>2001-01-02T00:00:00Z</timestamp></revision></page>"+
		xmlPage("Good", 2, 3)+"</mediawiki>")
	s, ps := run(t, Options{Inputs: []string{p}, SkipBad: true})
	if c := s.Counts; len(ps) != 1 || c.RevisionsRead != 5 || c.Skipped["revisions_of_skipped_pages"] != 2 || s.Bad["xml"] != 1 {
		t.Errorf("counts %+v, bad %v", c, s.Bad)
	}
}
