package yelp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// readFile runs a Reader over a file and returns its pages by business id.
func readFile(t *testing.T, path string, so source.Options, bs Businesses) (*Reader, map[string]*series.RawPage, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	so.File = path
	rd, err := NewReader(f, so)
	if err != nil {
		return nil, nil, err
	}
	rd.SetBusinesses(bs)
	pages := map[string]*series.RawPage{}
	prev := ""
	for {
		p, err := rd.Next()
		if err == io.EOF {
			return rd, pages, nil
		}
		if err != nil {
			return rd, pages, err
		}
		id := p.Title // the business_id when no business file is joined
		if id <= prev && bs == nil {
			t.Fatalf("%s: business %q after %q: not sorted by business_id", path, id, prev)
		}
		prev = id
		pages[id] = p
	}
}

// reference computes per-business timestamps naively: encoding/json on
// each complete line into a small struct, dates parsed with time.Parse.
// A line that does not unmarshal is counted as bad.
func reference(t *testing.T, path string, checkin bool) (ref map[string][]int64, bad int) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ref = map[string][]int64{}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var rec struct {
			BusinessID string `json:"business_id"`
			Date       string `json:"date"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			bad++
			continue
		}
		dates := []string{rec.Date}
		if checkin {
			dates = strings.Split(rec.Date, ", ")
		}
		for _, d := range dates {
			layout := "2006-01-02 15:04:05"
			if len(d) == 10 {
				layout = "2006-01-02"
			}
			tm, err := time.Parse(layout, d)
			if err != nil {
				t.Fatalf("reference: %q: %v", d, err)
			}
			ref[rec.BusinessID] = append(ref[rec.BusinessID], tm.Unix())
		}
	}
	return ref, bad
}

func compare(t *testing.T, name string, pages map[string]*series.RawPage, ref map[string][]int64) {
	t.Helper()
	if len(pages) != len(ref) {
		t.Errorf("%s: %d businesses, reference %d", name, len(pages), len(ref))
	}
	for id, want := range ref {
		p := pages[id]
		if p == nil {
			t.Errorf("%s: business %q missing", name, id)
			continue
		}
		if !slices.Equal(p.Revisions, want) || p.ID != generic.PageID(id) || p.Source != "yelp" {
			t.Errorf("%s: %q: %d timestamps (id %d), reference %d", name, id, len(p.Revisions), p.ID, len(want))
		}
	}
}

func total(m map[string][]int64) (n int) {
	for _, v := range m {
		n += len(v)
	}
	return n
}

func TestRealYelpFiles(t *testing.T) {
	cases := []struct {
		rel                 string
		kind                string
		timestamps, records int // SOURCES.md §2
		businesses          int
		resolution          int32
		top                 map[string]int
	}{
		{"yelp/alisongh__SIADS-591-592/checkin.json", KindCheckin, 11291, 100, 100, 1,
			map[string]int{"--UNNdnHRhsyFUbDgumdtQ": 2324, "--hkbIWgBKBOZq4VcNwdhQ": 1204}},
		{"yelp/xiaonanzzz__SnlpProject/yelp_academic_dataset_review.json", KindReview, 300, 300, 33, units.Day, nil},
		{"yelp/shenyy__Resturants/yelp_academic_dataset_tip.json", KindTip, 5372, 5372, 1238, units.Day, nil},
	}
	for _, c := range cases {
		path := realdata.Path(t, c.rel)
		rd, pages, err := readFile(t, path, source.Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ref, bad := reference(t, path, c.kind == KindCheckin)
		if bad != 0 {
			t.Fatalf("%s: reference found %d bad lines", c.rel, bad)
		}
		compare(t, c.rel, pages, ref)
		st := rd.Stats()
		if st.Kind != c.kind || st.Timestamps != int64(c.timestamps) || st.Records != int64(c.records) ||
			st.Businesses != c.businesses || st.Bad != 0 || total(ref) != c.timestamps || st.Resolution != c.resolution {
			t.Errorf("%s: stats %+v, reference %d timestamps; SOURCES.md says %s %d / %d businesses, resolution %d",
				c.rel, st, total(ref), c.kind, c.timestamps, c.businesses, c.resolution)
		}
		for id, n := range c.top {
			if len(pages[id].Revisions) != n {
				t.Errorf("%s: %s has %d, SOURCES.md says %d", c.rel, id, len(pages[id].Revisions), n)
			}
		}
		for id, p := range pages {
			if p.Resolution != c.resolution {
				t.Fatalf("%s: page resolution %d, want %d", c.rel, p.Resolution, c.resolution)
			}
			if p.SourceID != id { // the business_id, to join results back to Yelp's files
				t.Fatalf("%s: page %q has source id %q, want its business_id", c.rel, id, p.SourceID)
			}
		}
	}
}

func TestRealYelpTruncated(t *testing.T) {
	path := realdata.Path(t, "yelp/tilmanbeck__dcwe/yelp_academic_dataset_review.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The cut last line starts after the last newline: it is line
	// (newlines + 1) = 3611 and starts at that byte offset.
	lastLine := int64(bytes.Count(b, []byte{'\n'}) + 1)
	lastOff := int64(bytes.LastIndexByte(b, '\n') + 1)
	if lastLine != 3611 {
		t.Fatalf("file has %d lines, SOURCES.md says 3,611 (3,610 complete)", lastLine)
	}

	// Without SkipBad: a clear error naming the file, line and offset.
	_, _, err = readFile(t, path, source.Options{}, nil)
	var pe *source.ParseError
	if !errors.As(err, &pe) || pe.File != path || pe.Line != lastLine || pe.Offset != lastOff ||
		pe.Reason != "truncated" || !errors.Is(err, source.ErrTruncated) {
		t.Fatalf("got %v, want a truncated *source.ParseError at line %d byte %d", err, lastLine, lastOff)
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "line 3611") {
		t.Errorf("message %q does not name the file and line", msg)
	}
	t.Log(err)

	// With SkipBad: 3,610 reviews, 2,219 businesses, exactly 1 bad record.
	var skipped []*source.ParseError
	rd, pages, err := readFile(t, path, source.Options{SkipBad: true, OnBad: func(e *source.ParseError) { skipped = append(skipped, e) }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, bad := reference(t, path, false)
	compare(t, "tilmanbeck", pages, ref)
	st := rd.Stats()
	if st.Records != 3610 || st.Businesses != 2219 || st.Bad != 1 || bad != 1 || len(skipped) != 1 || skipped[0].Line != 3611 || st.Resolution != 1 {
		t.Errorf("stats %+v, reference bad %d, skipped %v; want 3,610 / 2,219 / 1 bad at line 3611", st, bad, skipped)
	}
}
