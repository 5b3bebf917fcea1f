package mediawiki

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/ingest/source"
)

// A dump cut at any byte: with SkipBad the page being read at the cut keeps
// its complete revisions (those whose </revision> is before the cut, counted
// here on the cut text) and is marked truncated; the cut is one bad record
// that drops nothing. Without SkipBad the cut is an error that says how many
// complete revisions --skip-bad keeps.
func TestSalvageCutPage(t *testing.T) {
	times := []string{"2001-01-01T00:00:00Z", "2002-02-02T00:00:00Z", "2003-03-03T00:00:00Z"}
	var body strings.Builder
	for _, ts := range times {
		body.WriteString("<revision><id>9</id><timestamp>" + ts + "</timestamp><text>some text</text><sha1>abc</sha1></revision>\n")
	}
	first := head + page("First", "1", rev("2000-01-01T00:00:00Z"))
	doc := first + page("Second", "2", body.String()) + "</mediawiki>"
	for k := len(first); k < len(doc); k++ {
		cut := doc[:k]
		second := cut[len(first):]
		complete := strings.Count(second, "</revision>")
		closed := strings.Contains(second, "</page>")
		var bad []*source.ParseError
		got, err := readAllPages(t, strings.NewReader(cut), Options{Options: source.Options{File: "f.xml", SkipBad: true,
			OnBad: func(e *source.ParseError) { bad = append(bad, e) }}})
		if err != nil {
			t.Fatalf("cut at %d: %v", k, err)
		}
		if len(bad) != 1 || bad[0].Reason != "truncated" || bad[0].Revisions != 0 {
			t.Fatalf("cut at %d: bad records %+v; want one truncated record dropping nothing", k, bad)
		}
		wantPages := 1
		if closed || complete > 0 {
			wantPages = 2
		}
		if len(got) != wantPages || got[0].Title != "First" || got[0].Truncated {
			t.Fatalf("cut at %d (%q): %d pages %+v, want %d", k, second, len(got), got, wantPages)
		}
		if wantPages == 1 {
			continue
		}
		p := got[1]
		if p.Title != "Second" || p.ID != 2 || len(p.Revisions) != complete || p.Truncated == closed || p.Group != MainGroup {
			t.Fatalf("cut at %d (%q): page %+v; want Second with %d revisions, truncated %v", k, second, p, complete, !closed)
		}
		last, _ := time.Parse(time.RFC3339, times[complete-1])
		if p.Revisions[len(p.Revisions)-1] != last.Unix() {
			t.Fatalf("cut at %d: last revision %d, want %d", k, p.Revisions[len(p.Revisions)-1], last.Unix())
		}
		if p.Truncated && !strings.Contains(bad[0].Error(), fmt.Sprintf("%d complete revision", complete)) {
			t.Errorf("cut at %d: message %q does not say the complete revisions are kept", k, bad[0])
		}
		if closed {
			continue
		}
		// Without SkipBad: the error names the file, position and page and
		// suggests --skip-bad.
		_, err = readAllPages(t, strings.NewReader(cut), Options{Options: source.Options{File: "f.xml"}})
		var pe *source.ParseError
		if !errors.As(err, &pe) || pe.Reason != "truncated" || pe.Page != "Second" || pe.Offset != int64(k) ||
			!strings.Contains(err.Error(), "--skip-bad") || !strings.Contains(err.Error(), fmt.Sprintf("after %d complete revision", complete)) {
			t.Fatalf("cut at %d without SkipBad: %v", k, err)
		}
	}
}
