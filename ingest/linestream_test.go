package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/decompress"
)

// gzipCut gzips text and keeps the first half of the compressed bytes; it
// returns the path and the number of whole lines the standard library's
// gzip reader recovers from the cut file (an upper bound on what any
// decoder can deliver before the cut).
func gzipCut(t *testing.T, dir, name, text string) (string, int) {
	t.Helper()
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestSpeed)
	w.Write([]byte(text))
	w.Close()
	cut := z.Bytes()[:z.Len()/2]
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err == nil {
		t.Fatal("the cut gzip stream decodes without error")
	}
	return p, bytes.Count(got, []byte{'\n'})
}

// Yelp reviews and a generic CSV log in a gzip stream cut in the middle:
// without --skip-bad the error names the file once, the line and the
// corrupt stream, and nothing is written; with --skip-bad the lines before
// the cut are kept — a prefix of the file, no garbage — and the corrupt
// stream is counted once (as for MediaWiki dumps).
func TestTruncatedLineStreams(t *testing.T) {
	const n = 40000 // lines; 10 objects, line i at second 1.5e9 + 60 i
	var yelpText, csvText, tsvText, jsonlText strings.Builder
	csvText.WriteString("id,time\n")
	tsvText.WriteString("id\ttime\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&yelpText, `{"review_id":"r%d","user_id":"u%d","business_id":"b%d","stars":4,"text":"fine %d","date":"%s"}`+"\n",
			i, i%97, i%10, i*7919, unixUTC(1_500_000_000+60*int64(i)))
		fmt.Fprintf(&csvText, "p%d,%d\n", i%10, 1_500_000_000+60*int64(i))
		fmt.Fprintf(&tsvText, "p%d\t%d\n", i%10, 1_500_000_000+60*int64(i))
		fmt.Fprintf(&jsonlText, `{"id":"p%d","time":%d}`+"\n", i%10, 1_500_000_000+60*int64(i))
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name, text string
		header     int // lines before the first record
		gen        generic.Options
	}{
		{"yelp_academic_dataset_review.json.gz", yelpText.String(), 0, generic.Options{}},
		{"log.csv.gz", csvText.String(), 1, generic.Options{ID: "id", Time: "time"}},
		{"log.tsv.gz", tsvText.String(), 1, generic.Options{ID: "id", Time: "time"}},
		{"log.jsonl.gz", jsonlText.String(), 0, generic.Options{ID: "id", Time: "time"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, maxLines := gzipCut(t, dir, c.name, c.text)
			out := filepath.Join(dir, "out-"+c.name)
			_, err := Run(context.Background(), Options{Inputs: []string{p}, Output: out, Generic: c.gen})
			var pe *source.ParseError
			var ce *decompress.CorruptError
			if !errors.As(err, &pe) || !errors.As(err, &ce) {
				t.Fatalf("err %v: want a ParseError wrapping the CorruptError", err)
			}
			msg := err.Error()
			if pe.Reason != "corrupt" || pe.File != p || pe.Line <= int64(c.header) || strings.Count(msg, p) != 1 ||
				!strings.Contains(msg, "truncated gzip stream") || !strings.Contains(msg, " at decompressed byte ") {
				t.Errorf("error %q (reason %q, line %d)", msg, pe.Reason, pe.Line)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Error("a dataset was left after an error")
			}

			s, pages := run(t, Options{Inputs: []string{p}, Output: out, Generic: c.gen, SkipBad: true})
			if s.Bad["corrupt"] != 1 || s.Counts.Skipped["bad_corrupt"] != 1 {
				t.Errorf("bad %v, skipped %v: want the corrupt stream counted once", s.Bad, s.Counts.Skipped)
			}
			// The kept updates are lines 0..k-1 for some 0 < k ≤ maxLines:
			// object i%10 at 1.5e9 + 60 i.
			var k int64
			for _, pg := range pages {
				k += int64(len(pg.Updates))
			}
			if k == 0 || k > int64(maxLines-c.header) {
				t.Fatalf("%d updates kept; the cut file holds %d whole records", k, maxLines-c.header)
			}
			for _, pg := range pages {
				obj := int64(-1)
				fmt.Sscanf(pg.Title[1:], "%d", &obj)
				for j, u := range pg.Updates {
					i := obj + 10*int64(j)
					if i >= k || u != 1_500_000_000+60*i {
						t.Fatalf("page %q update %d = %d: not line %d of the file (k = %d)", pg.Title, j, u, i, k)
					}
				}
			}
		})
	}
}

func unixUTC(sec int64) string {
	return time.Unix(sec, 0).UTC().Format("2006-01-02 15:04:05")
}

// With several inputs the manifest and the summary say which input the bad
// records came from: here the cut first input, not the whole second one.
func TestBadRecordsPerInput(t *testing.T) {
	var csvText strings.Builder
	csvText.WriteString("id,time\n")
	for i := 0; i < 40000; i++ {
		fmt.Fprintf(&csvText, "p%d,%d\n", i%10, 1_500_000_000+60*int64(i))
	}
	dir := t.TempDir()
	cut, _ := gzipCut(t, dir, "cut.csv.gz", csvText.String())
	good := filepath.Join(dir, "good.csv")
	os.WriteFile(good, []byte("id,time\nq1,1600000000\nq1,1600000060\n"), 0o644)
	s, _ := run(t, Options{Inputs: []string{cut, good}, SkipBad: true, Generic: generic.Options{ID: "id", Time: "time"}})
	if len(s.Inputs) != 2 || s.Inputs[0].Bad["corrupt"] != 1 || len(s.Inputs[0].Bad) != 1 || len(s.Inputs[1].Bad) != 0 {
		t.Fatalf("inputs %+v: want the corrupt record on the first input only", s.Inputs)
	}
	if !strings.Contains(s.String(), "  "+cut+" (generic+gzip, ") || !strings.Contains(s.String(), "; 1 bad record skipped: corrupt)") {
		t.Errorf("summary does not show the first input's bad record:\n%s", s)
	}
}

// An empty input (or one that decompresses to nothing) says so, rather than
// "unknown format … (starts with \"\")".
func TestEmptyInput(t *testing.T) {
	dir := t.TempDir()
	var z bytes.Buffer
	gzip.NewWriter(&z).Close()
	for name, b := range map[string][]byte{"empty.xml": nil, "empty.xml.gz": z.Bytes()} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		_, err := Run(context.Background(), Options{Inputs: []string{p}, Output: filepath.Join(dir, "ds")})
		var fe *FormatError
		if !errors.As(err, &fe) || err.Error() != p+": empty input (no bytes to read)" {
			t.Errorf("%s: %v", name, err)
		}
	}
}
