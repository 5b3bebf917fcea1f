package ingest

import (
	"compress/gzip"
	"encoding/xml"
	"os"
	"strconv"
	"testing"

	"github.com/revisit-dev/revisit/internal/realdata"
)

// A real MediaWiki dump's pages keep their <id> as the source id, read
// here independently of the parser with encoding/xml.
func TestRealDumpKeepsPageIDs(t *testing.T) {
	in := realdata.Path(t, "wikipedia/snukky__wikiedits/enwiki-20140102.tiny.xml.gz")
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var dump struct {
		Pages []struct {
			Title string `xml:"title"`
			ID    int64  `xml:"id"`
		} `xml:"page"`
	}
	if err := xml.NewDecoder(zr).Decode(&dump); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, p := range dump.Pages {
		want[p.Title] = strconv.FormatInt(p.ID, 10)
	}
	_, pages := run(t, Options{Inputs: []string{in}, AllNamespaces: true})
	if len(pages) != len(want) || len(pages) == 0 {
		t.Fatalf("%d pages, the dump has %d", len(pages), len(want))
	}
	for _, p := range pages {
		if p.SourceID != want[p.Title] {
			t.Errorf("page %q: source id %q, the dump's <id> is %q", p.Title, p.SourceID, want[p.Title])
		}
	}
}
