package visits

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func readAll(t *testing.T, opt Options, paths ...string) ([]Observed, *Stats, error) {
	t.Helper()
	var out []Observed
	st, err := Read(context.Background(), paths, opt, func(o *Observed) error {
		out = append(out, *o)
		return nil
	})
	return out, st, err
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func unix(s string) int64 {
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return tm.Unix()
}

// capture is one line of the CDX-family test logs.
type capture struct{ key, ts, status, digest string }

// captures: example.com absent at 00:00, then D1 at 01:00 and 02:00, a
// redirect at 03:00 (skipped), D2 and D3 in the same second at 04:00 (D3
// kept), a revisit record (status "-") of D3 at 05:00; other.org (listed
// out of order) X on Jan 2, Y on Jan 1... so sorted: Y then X.
var captures = []capture{
	{"com,example)/", "20200101000000", "404", "E"},
	{"com,example)/", "20200101010000", "200", "D1"},
	{"org,other)/a", "20200102", "200", "X"},
	{"com,example)/", "20200101020000", "200", "D1"},
	{"com,example)/", "20200101030000", "301", "D9"},
	{"com,example)/", "20200101040000", "200", "D2"},
	{"com,example)/", "20200101040000", "200", "D3"},
	{"org,other)/a", "2020010100", "200", "Y"},
	{"com,example)/", "20200101050000", "-", "D3"},
}

// wantCDX is worked out by hand from captures.
var wantCDX = []Observed{
	{ID: "com,example)/", HasPrev: true, Prev: unix("2020-01-01T00:00:00Z"), FirstChanged: true, Visits: []Visit{
		{T: unix("2020-01-01T01:00:00Z")},
		{T: unix("2020-01-01T02:00:00Z"), Changed: false},
		{T: unix("2020-01-01T04:00:00Z"), Changed: true}, // D1 → D3
		{T: unix("2020-01-01T05:00:00Z"), Changed: false},
	}},
	{ID: "org,other)/a", Visits: []Visit{
		{T: unix("2020-01-01T00:00:00Z")},
		{T: unix("2020-01-02T00:00:00Z"), Changed: true}, // Y → X
	}},
}

func cdxFiles(t *testing.T) map[string]string {
	var cdx, cdxj, js bytes.Buffer
	cdx.WriteString(" CDX N b a m s k r M S V g\n")
	js.WriteString(`[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],` + "\n")
	for i, c := range captures {
		fmt.Fprintf(&cdx, "%s %s http://x/ text/html %s %s - - 100 0 f.warc.gz\n", c.key, c.ts, c.status, c.digest)
		b, _ := json.Marshal([]string{c.key, c.ts, "http://x/", "text/html", c.status, c.digest, "100"})
		js.Write(b)
		if i < len(captures)-1 {
			js.WriteString(",\n")
		} else {
			js.WriteString("]\n")
		}
		fmt.Fprintf(&cdxj, "%s %s {\"url\": \"http://x/\", \"status\": \"%s\", \"digest\": \"sha1:%s\"}\n", c.key, c.ts, c.status, c.digest)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(cdxj.Bytes())
	zw.Close()
	return map[string]string{
		CDX:     writeFile(t, "a.cdx", cdx.Bytes()),
		CDXJSON: writeFile(t, "a.json", js.Bytes()),
		CDXJ:    writeFile(t, "a.cdxj.gz", gz.Bytes()),
	}
}

func TestCDXFamily(t *testing.T) {
	for format, path := range cdxFiles(t) {
		for _, f := range []string{"auto", format} {
			got, st, err := readAll(t, Options{Format: f}, path)
			if err != nil {
				t.Fatalf("%s (--format %s): %v", format, f, err)
			}
			if !reflect.DeepEqual(got, wantCDX) {
				t.Errorf("%s (--format %s):\n got %+v\nwant %+v", format, f, got, wantCDX)
			}
			if st.Captures != 9 || st.URLs != 2 || st.Skipped["status_3xx"] != 1 || st.Skipped["same_second"] != 1 {
				t.Errorf("%s: stats %+v", format, st)
			}
			if got[0].Q(0) != true || got[1].Q(0) != false {
				t.Errorf("%s: Q(0) = %v, %v; want the creation detected for example.com only", format, got[0].Q(0), got[1].Q(0))
			}
		}
	}
	// the plain 7-field form without a legend
	p := writeFile(t, "b.cdx", []byte("com,a)/ 20200101000000 http://a/ text/html 200 A 1\ncom,a)/ 20200101000010 http://a/ text/html 200 B 1\n"))
	got, _, err := readAll(t, Options{}, p)
	if err != nil || len(got) != 1 || len(got[0].Visits) != 2 || !got[0].Visits[1].Changed {
		t.Errorf("7-field CDX: %+v, %v", got, err)
	}
}

func TestTrace(t *testing.T) {
	p := writeFile(t, "t.tsv", []byte("u1\t[[0.5,1],[1,0],[0.25,true],[0,1]]\nu2\t[[0, 0], [2, 1]]\n"))
	got, st, err := readAll(t, Options{}, p)
	if err != nil {
		t.Fatal(err)
	}
	want := []Observed{
		{ID: "u1", HasPrev: true, Prev: 0, FirstChanged: true, Visits: []Visit{
			{T: 43200, Changed: true}, {T: 129600}, {T: 151200, Changed: true}}},
		{ID: "u2", Visits: []Visit{{T: 0}, {T: 172800, Changed: true}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if st.Skipped["same_second"] != 1 || st.Captures != 6 {
		t.Errorf("stats %+v", st)
	}
}

func TestGenericLogs(t *testing.T) {
	lm := writeFile(t, "lm.csv", []byte("url,time,last_modified\n"+
		"a,2020-01-01T00:00:00Z,-\n"+
		"a,1577840400,2020-01-01T00:30:00Z\n"+
		`a,2020-01-01 02:00:00,"Wed, 01 Jan 2020 00:30:00 GMT"`+"\n"+
		"a,2020-01-01T03:00:00Z,2020-01-01T02:30:00Z\n"))
	got, _, err := readAll(t, Options{}, lm)
	if err != nil {
		t.Fatal(err)
	}
	want := []Observed{{ID: "a", Ages: true, HasPrev: true, Prev: unix("2020-01-01T00:00:00Z"), FirstChanged: true, Visits: []Visit{
		{T: unix("2020-01-01T01:00:00Z"), LastMod: unix("2020-01-01T00:30:00Z")},
		{T: unix("2020-01-01T02:00:00Z"), LastMod: unix("2020-01-01T00:30:00Z")},
		{T: unix("2020-01-01T03:00:00Z"), LastMod: unix("2020-01-01T02:30:00Z"), Changed: true},
	}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("last-modified log:\n got %+v\nwant %+v", got, want)
	}
	if got[0].Q(1) || !got[0].Q(2) {
		t.Errorf("Q from Last-Modified: %v %v, want false true", got[0].Q(1), got[0].Q(2))
	}
	ch := writeFile(t, "ch.tsv", []byte("id\ttime\tchanged\nb\t100\t1\nb\t200\t0\nb\t300\ttrue\n"))
	got, _, err = readAll(t, Options{}, ch)
	want = []Observed{{ID: "b", Visits: []Visit{{T: 100}, {T: 200}, {T: 300, Changed: true}}}} // first bit: a reference
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("changed log: %+v, %v", got, err)
	}
}

func TestBadLinesLocated(t *testing.T) {
	p := writeFile(t, "bad.cdx", []byte("com,a)/ 20200101000000 http://a/ text/html 200 A 1\ncom,a)/ 20200101000100 http://a/ text/html 200 B 1\ncom,a)/ 2020-01-01 http://a/ text/html 200 C 1\ncom,a)/ 20200101000300 http://a/ text/html 200 C 1\n"))
	_, _, err := readAll(t, Options{}, p)
	var be *BadRecordError
	if !errors.As(err, &be) || be.File != p || be.Line != 3 || !strings.Contains(err.Error(), p+" line 3") {
		t.Fatalf("error %v, want a bad record at %s line 3", err, p)
	}
	got, st, err := readAll(t, Options{SkipBad: true}, p)
	if err != nil || st.Bad != 1 || st.Inputs[0].Bad["timestamp"] != 1 || len(got[0].Visits) != 3 {
		t.Fatalf("--skip-bad: %+v %+v %v", got, st, err)
	}
	lm := writeFile(t, "lm.csv", []byte("id,time,last_modified\na,100,50\na,200,250\n"))
	if _, _, err := readAll(t, Options{}, lm); !errors.As(err, &be) || be.Line != 3 || be.Reason != "last_modified" {
		t.Errorf("Last-Modified after the visit: %v", err)
	}
}

func TestMaxObservations(t *testing.T) {
	var b strings.Builder
	for i := range 5 {
		fmt.Fprintf(&b, "com,a)/ 2020010100000%d http://a/ text/html 200 A 1\n", i)
	}
	p := writeFile(t, "m.cdx", []byte(b.String()))
	// The refusal says what to do: --sorted, or a larger cap at its memory cost.
	if _, _, err := readAll(t, Options{MaxObservations: 3}, p); err == nil || !strings.Contains(err.Error(), "--max-observations") ||
		!strings.Contains(err.Error(), "--sorted") || !strings.Contains(err.Error(), "bytes of memory per capture") {
		t.Errorf("cap of 3 captures: %v", err)
	}
	// 5 captures and the URL's (7 + 120)/24 → 6: 11
	if _, _, err := readAll(t, Options{MaxObservations: 10}, p); err == nil {
		t.Error("cap of 10: 5 captures and their URL held")
	}
	if got, _, err := readAll(t, Options{MaxObservations: 11}, p); err != nil || len(got[0].Visits) != 5 {
		t.Errorf("cap of 11: %v", err)
	}
}

// Writer then Read gives the Observed back, in every format (times to the
// second, the previous visit as an absent capture or a trace's first
// delay).
func TestWriteRead(t *testing.T) {
	o := Observed{ID: "revisit.invalid/page/7", HasPrev: true, Prev: 1_600_000_000 - 37, FirstChanged: true, Visits: []Visit{
		{T: 1_600_000_000, LastMod: 1_600_000_000 - 5}, {T: 1_600_000_900, LastMod: 1_600_000_000 - 5},
		{T: 1_600_003_601, LastMod: 1_600_003_000}, {T: 1_600_003_602, LastMod: 1_600_003_602}}}
	for j := 1; j < len(o.Visits); j++ {
		o.Visits[j].Changed = o.Visits[j].LastMod > o.Visits[j-1].T
	}
	for _, f := range Formats {
		in := o
		in.Ages = HasAges(f)
		if !in.Ages {
			in.Visits = append([]Visit(nil), o.Visits...)
			for j := range in.Visits {
				in.Visits[j].LastMod = 0
			}
		}
		var buf bytes.Buffer
		w, err := NewWriter(&buf, f)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(&in); err != nil {
			t.Fatal(err)
		}
		w.Close()
		got, _, err := readAll(t, Options{}, writeFile(t, "o"+Ext(f), buf.Bytes()))
		if err != nil || len(got) != 1 {
			t.Fatalf("%s: %v", f, err)
		}
		want := in
		if f == Trace { // a trace's times start at the crawl before the first
			want.Prev = 0
			want.Visits = append([]Visit(nil), in.Visits...)
			for j := range want.Visits {
				want.Visits[j].T -= in.Prev
			}
		}
		want.Visits[0].Changed = got[0].Visits[0].Changed // not used: Q(0) is FirstChanged
		for j := range want.Visits {
			if got[0].Q(j) != want.Q(j) || got[0].Visits[j].T != want.Visits[j].T || got[0].Visits[j].LastMod != want.Visits[j].LastMod {
				t.Errorf("%s visit %d: got %+v, want %+v", f, j, got[0].Visits[j], want.Visits[j])
			}
		}
		if got[0].HasPrev != want.HasPrev || got[0].Prev != want.Prev || got[0].FirstChanged != want.FirstChanged || got[0].Ages != want.Ages {
			t.Errorf("%s: got %+v, want %+v", f, got[0], want)
		}
	}
}

// A CSV log (log-changed, log-digest, log-lastmod) refuses an id that
// starts as a spreadsheet formula: guarded with a "'" as every CSV revisit
// writes, it would not read back as the same id. The other formats write
// it as it is and read it back.
func TestWriteFormulaID(t *testing.T) {
	o := Observed{ID: "=HYPERLINK(x)", HasPrev: true, Prev: 1_600_000_000 - 37, FirstChanged: true,
		Visits: []Visit{{T: 1_600_000_000, LastMod: 1_600_000_000 - 5}, {T: 1_600_000_900, LastMod: 1_600_000_000 - 5}}}
	for _, f := range Formats {
		in := o
		in.Ages = HasAges(f)
		var buf bytes.Buffer
		w, err := NewWriter(&buf, f)
		if err != nil {
			t.Fatal(err)
		}
		err = w.Write(&in)
		w.Close()
		csvLog := f == LogChanged || f == LogDigest || f == LogLastMod
		if csvLog {
			if err == nil || !strings.Contains(err.Error(), "formula") {
				t.Errorf("%s: wrote %q: %v", f, buf.String(), err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got, _, err := readAll(t, Options{}, writeFile(t, "o"+Ext(f), buf.Bytes()))
		if err != nil || len(got) != 1 || got[0].ID != o.ID {
			t.Errorf("%s: read back %+v, %v", f, got, err)
		}
	}
}

// With Sorted, one URL's captures are held at a time: two URLs of three
// captures each fit a cap of 3 (and fail it without Sorted); a URL out of
// order is a located bad record. Trace lines never wait.
func TestSortedStreaming(t *testing.T) {
	var b strings.Builder
	for _, u := range []string{"com,a)/", "com,b)/"} {
		for i := range 3 {
			fmt.Fprintf(&b, "%s 2020010100000%d http://x/ text/html 200 D%d 1\n", u, i, i/2)
		}
	}
	p := writeFile(t, "s.cdx", []byte(b.String()))
	var order []string
	if _, err := Read(context.Background(), []string{p}, Options{Sorted: true, MaxObservations: 9}, func(o *Observed) error {
		order = append(order, fmt.Sprintf("%s:%d", o.ID, len(o.Visits)))
		return nil
	}); err != nil || strings.Join(order, " ") != "com,a)/:3 com,b)/:3" {
		t.Errorf("sorted, cap 9 (3 captures and 6 for the URL): %v, %v", order, err)
	}
	if _, _, err := readAll(t, Options{MaxObservations: 9}, p); err == nil {
		t.Error("unsorted mode held 2 URLs (18) under a cap of 9")
	}
	bad := writeFile(t, "u.cdx", []byte(b.String()+"com,a)/ 20200102000000 http://x/ text/html 200 D9 1\n"))
	var be *BadRecordError
	if _, _, err := readAll(t, Options{Sorted: true}, bad); !errors.As(err, &be) || be.Line != 7 || be.Reason != "unsorted" {
		t.Errorf("out of order: %v", err)
	}
	var tr strings.Builder
	for i := range 10 {
		fmt.Fprintf(&tr, "u%d\t[[1,1],[1,0],[1,1]]\n", i)
	}
	got, _, err := readAll(t, Options{MaxObservations: 4}, writeFile(t, "t.tsv", []byte(tr.String())))
	if err != nil || len(got) != 10 {
		t.Errorf("10 traces under a cap of 4 captures: %d, %v", len(got), err)
	}
	dup := writeFile(t, "d.tsv", []byte("u\t[[1,1],[1,0]]\nu\t[[1,1]]\n"))
	if _, _, err := readAll(t, Options{}, dup); !errors.As(err, &be) || be.Line != 2 || be.Reason != "duplicate" {
		t.Errorf("a trace id twice: %v", err)
	}
}

// A CDX JSON array on one line with a bad row in the middle: under
// --skip-bad the bad row is counted and the rows after it are still read
// (they were dropped uncounted).
func TestCDXJSONOneLineSkipBadKeepsLaterRows(t *testing.T) {
	line := `[["urlkey","timestamp","statuscode","digest"],` +
		`["com,ex)/","20200101000000","200","A"],` +
		`["com,ex)/","2020xx","200","B"],` +
		`["com,ex)/","20200103000000","200","C"],` +
		`["com,ex)/","20200104000000","200","C"]]` + "\n"
	p := writeFile(t, "one.json", []byte(line))
	out, st, err := readAll(t, Options{SkipBad: true}, p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Bad != 1 || st.Captures != 3 {
		t.Errorf("bad %d captures %d, want 1 and 3", st.Bad, st.Captures)
	}
	want := []Observed{{ID: "com,ex)/", Visits: []Visit{
		{T: unix("2020-01-01T00:00:00Z")},
		{T: unix("2020-01-03T00:00:00Z"), Changed: true},
		{T: unix("2020-01-04T00:00:00Z")},
	}}}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("got %+v, want %+v", out, want)
	}
	// Without --skip-bad the bad row stops the read, located.
	var be *BadRecordError
	if _, _, err := readAll(t, Options{}, p); !errors.As(err, &be) || be.Line != 1 {
		t.Errorf("err %v, want a BadRecordError at line 1", err)
	}
}

// --max-observations bounds memory also when every URL has one capture: a URL
// held costs (len(id) + 120)/24 captures more. 100 URLs of 30 bytes cost
// 100·(1 + ⌈150/24⌉) = 100·8 = 800, which a cap of 799 refuses and a cap of
// 800 holds.
func TestMaxObservationsCountsURLs(t *testing.T) {
	var b strings.Builder
	b.WriteString("url,time,changed\n")
	for i := range 100 {
		fmt.Fprintf(&b, "http://example.com/page/%06d,1600000000,1\n", i) // 30 bytes
	}
	p := writeFile(t, "u.csv", []byte(b.String()))
	if _, _, err := readAll(t, Options{MaxObservations: 799}, p); err == nil || !strings.Contains(err.Error(), "--max-observations") {
		t.Errorf("cap of 799: %v, want the cap's error", err)
	}
	if got, _, err := readAll(t, Options{MaxObservations: 800}, p); err != nil || len(got) != 100 {
		t.Errorf("cap of 800: %d URLs, %v", len(got), err)
	}
}

// A bad line under --skip-bad is counted as bad only: it was also counted
// among the records and captures (a capture with content but no digest, a
// changed bit that is not one, a trace whose later entry is bad, with its
// same-second merges).
func TestSkipBadNotCountedAsCaptures(t *testing.T) {
	cdx := writeFile(t, "b.cdx", []byte("com,a)/ 20200101000000 http://a/ text/html 200 A 1\n"+
		"com,a)/ 20200101010000 http://a/ text/html 200 - 1\n"+
		"com,a)/ 20200101020000 http://a/ text/html 200 B 1\n"))
	lg := writeFile(t, "b.csv", []byte("url,time,changed\na,1600000000,1\na,1600003600,maybe\na,1600007200,0\n"))
	tr := writeFile(t, "b.tsv", []byte("u\t[[1,1],[1,0]]\nv\t[[1,1],[0,1],[1,2]]\n"))
	for _, c := range []struct {
		name            string
		path            string
		captures, sameS int64
	}{{"cdx", cdx, 2, 0}, {"log", lg, 2, 0}, {"trace", tr, 2, 0}} {
		_, st, err := readAll(t, Options{SkipBad: true}, c.path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Bad != 1 || st.Captures != c.captures || st.Skipped["same_second"] != c.sameS {
			t.Errorf("%s: bad %d captures %d same_second %d, want 1, %d, %d", c.name, st.Bad, st.Captures, st.Skipped["same_second"], c.captures, c.sameS)
		}
		wantRecords := map[string]int64{"cdx": 2, "log": 2, "trace": 1}[c.name]
		if st.Inputs[0].Records != wantRecords {
			t.Errorf("%s: records %d, want %d", c.name, st.Inputs[0].Records, wantRecords)
		}
	}
	// a changed bit for a URL the CDX gave digests: bad ("mixed"), not a capture
	mixed := writeFile(t, "m.csv", []byte("url\ttime\tchanged\ncom,a)/\t1600000000\t1\n"))
	_, st, err := readAll(t, Options{SkipBad: true}, cdx, mixed)
	if err != nil {
		t.Fatal(err)
	}
	if st.Bad != 2 || st.Captures != 2 || st.Inputs[1].Records != 0 || st.Inputs[1].Bad["mixed"] != 1 {
		t.Errorf("mixed: bad %d captures %d records %d %v, want 2, 2, 0, mixed 1", st.Bad, st.Captures, st.Inputs[1].Records, st.Inputs[1].Bad)
	}
}

// Two captures without a page, the second in the same second as the first
// with one: neither is used as the previous visit, and both are counted
// (the earlier one was dropped uncounted).
func TestAbsentUnusedCounted(t *testing.T) {
	p := writeFile(t, "a.csv", []byte("url,time,digest\na,1600000001,-\na,1600000005,-\na,1600000005,D1\na,1600000009,D1\n"))
	got, st, err := readAll(t, Options{}, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].HasPrev || len(got[0].Visits) != 2 {
		t.Fatalf("got %+v, want 2 visits without a previous visit", got)
	}
	if st.Skipped["absent_unused"] != 2 || st.Captures != 4 {
		t.Errorf("absent_unused %d of captures %d, want 2 of 4", st.Skipped["absent_unused"], st.Captures)
	}
}
