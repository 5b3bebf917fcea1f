package yelp

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// fixture is the path of a file in the repository's testdata/yelp.
func fixture(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "yelp", name)
}

func unix(y int, m time.Month, d, hh, mm, ss int) int64 {
	return time.Date(y, m, d, hh, mm, ss, 0, time.UTC).Unix()
}

// readAll reads every page of an input.
func readAll(r io.Reader, so source.Options, bs Businesses) ([]*series.RawPage, *Reader, error) {
	rd, err := NewReader(r, so)
	if err != nil {
		return nil, nil, err
	}
	rd.SetBusinesses(bs)
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

func open(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(fixture(name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

type want struct {
	title, group string
	times        []int64
}

func check(t *testing.T, name string, pages []*series.RawPage, res int32, ws []want) {
	t.Helper()
	if len(pages) != len(ws) {
		t.Fatalf("%s: %d pages, want %d", name, len(pages), len(ws))
	}
	for i, w := range ws {
		p := pages[i]
		if p.Title != w.title || p.Group != w.group || !slices.Equal(p.Revisions, w.times) || p.Resolution != res || p.Source != "yelp" {
			t.Errorf("%s: page %d = %q/%q %v res %d, want %q/%q %v res %d", name, i, p.Title, p.Group, p.Revisions, p.Resolution, w.title, w.group, w.times, res)
		}
	}
}

// Expected values below are read off the fixture files by hand; the times
// are the fixtures' dates converted with time.Date.
func TestFixtures(t *testing.T) {
	cases := []struct {
		file string
		kind string
		res  int32
		want []want
	}{
		{"review_new.json", KindReview, 1, []want{
			{"A0", "", []int64{unix(2016, 1, 30, 2, 18, 30)}},
			// "B\u0031" is "B1": three reviews in input order, one same-second pair kept.
			{"B1", "", []int64{unix(2018, 10, 4, 12, 0, 0), unix(2018, 10, 3, 23, 59, 59), unix(2018, 10, 4, 12, 0, 0)}},
		}},
		{"review_old.json", KindReview, units.Day, []want{
			{"vcNAWiLM4dR7D2nwwJ7nCA", "", []int64{unix(2007, 5, 17, 0, 0, 0), unix(2010, 2, 28, 0, 0, 0)}},
		}},
		{"tip_new.json", KindTip, 1, []want{
			{"A0", "", []int64{unix(2012, 5, 18, 2, 17, 21), unix(2013, 2, 5, 18, 35, 10)}},
		}},
		{"tip_old.json", KindTip, units.Day, []want{{"A0", "", []int64{unix(2011, 2, 9, 0, 0, 0)}}}},
		// No trailing newline: B1's line is the last and must be read.
		{"checkin_new.json", KindCheckin, 1, []want{
			{"A0", "", []int64{unix(2010, 10, 8, 22, 21, 20), unix(2010, 11, 1, 21, 29, 14), unix(2011, 4, 8, 17, 14, 59)}},
			{"B1", "", []int64{unix(2017, 9, 3, 17, 13, 59)}},
		}},
	}
	for _, c := range cases {
		pages, rd, err := readAll(open(t, c.file), source.Options{File: c.file}, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		check(t, c.file, pages, c.res, c.want)
		if rd.Kind() != c.kind {
			t.Errorf("%s: kind %s, want %s", c.file, rd.Kind(), c.kind)
		}
		for _, p := range pages {
			if p.ID != generic.PageID(p.Title) {
				t.Errorf("%s: %q id %d, want PageID", c.file, p.Title, p.ID)
			}
		}
	}
	// review_new.json: 5 lines, 1 blank, 4 records, 2 businesses.
	_, rd, _ := readAll(open(t, "review_new.json"), source.Options{}, nil)
	if st := rd.Stats(); st.Lines != 5 || st.Blank != 1 || st.Records != 4 || st.Timestamps != 4 || st.Businesses != 2 || st.DateOnly != 0 {
		t.Errorf("stats %+v", st)
	}
	// checkin_new.json: 2 records, 4 timestamps.
	_, rd, _ = readAll(open(t, "checkin_new.json"), source.Options{}, nil)
	if st := rd.Stats(); st.Records != 2 || st.Timestamps != 4 {
		t.Errorf("stats %+v", st)
	}
}

func TestBusinessJoin(t *testing.T) {
	bs, err := ReadBusinesses(open(t, "business.json"), source.Options{File: "business.json"})
	if err != nil {
		t.Fatal(err)
	}
	if bs["A0"] != (Business{Name: "Soup & Co", City: "Pittsburgh", State: "PA", Categories: "Restaurants, Soup"}) ||
		bs["B1"] != (Business{Name: "Café B", City: "Las Vegas", State: "NV"}) {
		t.Fatalf("businesses %+v", bs)
	}
	pages, rd, err := readAll(open(t, "review_new.json"), source.Options{}, bs)
	if err != nil {
		t.Fatal(err)
	}
	// Still ordered by business_id (A0, B1), now titled by name, grouped by city.
	if pages[0].Title != "Soup & Co" || pages[0].Group != "Pittsburgh" || pages[1].Title != "Café B" || pages[1].Group != "Las Vegas" ||
		pages[1].ID != generic.PageID("B1") || rd.Stats().Joined != 2 {
		t.Errorf("joined pages %+v %+v, stats %+v", pages[0], pages[1], rd.Stats())
	}
	if pages[0].SourceID != "A0" || pages[1].SourceID != "B1" { // titled by name, the business_id kept
		t.Errorf("joined pages' source ids %q, %q, want A0, B1", pages[0].SourceID, pages[1].SourceID)
	}
	old, err := ReadBusinesses(open(t, "business_old.json"), source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b := old["vcNAWiLM4dR7D2nwwJ7nCA"]; b.Name != "Eric Goldberg, MD" || b.City != "Phoenix" || b.Categories != "Doctors, Health & Medical" {
		t.Errorf("old business %+v", b)
	}
	// A review file is not a business file.
	if _, err := ReadBusinesses(open(t, "review_old.json"), source.Options{}); err == nil {
		t.Error("review file read as businesses")
	}
}

func TestRejected(t *testing.T) {
	for _, c := range []struct {
		file, in string
		want     error
		contains string
	}{
		{"checkin_old.json", "", ErrAggregatedCheckins, "weekday/hour counts"},
		{"business.json", "", nil, "ReadBusinesses"},
		{"", `{"time":{"Friday":{"20:00":1}},"business_id":"b"}`, ErrAggregatedCheckins, "weekday/hour counts"},
		{"", `{"user_id":"u","name":"n","review_count":3,"yelping_since":"2010-01-01"}`, nil, "not a Yelp review"},
		{"", "\n\n", nil, "no Yelp record"},
	} {
		var r io.Reader = strings.NewReader(c.in)
		if c.file != "" {
			r = open(t, c.file)
		}
		_, err := NewReader(r, source.Options{File: "f.json"})
		var pe *source.ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.contains) || (c.want != nil && !errors.Is(err, c.want)) || pe.File != "f.json" {
			t.Errorf("%s%q: got %v, want an error containing %q", c.file, c.in, err, c.contains)
		}
	}
}

func TestBadRecords(t *testing.T) {
	in := strings.Join([]string{
		`{"review_id":"r1","business_id":"A","date":"2018-01-01 00:00:00"}`,  // line 1 ok
		`{"review_id":"r2","business_id":"A","date":"2018-02-30 00:00:00"}`,  // 2: no such date
		`{"review_id":"r3","date":"2018-01-01 00:00:00"}`,                    // 3: no business_id
		`{"review_id":"r4","business_id":"B"}`,                               // 4: no date
		`{"review_id":"r5","business_id":"B","date":"2018-01-01 00:00:00",}`, // 5: bad JSON
		`{"review_id":"r6","business_id":7,"date":"2018-01-01 00:00:00"}`,    // 6: id not a string
		`{"review_id":"r7","business_id":"B","date":"2018-01-01"}`,           // 7 ok, date-only
		`{"review_id":"r8","business_id":"B","date":"2018-01-0`,              // 8: truncated
	}, "\n")
	// Line offsets: each line's length plus its newline, summed by hand via
	// strings.Index of the line's text.
	off := func(line int) int64 {
		return int64(strings.Index(in, `"r`+string(rune('0'+line))+`"`) - len(`{"review_id":`))
	}
	wantBad := []struct {
		line   int64
		reason string
		page   string
	}{{2, "timestamp", "A"}, {3, "missing-field", ""}, {4, "missing-field", "B"}, {5, "json", "B"}, {6, "missing-field", ""}, {8, "truncated", "B"}}

	_, _, err := readAll(strings.NewReader(in), source.Options{File: "x"}, nil)
	var pe *source.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Offset != off(2) || pe.Reason != "timestamp" || pe.Page != "A" || !errors.Is(err, source.ErrTimestamp) {
		t.Fatalf("got %v (%+v), want a timestamp error on line 2", err, pe)
	}

	var got []*source.ParseError
	pages, rd, err := readAll(strings.NewReader(in), source.Options{File: "x", SkipBad: true, OnBad: func(e *source.ParseError) { got = append(got, e) }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(wantBad) || rd.Stats().Bad != int64(len(wantBad)) {
		t.Fatalf("%d bad reported, stats %+v, want %d", len(got), rd.Stats(), len(wantBad))
	}
	for i, w := range wantBad {
		if got[i].Line != w.line || got[i].Reason != w.reason || got[i].Page != w.page || got[i].Offset != off(int(w.line)) || got[i].File != "x" {
			t.Errorf("bad %d = %+v, want line %d %s page %q", i, got[i], w.line, w.reason, w.page)
		}
	}
	// Lines 1 and 7 remain; one date-only date makes the file's resolution a day.
	check(t, "bad", pages, units.Day, []want{
		{"A", "", []int64{unix(2018, 1, 1, 0, 0, 0)}},
		{"B", "", []int64{unix(2018, 1, 1, 0, 0, 0)}},
	})
}

func TestSniff(t *testing.T) {
	for _, c := range []struct {
		line string
		kind string
	}{
		{`{"review_id":"x","user_id":"u","business_id":"b","stars":4.0,"date":"2018-10-04 12:00:00"}`, KindReview},
		{`{"votes": {"funny": 0}, "user_id": "u", "review_id": "r", "date": "2007-05-17", "type": "review", "business_id": "b"}`, KindReview},
		{`{"user_id":"u","business_id":"b","text":"t","date":"2012-05-18 02:17:21","compliment_count":0}`, KindTip},
		{`{"user_id": "u", "text": "t", "business_id": "b", "likes": 0, "date": "2011-02-09", "type": "tip"}`, KindTip},
		{`{"business_id":"b","date":"2010-10-08 22:21:20, 2010-11-01 21:29:14"}`, KindCheckin},
		{`{"checkin_info": {"9-5": 1}, "type": "checkin", "business_id": "b"}`, KindCheckin},
		{`{"time":{"Friday":{"20:00":1},"Monday":{"0:00":1}},"business_id":"b"}`, KindCheckin}, // 2017-2018
		{`{"business_id":"b","name":"n","address":"a","city":"c","state":"s"}`, KindBusiness},
		// Cut short after the fields that decide: still recognised.
		{`{"review_id":"x","user_id":"u","business_id":"b","stars":4.0,"text":"a very long te`, KindReview},
		{`{"business_id":"b","date":"2010-10-08 22:21:20, 2010-11-01 21:29:1`, ""}, // the date is cut: business_id alone says nothing
		{`{"user_id":"u","name":"n","yelping_since":"2010-01-01"}`, ""},
		{`{"votes":{}, "type": "user", "user_id": "u"}`, ""},
		{`<mediawiki>`, ""},
		{"\ufeff" + `{"business_id":"b","date":"2010-10-08 22:21:20"}`, KindCheckin},
		{`path,commit,author_time_utc`, ""},
	} {
		k, ok := Sniff([]byte(c.line))
		if k != c.kind || ok != (c.kind != "") {
			t.Errorf("Sniff(%.50s…) = %q %v, want %q", c.line, k, ok, c.kind)
		}
	}
}

// TestSameBusinessAcrossFiles checks the page-id scheme: a business gets
// the same id from its review, tip and check-in files.
func TestSameBusinessAcrossFiles(t *testing.T) {
	ids := map[string]map[int64]bool{}
	for _, f := range []string{"review_new.json", "tip_new.json", "checkin_new.json", "tip_old.json"} {
		pages, _, err := readAll(open(t, f), source.Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pages {
			if ids[p.Title] == nil {
				ids[p.Title] = map[int64]bool{}
			}
			ids[p.Title][p.ID] = true
		}
	}
	if len(ids["A0"]) != 1 || len(ids["B1"]) != 1 {
		t.Errorf("ids per business: %v", ids)
	}
}
