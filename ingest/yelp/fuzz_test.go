package yelp

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/source"
)

// fuzzHead fixes the file's kind so every fuzzed line is read as a review.
const fuzzHead = `{"review_id":"r0","business_id":"b0","date":"2018-01-01 00:00:00"}` + "\n"

// FuzzYelp feeds arbitrary lines after a review record and checks the
// reader against encoding/json, line by line: a line is good iff it is a
// JSON object whose business_id is a non-empty string and whose date is a
// string that generic.ParseISO accepts (ParseISO is itself tested against
// time.Parse); good lines' timestamps must appear under their business, in
// order, and every other non-blank line must be counted bad. No input may
// panic.
func FuzzYelp(f *testing.F) {
	for _, s := range []string{
		`{"review_id":"r1","business_id":"b\u0031","date":"2018-10-04 12:00:00","text":"a \"q\"\n"}`,
		`{"votes": {"funny": 0}, "date": "2007-05-17", "type": "review", "business_id": "x"}` + "\n\n" + `{"business_id":"x","date":"2007-05-1`,
		`{"business_id":"","date":"2007-05-17"}`,
		`{"business_id":"a","date":"2007-02-29"}` + "\r\n" + `[1,2]`,
		`{"business_id":"a","business_id":"b","date":"2001-01-01T00:00:00+01:00"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := append([]byte(fuzzHead), data...)
		rd, err := NewReader(bytes.NewReader(in), source.Options{File: "fuzz", SkipBad: true})
		if err != nil {
			t.Fatalf("NewReader: %v", err)
		}
		got := map[string][]int64{}
		for {
			p, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if bytes.Contains([]byte(err.Error()), []byte("collision")) {
					t.Skip("hash collision")
				}
				t.Fatalf("Next: %v", err)
			}
			if p.ID != generic.PageID(p.Title) {
				t.Fatalf("id of %q", p.Title)
			}
			got[p.Title] = p.Revisions
		}
		want := map[string][]int64{}
		var good, bad, blank int64
		for _, line := range splitLines(in) {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if len(bytes.Trim(line, " \t\r")) == 0 {
				blank++
				continue
			}
			var m map[string]json.RawMessage
			var bid, date string
			ok := json.Unmarshal(line, &m) == nil && m != nil &&
				json.Unmarshal(m["business_id"], &bid) == nil && bid != "" &&
				json.Unmarshal(m["date"], &date) == nil && m["date"] != nil && string(m["date"]) != "null"
			if ok {
				sec, _, _, err := generic.ParseISO([]byte(date))
				if ok = err == nil; ok {
					want[bid] = append(want[bid], sec)
					good++
				}
			}
			if !ok {
				bad++
			}
		}
		st := rd.Stats()
		if st.Records != good || st.Bad != bad || st.Blank != blank {
			t.Fatalf("stats %+v; reference good %d bad %d blank %d", st, good, bad, blank)
		}
		if len(got) != len(want) {
			t.Fatalf("%d businesses, reference %d", len(got), len(want))
		}
		for id, w := range want {
			g := got[id]
			if len(g) != len(w) {
				t.Fatalf("%q: %v, reference %v", id, g, w)
			}
			for i := range w {
				if g[i] != w[i] {
					t.Fatalf("%q: %v, reference %v", id, g, w)
				}
			}
		}
	})
}

// splitLines splits b into lines as a line reader does: a final newline
// ends the last line rather than starting an empty one.
func splitLines(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}
