package mediawiki

import (
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/series"
)

func unix(y int, mo time.Month, d, h, mi, s int) int64 {
	return time.Date(y, mo, d, h, mi, s, 0, time.UTC).Unix()
}

func readAllPages(t *testing.T, r io.Reader, opt Options) ([]*series.RawPage, error) {
	t.Helper()
	mr := NewReader(r, opt)
	var out []*series.RawPage
	for {
		p, err := mr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, p)
	}
}

// The fixture's expected values are read off the XML by hand; timestamps
// are converted with time.Date.
func TestFixtureFilters(t *testing.T) {
	data, err := os.ReadFile("../../testdata/mediawiki/filters.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := []series.RawPage{
		{ID: 1, Source: "testwiki", Title: "Alpha", Namespace: 0, Group: MainGroup, Resolution: 1,
			Revisions: []int64{unix(2001, 1, 1, 0, 0, 10), unix(2001, 1, 1, 0, 0, 0), unix(2001, 1, 1, 0, 0, 10), unix(2010, 1, 1, 0, 0, 0)},
			Anonymous: []bool{false, true, false, false}, Minor: []bool{false, true, true, false}},
		{ID: 2, Source: "testwiki", Title: "Talk:Alpha", Namespace: 1, Group: "Talk", Resolution: 1,
			Revisions: []int64{unix(2001, 1, 2, 0, 0, 0)}, Anonymous: []bool{false}, Minor: []bool{false}},
		{ID: 3, Source: "testwiki", Title: "Old name", Namespace: 0, Group: MainGroup, Redirect: true, Resolution: 1,
			Revisions: []int64{unix(2001, 1, 3, 0, 0, 0), unix(2001, 1, 4, 0, 0, 0)}, Anonymous: []bool{false, false}, Minor: []bool{false, false}},
		// The <upload>'s timestamp and contributor id are not revisions or the page id.
		{ID: 4, Source: "testwiki", Title: `Beta & "Gamma" é中`, Namespace: 4, Group: "Test & Project", Resolution: 1,
			Revisions: []int64{unix(2009, 12, 31, 23, 59, 59)}, Anonymous: []bool{false}, Minor: []bool{false}},
		{ID: 5, Source: "testwiki", Title: "Single", Namespace: 0, Group: MainGroup, Resolution: 1,
			Revisions: []int64{unix(2005, 6, 15, 12, 0, 0)}, Anonymous: []bool{false}, Minor: []bool{false}},
	}
	for name, r := range map[string]io.Reader{
		"whole":        strings.NewReader(string(data)),
		"one-byte":     iotest.OneByteReader(strings.NewReader(string(data))),
		"half-reader":  iotest.HalfReader(strings.NewReader(string(data))),
		"data-err-eof": iotest.DataErrReader(strings.NewReader(string(data))),
	} {
		got, err := readAllPages(t, r, Options{Options: source.Options{File: "filters.xml"}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d pages, want %d", name, len(got), len(want))
		}
		for i := range want {
			g := *got[i]
			g.Offset = 0
			if !reflect.DeepEqual(g, want[i]) {
				t.Errorf("%s: page %d\n got %+v\nwant %+v", name, i, g, want[i])
			}
		}
		// Offset points at the page's "<page>".
		if off := got[1].Offset; !strings.HasPrefix(string(data[off:]), "<page>\n    <title>Talk:Alpha") {
			t.Errorf("%s: page offset %d does not point at its <page>", name, off)
		}
	}
}

// Schema 0.3 without <siteinfo> or <ns>: namespaces from the title prefix and
// the English default names (case-insensitive, '_' as space).
func TestOldSchemaNamespaces(t *testing.T) {
	f, err := os.Open("../../testdata/mediawiki/old-0.3.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := readAllPages(t, f, Options{Options: source.Options{File: "old-0.3.xml"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		title string
		ns    int32
		group string
	}{{"Talk:Foo", 1, "Talk"}, {"user talk:Bar", 3, "User talk"}, {"Star Wars: A New Hope", 0, MainGroup}, {"Wikipedia_talk:Baz", 5, "Wikipedia talk"}}
	if len(got) != len(want) {
		t.Fatalf("%d pages", len(got))
	}
	for i, w := range want {
		if got[i].Title != w.title || got[i].Namespace != w.ns || got[i].Group != w.group || got[i].Source != "mediawiki" {
			t.Errorf("page %d: %q ns %d group %q source %q; want %q ns %d group %q source mediawiki",
				i, got[i].Title, got[i].Namespace, got[i].Group, got[i].Source, w.title, w.ns, w.group)
		}
	}
	if !got[0].Anonymous[0] || !got[0].Minor[0] {
		t.Error("the <ip> contributor and <minor/> of Talk:Foo were not seen")
	}
}

func TestSourceName(t *testing.T) {
	for _, c := range []struct{ file, xml, want string }{
		{"enwiki-20140102-stub-meta-history1.xml.gz", `<mediawiki><siteinfo><dbname>frwiki</dbname></siteinfo><page>`, "frwiki"},
		{"/x/enwiki-20140102.tiny.xml.gz", `<mediawiki><page>`, "enwiki"},
		{"hiwiki.xml", `<mediawiki><page>`, "hiwiki"},
		{"large.xml", `<mediawiki><siteinfo><base>http://en.wikipedia.org/wiki/Main_Page</base></siteinfo><page>`, "enwiki"},
		{"Hallo.xml", `<mediawiki><siteinfo><base>https://de.wiktionary.org/wiki/Wiktionary:Hauptseite</base></siteinfo><page>`, "dewiktionary"},
		{"dump.xml", `<mediawiki><page>`, "mediawiki"},
	} {
		r := NewReader(strings.NewReader(c.xml), Options{Options: source.Options{File: c.file}})
		r.Next() // reads to the end (truncated, irrelevant here)
		if got := r.Source(); got != c.want {
			t.Errorf("%s: source %q, want %q", c.file, got, c.want)
		}
	}
}

const head = `<mediawiki version="0.10"><siteinfo><dbname>x</dbname></siteinfo>`

func page(title, id, body string) string {
	return "<page><title>" + title + "</title><ns>0</ns><id>" + id + "</id>" + body + "</page>"
}

func rev(ts string) string {
	return "<revision><id>9</id><timestamp>" + ts + "</timestamp><text>t</text></revision>"
}

// Bad input: each case gives a ParseError naming file, offset and page, and
// with SkipBad the reader counts it and returns the pages that are good.
func TestBadInput(t *testing.T) {
	good := page("Good", "7", rev("2001-01-01T00:00:00Z"))
	cases := []struct {
		name, xml, reason, page, at string
		wantErr                     error
		skipPages                   []string // titles returned with SkipBad
		skipRevs                    int      // revisions of the first returned page
		skipReasons                 []string // bad records reported with SkipBad, if not just reason
	}{
		{name: "bad timestamp", xml: head + page("P", "1", rev("2001-01-01T00:00:00Z")+rev("2001-13-01T00:00:00Z")) + good + "</mediawiki>",
			reason: "timestamp", page: "P", at: "<timestamp>2001-13", wantErr: source.ErrTimestamp, skipPages: []string{"P", "Good"}, skipRevs: 1},
		{name: "garbage timestamp", xml: head + page("P", "1", rev("yesterday")) + good + "</mediawiki>",
			reason: "timestamp", page: "P", at: "<timestamp>yesterday", wantErr: source.ErrTimestamp, skipPages: []string{"Good"},
			// the page's only revision is bad, so the page has none left: both are reported
			skipReasons: []string{"timestamp", "no-revisions"}},
		{name: "no revisions", xml: head + page("Empty", "1", "") + good + "</mediawiki>",
			reason: "no-revisions", page: "Empty", at: "<page><title>Empty", wantErr: source.ErrNoUpdates, skipPages: []string{"Good"}},
		{name: "page not closed", xml: head + "<page><title>Open</title><ns>0</ns><id>1</id>" + rev("2001-01-01T00:00:00Z") + good + "</mediawiki>",
			reason: "xml", page: "Open", at: "<page><title>Open", skipPages: []string{"Good"}},
		{name: "bad id", xml: head + page("Bad id", "1x", rev("2001-01-01T00:00:00Z")) + good + "</mediawiki>",
			reason: "xml", page: "Bad id", at: "<id>1x", skipPages: []string{"Good"}},
		{name: "bad entity", xml: head + page("A &bogus; title", "1", rev("2001-01-01T00:00:00Z")) + good + "</mediawiki>",
			reason: "xml", at: "<title>A &bogus;", skipPages: []string{"Good"}},
		{name: "truncated in a page", xml: head + good + "<page><title>Cut</title><ns>0</ns><id>2</id><revision><timestamp>2001-01-0",
			reason: "truncated", page: "Cut", at: "", wantErr: source.ErrTruncated, skipPages: []string{"Good"}},
		{name: "truncated between pages", xml: head + good,
			reason: "truncated", at: "", wantErr: source.ErrTruncated, skipPages: []string{"Good"}},
		{name: "not xml", xml: `{"business_id": "abc"}`, reason: "xml", at: ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readAllPages(t, strings.NewReader(c.xml), Options{Options: source.Options{File: "f.xml"}})
			var pe *source.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err %v, want *source.ParseError", err)
			}
			if pe.File != "f.xml" || pe.Reason != c.reason || pe.Page != c.page {
				t.Errorf("got file %q reason %q page %q; want f.xml %q %q (%v)", pe.File, pe.Reason, pe.Page, c.reason, c.page, err)
			}
			wantOff := int64(len(c.xml)) // errors at the end of input are reported there
			if c.at != "" {
				wantOff = int64(strings.Index(c.xml, c.at))
			}
			if pe.Offset != wantOff {
				t.Errorf("offset %d, want %d (%v)", pe.Offset, wantOff, err)
			}
			if c.wantErr != nil && !errors.Is(err, c.wantErr) {
				t.Errorf("err %v does not wrap %v", err, c.wantErr)
			}
			if !strings.Contains(err.Error(), "f.xml") {
				t.Errorf("message %q does not name the file", err)
			}
			var bad []*source.ParseError
			got, err := readAllPages(t, strings.NewReader(c.xml), Options{Options: source.Options{File: "f.xml", SkipBad: true,
				OnBad: func(e *source.ParseError) { bad = append(bad, e) }}})
			if err != nil {
				t.Fatalf("with SkipBad: %v", err)
			}
			wantReasons := c.skipReasons
			if wantReasons == nil {
				wantReasons = []string{c.reason}
			}
			var reasons []string
			for _, b := range bad {
				reasons = append(reasons, b.Reason)
			}
			if !reflect.DeepEqual(reasons, wantReasons) {
				t.Errorf("with SkipBad: bad records %v (%v), want %v", reasons, bad, wantReasons)
			}
			var titles []string
			for _, p := range got {
				titles = append(titles, p.Title)
			}
			if !reflect.DeepEqual(titles, c.skipPages) && (len(titles) > 0 || len(c.skipPages) > 0) {
				t.Errorf("with SkipBad: pages %q, want %q", titles, c.skipPages)
			}
			if c.skipRevs > 0 && len(got[0].Revisions) != c.skipRevs {
				t.Errorf("with SkipBad: %d revisions kept, want %d", len(got[0].Revisions), c.skipRevs)
			}
		})
	}
}

// A decompressor failure mid-stream is reported as "corrupt" with the page
// being read and wraps the decompressor's error.
func TestReadErrorMidPage(t *testing.T) {
	boom := errors.New("unexpected EOF in gzip")
	xml := head + page("Good", "7", rev("2001-01-01T00:00:00Z")) + "<page><title>Cut</title>"
	r := io.MultiReader(strings.NewReader(xml), iotest.ErrReader(boom))
	_, err := readAllPages(t, r, Options{Options: source.Options{File: "f.xml.gz"}})
	var pe *source.ParseError
	if !errors.As(err, &pe) || pe.Reason != "corrupt" || pe.Page != "Cut" || !errors.Is(err, boom) || pe.Offset != int64(len(xml)) {
		t.Fatalf("err %v (%+v)", err, pe)
	}
}

func TestParseTimestamp(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"2001-01-21T02:12:21Z", unix(2001, 1, 21, 2, 12, 21), true},
		{"1970-01-01T00:00:00Z", 0, true},
		{"2000-02-29T23:59:59Z", unix(2000, 2, 29, 23, 59, 59), true}, // leap year (divisible by 400)
		{"1900-02-29T00:00:00Z", 0, false},                            // not a leap year
		{"2024-02-29T12:00:00Z", unix(2024, 2, 29, 12, 0, 0), true},
		{"1969-12-31T23:59:59Z", -1, true},
		{" 2001-01-21T02:12:21Z\n", unix(2001, 1, 21, 2, 12, 21), true},
		{"2001-01-21T02:12:21+02:00", unix(2001, 1, 21, 0, 12, 21), true},
		{"2001-01-21T24:00:00Z", 0, false},
		{"2001-04-31T00:00:00Z", 0, false},
		{"2001-01-21 02:12:21", 0, false},
		{"", 0, false},
	} {
		got, err := parseTimestamp([]byte(c.in))
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("parseTimestamp(%q) = %d, %v; want %d ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                         "plain",
		"a &amp; b":                     "a & b",
		"&lt;&gt;&quot;&apos;":          `<>"'`,
		"&#233;t&#xE9;&#X4e2d;":         "été中",
		"&amp;amp;":                     "&amp;",
		"Caf&#233; &amp; &#128512; end": "Café & 😀 end",
	} {
		got, err := unescape([]byte(in))
		if err != nil || got != want {
			t.Errorf("unescape(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"&nbsp;", "&#xD800;", "&#99999999;", "a & b", "&amp"} {
		if _, err := unescape([]byte(in)); err == nil {
			t.Errorf("unescape(%q) accepted", in)
		}
	}
}
