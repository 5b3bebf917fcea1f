package generic

import (
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

func fixture(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "generic", name)
}

func unix(y int, m time.Month, d, hh, mm, ss int) int64 {
	return time.Date(y, m, d, hh, mm, ss, 0, time.UTC).Unix()
}

func read(t *testing.T, r io.Reader, opt Options, so source.Options) ([]*series.RawPage, *Reader, error) {
	t.Helper()
	rd, err := NewReader(r, opt, so)
	if err != nil {
		return nil, nil, err
	}
	var pages []*series.RawPage
	for {
		p, err := rd.Next()
		if err == io.EOF {
			return pages, rd, nil
		}
		if err != nil {
			return pages, rd, err
		}
		pages = append(pages, p)
	}
}

func openFixture(t *testing.T, name string) *os.File {
	f, err := os.Open(fixture(name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestParseISOAgainstTime compares ParseISO with time.Parse on random
// instants over years 1-9999 in the four ISO forms, and on fixed cases.
func TestParseISOAgainstTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lo := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
	for i := 0; i < 20000; i++ {
		tm := time.Unix(lo+rng.Int64N(hi-lo), 0).UTC()
		for _, layout := range []string{"2006-01-02", "2006-01-02 15:04:05", "2006-01-02T15:04:05", time.RFC3339, "2006-01-02T15:04:05.000-07:00"} {
			zone := time.UTC
			if strings.Contains(layout, "-07") {
				zone = time.FixedZone("", -(rng.IntN(24*60)-12*60)*60)
			}
			s := tm.In(zone).Format(layout)
			ref, err := time.Parse(layout, s)
			if err != nil {
				t.Fatal(err)
			}
			got, dateOnly, _, err := ParseISO([]byte(s))
			if err != nil || got != ref.Unix() || dateOnly != (layout == "2006-01-02") {
				t.Fatalf("ParseISO(%q) = %d %v %v, time.Parse %d", s, got, dateOnly, err, ref.Unix())
			}
		}
	}
	for _, s := range []string{"2019-02-29", "2020-13-01", "2020-00-10", "2020-01-32", "2020-01-01 24:00:00", "2020-01-01 23:60:00",
		"2020-01-01 23:00:60", "2020-01-01T10:00", "2020-01-01T10:00:00+0100", "2020-01-01T10:00:00.Z", "20200101", "2020-01-01x", "２０２０-01-01"} {
		if _, _, _, err := ParseISO([]byte(s)); !errors.Is(err, source.ErrTimestamp) {
			t.Errorf("ParseISO(%q) = %v, want ErrTimestamp", s, err)
		}
	}
	// 2000-02-29 is a leap day (divisible by 400): 951782400 by time.Date.
	if got, _, _, _ := ParseISO([]byte("2000-02-29")); got != unix(2000, 2, 29, 0, 0, 0) {
		t.Errorf("2000-02-29 = %d", got)
	}
}

func TestLayouts(t *testing.T) {
	cases := []struct {
		layout, in string
		want       int64
		ok         bool
	}{
		{"epoch", "1577934245", unix(2020, 1, 2, 3, 4, 5), true},
		{"epoch", "1577934245.9", unix(2020, 1, 2, 3, 4, 5), true},    // floored
		{"epoch", "-1.5", -2, true},                                   // floored, not truncated
		{"epoch", "174.0", 174, true},                                 // relative seconds keep their value
		{"epoch", "1e9", 0, false},                                    // no exponents
		{"epochms", "1577934245123", unix(2020, 1, 2, 3, 4, 5), true}, // ms dropped
		{"rfc3339", "2020-01-02T03:04:05Z", unix(2020, 1, 2, 3, 4, 5), true},
		{"rfc3339", "2020-01-02T03:04:05", 0, false}, // no zone
		{"date", "2020-01-02", unix(2020, 1, 2, 0, 0, 0), true},
		{"date", "2020-01-02 00:00:00", 0, false},
		{"datetime", "2020-01-02 03:04:05", unix(2020, 1, 2, 3, 4, 5), true},
		{"datetime", "2020-01-02T03:04:05Z", 0, false},
		{"02/01/2006 15:04", "02/01/2020 03:04", unix(2020, 1, 2, 3, 4, 0), true}, // a Go layout
		{"auto", "2020-01-02", unix(2020, 1, 2, 0, 0, 0), true},
		{"auto", "1577934245", unix(2020, 1, 2, 3, 4, 5), true},
		{"auto", "1577934245000", unix(2020, 1, 2, 3, 4, 5), true}, // ms by magnitude
		{"auto", "0", 0, false},                                    // relative seconds are not guessed
		{"auto", "4514", 0, false},
		{"auto", "yesterday", 0, false},
	}
	for _, c := range cases {
		p := newTimeParser(c.layout, time.Time{})
		got, err := p.parse([]byte(c.in))
		if (err == nil) != c.ok || (c.ok && got != c.want) || (!c.ok && !errors.Is(err, source.ErrTimestamp)) {
			t.Errorf("%s %q = %d, %v; want %d ok=%v", c.layout, c.in, got, err, c.want, c.ok)
		}
	}
	if err := validLayout("banana"); err == nil {
		t.Error("layout banana accepted")
	}
}

func TestCSVFixture(t *testing.T) {
	opt := Options{ID: "page", Time: "when", Group: "site", Source: "wiki"}
	_, _, err := read(t, openFixture(t, "edits.csv"), opt, source.Options{File: "edits.csv"})
	// Line 6 holds an epoch number where the ISO family was detected; the
	// record starts at byte 3+23+49+59+36 = 170 (BOM and lines counted by hand).
	var pe *source.ParseError
	if !errors.As(err, &pe) || pe.Line != 6 || pe.Reason != "timestamp" || pe.Page != "Other" || pe.Offset != 170 {
		t.Fatalf("got %v %+v, want a timestamp error on line 6 at byte 170", err, pe)
	}
	pages, rd, err := read(t, openFixture(t, "edits.csv"), opt, source.Options{File: "edits.csv", SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	// Sorted by id: Haupt, Main. Main's second time is 03:04:05+01:00 = 02:04:05Z.
	if len(pages) != 2 || pages[0].Title != "Haupt" || pages[0].Group != "de" || pages[1].Title != "Main" || pages[1].Group != "en" ||
		!slices.Equal(pages[1].Revisions, []int64{unix(2020, 1, 2, 3, 4, 5), unix(2020, 1, 2, 2, 4, 5)}) ||
		pages[1].Source != "wiki" || pages[1].Resolution != 1 || pages[1].ID != PageID("Main") || pages[1].Line != 2 {
		t.Fatalf("pages %+v %+v", pages[0], pages[1])
	}
	// 6 physical lines; 3 good records, 1 bad; the quoted newline makes a
	// 2-line record at line 3.
	if st := rd.Stats(); st.Lines != 6 || st.Records != 3 || st.Bad != 1 || st.BadLines != 1 || st.LongestRecord != 2 || st.LongestRecordLine != 3 || st.TimeLayout != "iso" {
		t.Errorf("stats %+v", st)
	}
}

func TestTSVFixture(t *testing.T) {
	pages, rd, err := read(t, openFixture(t, "edits.tsv"), Options{Format: "auto", ID: "0", Time: "when", Group: "2"}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rd.Stats().Format != "tsv" || rd.Stats().TimeLayout != "epoch" || len(pages) != 2 ||
		!slices.Equal(pages[0].Revisions, []int64{1577934245, 1577934245}) || pages[1].Group != "fr" {
		t.Fatalf("stats %+v pages %+v", rd.Stats(), pages)
	}
}

func TestJSONLFixture(t *testing.T) {
	pages, rd, err := read(t, openFixture(t, "edits.jsonl"), Options{ID: "page", Time: "when", Group: "site"}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A numeric id is taken as its digits; one date-only time → day resolution.
	if len(pages) != 2 || pages[0].Title != "42" || pages[1].Title != "Main" || pages[1].Group != "en" ||
		pages[0].Revisions[0] != unix(2020, 1, 2, 0, 0, 0) || pages[0].Resolution != units.Day {
		t.Fatalf("pages %+v %+v", pages[0], pages[1])
	}
	if st := rd.Stats(); st.Blank != 1 || st.Records != 2 || st.Lines != 3 || st.DateOnly != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestJSONLArraysAndBad(t *testing.T) {
	in := `["a","x","2020-01-01T00:00:00Z"]
["b","x"]
["c","x",null]
["d","x","2020-01-01T00:00:00Z",]
{"page":"e"}
["","x","2020-01-01T00:00:00Z"]
["a","x",1577836800]`
	var bad []*source.ParseError
	pages, rd, err := read(t, strings.NewReader(in), Options{Format: "jsonl", ID: "0", Time: "2"}, source.Options{SkipBad: true, OnBad: func(e *source.ParseError) { bad = append(bad, e) }})
	if err != nil {
		t.Fatal(err)
	}
	// Lines 2 (no index 2), 3 (null), 4 (bad JSON), 5 (object without "0"
	// and "2"), 6 (empty id) are bad; line 7 is an epoch number in an
	// ISO-detected column and is bad too.
	wantLines := []int64{2, 3, 4, 5, 6, 7}
	var got []int64
	for _, e := range bad {
		got = append(got, e.Line)
	}
	if !slices.Equal(got, wantLines) || rd.Stats().Bad != 6 || len(pages) != 1 || pages[0].Title != "a" {
		t.Fatalf("bad lines %v, stats %+v, pages %v", got, rd.Stats(), pages)
	}
	// A field name against a file of arrays is an options error, not skipped.
	_, _, err = read(t, strings.NewReader(in), Options{Format: "jsonl", ID: "page", Time: "2"}, source.Options{SkipBad: true})
	if !errors.Is(err, errConfig) {
		t.Fatalf("got %v, want an options error", err)
	}
}

func TestJSONKeysFixture(t *testing.T) {
	pages, rd, err := read(t, openFixture(t, "fr.json"), Options{IDFromFileName: true, FileName: "covid/fr.json"}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rd.Stats().Format != FormatJSONKeys || len(pages) != 1 || pages[0].Title != "fr" ||
		!slices.Equal(pages[0].Revisions, []int64{unix(2020, 1, 19, 21, 18, 36), unix(2020, 1, 19, 21, 18, 37), unix(2020, 1, 20, 8, 0, 0)}) {
		t.Fatalf("stats %+v pages %+v", rd.Stats(), pages)
	}
	// A key that is no timestamp; then a truncated object.
	in := "{\n\"2020-01-01T00:00:00Z\": 1,\n\"oops\": 2,\n\"2020-01-02T00:00:00Z\": [1,"
	_, _, err = read(t, strings.NewReader(in), Options{Format: "jsonkeys", IDFromFileName: true, FileName: "x.json"}, source.Options{})
	var pe *source.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Reason != "timestamp" || pe.Page != "x" {
		t.Fatalf("got %v, want a timestamp error on line 3", err)
	}
	var bad []*source.ParseError
	pages, _, err = read(t, strings.NewReader(in), Options{Format: "jsonkeys", IDFromFileName: true, FileName: "x.json"},
		source.Options{SkipBad: true, OnBad: func(e *source.ParseError) { bad = append(bad, e) }})
	// The truncated third member is never complete: one revision is kept.
	if err != nil || len(bad) != 2 || bad[1].Line != 4 || bad[1].Reason != "truncated" || len(pages[0].Revisions) != 1 {
		t.Fatalf("got %v, bad %+v, pages %+v", err, bad, pages)
	}
}

func TestSkipLinesAndHeaderErrors(t *testing.T) {
	in := "Data pulled on 10/29/2014\nid, t\na,1577934245\n"
	pages, rd, err := read(t, strings.NewReader(in), Options{ID: "id", Time: "t", SkipLines: 1}, source.Options{})
	if err != nil || len(pages) != 1 || rd.Stats().SkipLines != 1 || rd.Stats().Lines != 3 {
		t.Fatalf("got %v %v %+v", err, pages, rd.Stats())
	}
	// Without SkipLines the title line is the header: the columns are not in it.
	_, _, err = read(t, strings.NewReader(in), Options{Format: "csv", ID: "id", Time: "t"}, source.Options{File: "r.csv"})
	var pe *source.ParseError
	if !errors.As(err, &pe) || pe.Reason != "header" || pe.Line != 1 || !strings.Contains(err.Error(), `id column "id" is not in the header`) {
		t.Fatalf("got %v", err)
	}
	_, _, err = read(t, strings.NewReader(""), Options{Format: "csv", ID: "id", Time: "t"}, source.Options{})
	if !errors.Is(err, source.ErrTruncated) {
		t.Fatalf("empty input: %v", err)
	}
	for _, o := range []Options{{Time: "t"}, {ID: "a", Format: "xml", Time: "t"}, {ID: "a", Time: "t", TimeLayout: "banana"},
		{IDFromFileName: true, FileName: "-", Time: "t"}, {ID: "a", IDFromFileName: true, FileName: "f", Time: "t"}, {ID: "a", Format: "csv"}} {
		if _, err := NewReader(strings.NewReader(in), o, source.Options{}); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}

func TestSniffFormat(t *testing.T) {
	for _, c := range []struct{ head, want string }{
		{"path,commit,author_time_utc\nx,y,z\n", "csv"},
		{"\ufeffa,b\n", "csv"},
		{"page\twhen\n", "tsv"},
		{`{"a":1}` + "\n" + `{"a":2}`, "jsonl"},
		{`["100169", "Parvati", "2002-10-06T20:34:51Z", "1"]`, "jsonl"},
		{"{\n    \"2020-01-19T21:18:36Z\": {\n        \"sections\": [", "jsonkeys"},
		{`{"2020-01-19T21:18:36Z": 1}`, "jsonkeys"},
		{"<mediawiki xmlns=", ""},
		{"justoneword\n", ""},
		{"\x1f\x8b\x08\x00", ""},
		{"", ""},
	} {
		if got := SniffFormat([]byte(c.head)); got != c.want {
			t.Errorf("SniffFormat(%q) = %q, want %q", c.head, got, c.want)
		}
	}
}

func TestFileIDAndPageID(t *testing.T) {
	for _, c := range []struct {
		name string
		dir  bool
		want string
	}{
		{"covid19_020720/fr.json", false, "fr"},
		{"x/zh-yue.json.gz", false, "zh-yue"},
		{"RevisionData/Monsanto/Revisions.csv", true, "Monsanto"},
		{`C:\data\Monsanto\Revisions.csv`, false, "Revisions"},
	} {
		if got := FileID(c.name, c.dir); got != c.want && !(runtime.GOOS != "windows" && c.name[0] == 'C') {
			t.Errorf("FileID(%q, %v) = %q, want %q", c.name, c.dir, got, c.want)
		}
	}
	// FNV-1a 64 of "" is the offset basis 0xcbf29ce484222325; of "a" it is
	// 0xaf63dc4c8601ec8c (published test vectors); the top bit is cleared.
	if PageID("") != 0x4bf29ce484222325 || PageID("a") != 0x2f63dc4c8601ec8c {
		t.Errorf("PageID: %#x %#x", PageID(""), PageID("a"))
	}
	if err := CheckCollisions(3, func(i int) string { return []string{"a", "b", "a"}[i] }, "f"); err != nil {
		t.Errorf("equal ids are no collision: %v", err)
	}
	// A 63-bit FNV collision cannot be found in a test's time; a weak hash
	// (the length) makes "ab" and "cd" collide.
	ids := []string{"a", "ab", "xyz", "cd"}
	err := checkCollisionsHash(len(ids), func(i int) string { return ids[i] }, "f.csv", func(s string) int64 { return int64(len(s)) })
	if err == nil || !strings.Contains(err.Error(), `"ab" and "cd"`) || !strings.Contains(err.Error(), "f.csv") {
		t.Errorf("collision not reported: %v", err)
	}
}

func TestTSVNoQuoting(t *testing.T) {
	// Quotes are ordinary in TSV; a line with 3 fields is bad; blank lines pass.
	in := "page\twhen\tcomment\n\"Main\"\t2020-01-01\tsaid \"hi\"\n\nMain\t2020-01-02\n"
	var bad []*source.ParseError
	pages, rd, err := read(t, strings.NewReader(in), Options{Format: "auto", ID: "page", Time: "when"},
		source.Options{SkipBad: true, OnBad: func(e *source.ParseError) { bad = append(bad, e) }})
	if err != nil {
		t.Fatal(err)
	}
	// The bad line is line 4 at byte 18+28+1 = 47 (counted by hand).
	if rd.Stats().Format != "tsv" || len(pages) != 1 || pages[0].Title != `"Main"` || len(bad) != 1 || bad[0].Line != 4 || bad[0].Offset != 47 || rd.Stats().Blank != 1 {
		t.Fatalf("stats %+v pages %v bad %v", rd.Stats(), pages, bad)
	}
}
