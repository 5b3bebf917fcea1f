package generic

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/revisit-dev/revisit/ingest/source"
)

// FuzzGenericJSONL checks the JSON-lines reader against encoding/json line
// by line: with objects, a line is good iff it is an object whose "id" is a
// non-empty string or a number and whose "t" is a string or number that the
// column's layout (fixed to epoch here; parseEpoch is tested in
// TestLayouts) accepts. Counts and per-id series must agree.
func FuzzGenericJSONL(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","t":1577934245}` + "\n" + `{"id":7,"t":"1577934245.5"}`,
		`{"id":"a"}` + "\n\n" + `{"id":"a","t":"x"}` + "\n" + `{"id":"a","t":1e3}`,
		`{"id":"\u00e9","t":-1.5,"x":[{}]}` + "\r\n" + `{"id":"a","t":12,`,
		"\ufeff" + `{"id":"a","t":1577934245}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := NewReader(bytes.NewReader(data), Options{Format: "jsonl", ID: "id", Time: "t", TimeLayout: "epoch"}, source.Options{SkipBad: true})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]int64{}
		for {
			p, err := rd.Next()
			if err == io.EOF {
				break
			}
			if errors.Is(err, errConfig) {
				return // a line holding an array with a field name: refused, not skipped
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			got[p.Title] = p.Revisions
		}
		var good, bad, blank int64
		want := map[string][]int64{}
		for _, line := range splitLines(data) {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if len(bytes.TrimSpace(line)) == 0 {
				blank++
				continue
			}
			var m map[string]json.RawMessage
			var id, tv any
			ok := json.Unmarshal(line, &m) == nil && m != nil && m["id"] != nil && m["t"] != nil
			if ok {
				ok = json.Unmarshal(m["id"], &id) == nil && json.Unmarshal(m["t"], &tv) == nil
			}
			var ids string
			if ok {
				switch v := id.(type) {
				case string:
					ids = v
				case float64:
					ids = string(bytes.TrimSpace(m["id"]))
				}
				ok = ids != ""
			}
			var sec int64
			if ok {
				raw := bytes.TrimSpace(m["t"])
				switch tv.(type) {
				case string:
					var s string
					_ = json.Unmarshal(raw, &s)
					raw = []byte(s)
				case float64:
				default:
					ok = false
				}
				if ok {
					var err error
					sec, err = parseEpoch(raw, 1)
					ok = err == nil
				}
			}
			if ok {
				good++
				want[ids] = append(want[ids], sec)
			} else {
				bad++
			}
		}
		st := rd.Stats()
		if st.Records != good || st.Bad != bad || st.Blank != blank {
			t.Fatalf("stats %+v; reference good %d bad %d blank %d", st, good, bad, blank)
		}
		if len(got) != len(want) {
			t.Fatalf("%d objects, reference %d", len(got), len(want))
		}
		for id, w := range want {
			if g := got[id]; len(g) != len(w) {
				t.Fatalf("%q: %v, reference %v", id, g, w)
			}
		}
	})
}

// FuzzGenericCSV checks that no CSV input panics and that records are
// accounted for: good plus bad records equal the records encoding/csv finds
// after the header (with the same field-count rule), and every good record's
// timestamp is in some page.
func FuzzGenericCSV(f *testing.F) {
	for _, s := range []string{
		"id,t\na,2020-01-01\nb,\"2020-01-02\"\n",
		"id,t\na,\"2020-01-01\nb\",x\n\"c\"d,2020-01-01\n",
		"\ufeffid\tt\na\t1577934245\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := NewReader(bytes.NewReader(data), Options{Format: "csv", ID: "id", Time: "t"}, source.Options{SkipBad: true})
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for {
			p, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return // header problems are not skippable
			}
			n += int64(len(p.Revisions))
		}
		st := rd.Stats()
		cr := csv.NewReader(bytes.NewReader(data))
		records := int64(-1) // the header
		for {
			_, err := cr.Read()
			if err == io.EOF {
				break
			}
			records++
		}
		if n != st.Records || st.Records+st.Bad != records {
			t.Fatalf("stats %+v, revisions %d, encoding/csv records %d", st, n, records)
		}
	})
}

// splitLines splits b into lines as a line reader does: a final newline
// ends the last line rather than starting an empty one, and a byte-order
// mark at the very start is not part of the first line.
func splitLines(b []byte) [][]byte {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	if len(b) == 0 {
		return nil
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}
