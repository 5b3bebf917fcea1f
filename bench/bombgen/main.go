// Command bombgen writes the adversarial ingest inputs of bench/ingest-bombs.sh
// to standard output:
//
//	bombgen -kind page -revisions N        one MediaWiki page with N revisions,
//	                                       distinct timestamps one second apart
//	                                       (-before M: after M revisions in
//	                                       pages of 1000)
//	bombgen -kind repeat -revisions N      one page of N identical <revision>
//	                                       blocks (compresses ~1000:1 with gzip)
//	bombgen -kind jsonline -bytes N        a Yelp-style JSON line whose text
//	                                       field is N bytes long
//	bombgen -kind csvfield -bytes N        a CSV with one record whose quoted
//	                                       field is N bytes long
//
// The output is the same for the same flags.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	kind := flag.String("kind", "page", "page, repeat, jsonline or csvfield")
	revs := flag.Int64("revisions", 1_000_000, "revisions of the page (page, repeat)")
	size := flag.Int64("bytes", 1<<30, "length of the long line or field (jsonline, csvfield)")
	before := flag.Int64("before", 0, "page: revisions in pages of 1000 before the big page (fills the dataset writer's row group)")
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	var err error
	switch *kind {
	case "page", "repeat":
		err = page(w, *revs, *before, *kind == "repeat")
	case "jsonline":
		w.WriteString(`{"review_id":"r1","user_id":"u1","business_id":"b1","stars":5,"date":"2015-01-01 10:00:00","text":"`)
		err = fill(w, *size)
		w.WriteString("\"}\n" + `{"review_id":"r2","user_id":"u1","business_id":"b1","stars":4,"date":"2015-01-02 10:00:00","text":"ok"}` + "\n")
	case "csvfield":
		w.WriteString("id,time,note\na,2015-01-01T10:00:00Z,\"")
		err = fill(w, *size)
		w.WriteString("\"\na,2015-01-02T10:00:00Z,ok\n")
	default:
		fmt.Fprintln(os.Stderr, "bombgen: unknown -kind", *kind)
		os.Exit(2)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bombgen:", err)
		os.Exit(1)
	}
}

// fill writes n bytes of 'x'.
func fill(w *bufio.Writer, n int64) error {
	chunk := make([]byte, 1<<16)
	for i := range chunk {
		chunk[i] = 'x'
	}
	for n > 0 {
		k := min(n, int64(len(chunk)))
		if _, err := w.Write(chunk[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

func page(w *bufio.Writer, n, before int64, repeat bool) error {
	w.WriteString(`<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="en">
  <siteinfo>
    <dbname>bombwiki</dbname>
  </siteinfo>
`)
	t0 := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	id := int64(1)
	for ; before > 0; before -= 1000 {
		id++
		revisions(w, id, "Filler "+strconv.FormatInt(id, 10), min(before, 1000), t0, false)
	}
	revisions(w, 1, "Bomb", n, t0, repeat)
	w.WriteString("</mediawiki>\n")
	return w.Flush()
}

// revisions writes a page of n revisions from t0, one second apart (all at
// t0 with repeat).
func revisions(w *bufio.Writer, id int64, title string, n, t0 int64, repeat bool) {
	fmt.Fprintf(w, "  <page>\n    <title>%s</title>\n    <ns>0</ns>\n    <id>%d</id>\n", title, id)
	var ts []byte
	for i := int64(0); i < n; i++ {
		t := t0
		if !repeat {
			t += i
		}
		ts = time.Unix(t, 0).UTC().AppendFormat(ts[:0], "2006-01-02T15:04:05Z")
		w.WriteString("    <revision>\n      <id>")
		if repeat {
			w.WriteString("1")
		} else {
			w.WriteString(strconv.FormatInt(i+1, 10))
		}
		w.WriteString("</id>\n      <timestamp>")
		w.Write(ts)
		w.WriteString("</timestamp>\n      <contributor>\n        <ip>192.0.2.1</ip>\n      </contributor>\n      <text bytes=\"0\" />\n    </revision>\n")
	}
	w.WriteString("  </page>\n")
}
