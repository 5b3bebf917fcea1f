package mediawiki

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/source"
)

// FuzzMediaWiki feeds arbitrary bytes to the scanner. It must never panic
// or loop; every page it returns has revisions with one flag each; strict
// mode fails only with a *source.ParseError; SkipBad mode always ends with
// io.EOF, and returns at least the pages strict mode returned before failing.
func FuzzMediaWiki(f *testing.F) {
	for _, p := range []string{"../../testdata/mediawiki/filters.xml", "../../testdata/mediawiki/old-0.3.xml"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(head + page("P", "1", rev("2001-01-01T00:00:00Z")) + "</mediawiki>"))
	f.Add([]byte(head + "<page><title>A&amp;B</title><id>1</id><revision><timestamp>2001-01-01T00:00:00Z</timestamp><text/></revision></page>"))
	f.Add([]byte("<mediawiki><!-- x --><page><revision></revision></page></mediawiki>"))
	f.Add([]byte(cdataDump()))
	f.Fuzz(func(t *testing.T, data []byte) {
		strict := 0
		r := NewReader(strings.NewReader(string(data)), Options{Options: source.Options{File: "fuzz"}})
		for i := 0; ; i++ {
			p, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				var pe *source.ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("error %T %v is not a *source.ParseError", err, err)
				}
				if pe.Offset < 0 || pe.Offset > int64(len(data)) {
					t.Fatalf("offset %d outside the input (%d bytes)", pe.Offset, len(data))
				}
				break
			}
			if len(p.Revisions) == 0 || len(p.Anonymous) != len(p.Revisions) || len(p.Minor) != len(p.Revisions) {
				t.Fatalf("page %+v: inconsistent revisions", p)
			}
			strict++
			if i > len(data) {
				t.Fatal("more pages than input bytes")
			}
		}
		lenient := 0
		r = NewReader(strings.NewReader(string(data)), Options{Options: source.Options{File: "fuzz", SkipBad: true}})
		for i := 0; ; i++ {
			p, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("SkipBad returned %v", err)
			}
			if len(p.Revisions) == 0 {
				t.Fatal("page without revisions under SkipBad")
			}
			lenient++
			if i > len(data) {
				t.Fatal("more pages than input bytes")
			}
		}
		if lenient < strict {
			t.Fatalf("SkipBad returned %d pages, strict %d", lenient, strict)
		}
	})
}
