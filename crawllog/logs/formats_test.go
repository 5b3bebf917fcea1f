package logs

import (
	"strings"
	"testing"
)

// The format of a stream's first line, as the package doc describes each
// format, including lines that fit two: the surer mark wins (a bracket, a
// legend, a trace's list), then the first in the table.
func TestDetectFirstLine(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"com,example)/ 20200101000000 https://example.com/ text/html 200 ABCD 1000", CDX},
		{" CDX N b a m s k r M S V g", CDX},
		{"CDX N b a m s k", CDX},
		// six fields and a numeric second, as a CDX line, but the third
		// opens a JSON object: CDXJ
		{`com,example)/ 20200101000000 {"url": "https://example.com/", "status": "200"}`, CDXJ},
		{`[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],`, CDXJSON},
		{`{"urlkey": "com,example)/", "timestamp": "20200101000000", "status": "200"}`, CCJSON},
		// the third field opens an object, as CDXJ's, but the line opens one: cc-json
		{`{"a": {"b": {"c": 1}}}`, CCJSON},
		// six fields with a numeric second, as a CDX line, but a trace's list
		{"123\t0\t[[1, 0], [2, 1]]", Trace},
		{"example.com/a\t[[0.5,1],[1,0]]", Trace},
		{"URL_ID\tFirst_crawl_time_offset\tCrawl_and_change_history", Trace},
		{"id,time,changed", LogChanged},
		{"url\ttimestamp\tlast_modified", LogLastMod},
		{"id,time,digest", LogDigest},
	} {
		r := &reader{}
		var st lineState
		if err := r.detect([]byte(c.line), &st); err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		if st.format != c.want {
			t.Errorf("%q: %s, want %s", c.line, st.format, c.want)
		}
	}
	var st lineState
	if err := (&reader{}).detect([]byte("hello"), &st); err == nil || !strings.Contains(err.Error(), "give --format") {
		t.Errorf("a line of no format: %v, want the error naming --format", err)
	}
}

// Every entry of the table can be read, written, named and explained, and
// its name is its own.
func TestFormatTable(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range formatTable {
		if f.Name == "" || seen[f.Name] || len(f.Help) == 0 || !strings.HasPrefix(f.Ext, ".") || f.parse == nil || f.write == nil {
			t.Errorf("%+v: incomplete or named twice", f)
		}
		seen[f.Name] = true
		if got, err := ParseFormat(" " + strings.ToUpper(f.Name) + " "); err != nil || got != f.Name {
			t.Errorf("ParseFormat(%q) = %q, %v", f.Name, got, err)
		}
		if HasAges(f.Name) != f.Ages || Ext(f.Name) != f.Ext {
			t.Errorf("%s: HasAges %v, Ext %q; the table says %v, %q", f.Name, HasAges(f.Name), Ext(f.Name), f.Ages, f.Ext)
		}
	}
	if _, err := ParseFormat("warc"); err == nil || !strings.Contains(err.Error(), strings.Join(Formats, ", ")) {
		t.Errorf("ParseFormat(warc): %v, want the error listing every format", err)
	}
	if HasAges(LogChanged) || !HasAges(LogLastMod) {
		t.Error("only log-lastmod carries ages")
	}
}

// FormatHelp: one entry per format, the names in a column of 13 with the
// help beside them; the three generic logs share one entry, their names on
// a line of their own (longer than the column).
func TestFormatHelp(t *testing.T) {
	h := FormatHelp()
	for _, want := range []string{
		"  cdx          Wayback CDX: urlkey timestamp original mimetype statuscode digest length\n",
		"  trace        URL_ID<TAB>first_crawl_offset<TAB>[[days_since_prev_crawl,\n               changed], …]",
		"  log-changed, log-digest, log-lastmod\n               CSV/TSV with a header",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("help lacks %q:\n%s", want, h)
		}
	}
	if n := strings.Count(h, "CSV/TSV"); n != 1 {
		t.Errorf("the generic logs' help %d times, want once", n)
	}
	if lines := strings.Count(h, "\n"); lines != 9 {
		t.Errorf("%d lines, want 9 (4 one-line formats, the trace's 2, the logs' 3 and their names):\n%s", lines, h)
	}
}

// A first line that names its format but is bad (a CDX legend without a
// digest column, a log header without a time column) is a bad line under
// SkipBad, counted once, and the lines after it are read in that format:
// CDX lines by the default layout, the log's by the columns found. By
// hand: 2 captures of one URL, the second with another digest (a change).
func TestBadFirstLineSkipped(t *testing.T) {
	for name, text := range map[string]string{
		"cdx": " CDX N b a m s r\n" +
			"com,example)/ 20200101000000 https://example.com/ text/html 200 AAAA 1000\n" +
			"com,example)/ 20200102000000 https://example.com/ text/html 200 BBBB 1000\n",
	} {
		got, st, err := readAll(t, Options{SkipBad: true}, writeFile(t, name+".txt", []byte(text)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if st.Inputs[0].Bad["format"] != 1 || st.Captures != 2 || len(got) != 1 || len(got[0].Visits) != 2 || !got[0].Q(1) {
			t.Errorf("%s: bad %v, captures %d, URLs %+v; want 1 bad first line, 2 captures of one URL, a change", name, st.Inputs[0].Bad, st.Captures, got)
		}
	}
	// the header names no time column: refused, then (SkipBad) its lines
	// are bad ones, not a crash
	_, st, err := readAll(t, Options{SkipBad: true}, writeFile(t, "l.csv", []byte("id,when,digest\na,1,x\na,2,y\n")))
	if err != nil || st.Inputs[0].Bad["format"] != 1 {
		t.Errorf("log without time column: %v, bad %v; want the header counted as a bad format line", err, st.Inputs[0].Bad)
	}
}
