package visits

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/units"
)

// The Bing change trace as the data set ships it (testdata/bing: three
// URLs of urlid_offset_history.txt with urlid_imp.txt and
// url_urlid_hostid.txt). Worked out by hand from its README: the first
// crawl is at the offset (days), each pair the delay since the previous
// crawl and whether the page changed since it.
//
//	5:  476436 s (5.5143055555555556 d); +95383 s unchanged; +127277 s changed
//	7:  0; +1 d unchanged; +1 d changed; +1 d unchanged
//	12: 21600 s; +43200 s changed; +0 merged (same second); +172800 s
func TestBingTraceWithCompanions(t *testing.T) {
	dir := filepath.Join("testdata", "bing")
	hist := filepath.Join(dir, "urlid_offset_history.txt")
	imp := filepath.Join(dir, "urlid_imp.txt")
	urls := filepath.Join(dir, "url_urlid_hostid.txt")
	want := []Observed{
		{ID: "http://www.example.org/events/2017", Source: "5", Importance: 0.000153, HasImportance: true,
			Visits: []Visit{{T: 476436}, {T: 476436 + 95383}, {T: 476436 + 95383 + 127277, Changed: true}}},
		{ID: "https://example.com/", Source: "7", Importance: 12.5, HasImportance: true,
			Visits: []Visit{{T: 0}, {T: units.Day}, {T: 2 * units.Day, Changed: true}, {T: 3 * units.Day}}},
		{ID: "http://example.net/a?b=1", Source: "12", Importance: 3, HasImportance: true,
			Visits: []Visit{{T: 21600}, {T: 64800, Changed: true}, {T: 237600}}},
	}
	for name, c := range map[string]struct {
		paths []string
		opt   Options
	}{
		"companions as inputs, detected": {[]string{imp, hist, urls}, Options{}},
		"companions as options":          {[]string{hist}, Options{Format: Trace, Importance: imp, URLs: urls}},
		// --format trace names the trace's format; its companions given
		// beside it are still told by their lines (they were read as
		// traces: "no crawl" on line 1)
		"companions as inputs, --format trace": {[]string{imp, hist, urls}, Options{Format: Trace}},
	} {
		got, st, err := readAll(t, c.opt, c.paths...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
		}
		// captures: 3 + 4 + 4 (the first crawl and the pairs); one merged
		if st.Captures != 11 || st.URLs != 3 || st.Skipped["same_second"] != 1 {
			t.Errorf("%s: captures %d URLs %d same_second %d, want 11, 3, 1", name, st.Captures, st.URLs, st.Skipped["same_second"])
		}
		formats := map[string]string{}
		for _, in := range st.Inputs {
			formats[filepath.Base(in.Name)] = in.Format
		}
		if formats["urlid_imp.txt"] != Importance || formats["url_urlid_hostid.txt"] != URLs || formats["urlid_offset_history.txt"] != Trace {
			t.Errorf("%s: formats %v", name, formats)
		}
	}
	// without companions the id stays the URL_ID
	got, _, err := readAll(t, Options{}, hist)
	if err != nil || got[0].ID != "5" || got[0].Source != "" || got[0].HasImportance {
		t.Errorf("trace alone: %+v, %v", got, err)
	}
}

// [[1,0],[1,1],[1,0]]: three one-day intervals between four real crawls, one
// changed. The first pair compares two real crawls and is kept, with or
// without the offset column.
func TestTraceFirstPairKept(t *testing.T) {
	want := []Visit{{T: 0}, {T: units.Day}, {T: 2 * units.Day, Changed: true}, {T: 3 * units.Day}}
	for _, line := range []string{"u\t[[1,0],[1,1],[1,0]]\n", "u\t0\t[[1,0],[1,1],[1,0]]\n", "URL_ID\tFirst_crawl_time_offset\tCrawl_and_change_history\nu\t0\t[[1, 0], [1, 1], [1, 0]]\n"} {
		got, _, err := readAll(t, Options{}, writeFile(t, "t.txt", []byte(line)))
		if err != nil || len(got) != 1 || got[0].HasPrev || !reflect.DeepEqual(got[0].Visits, want) {
			t.Errorf("%q: %+v, %v", line, got, err)
		}
		if got, _, err := readAll(t, Options{Format: Trace}, writeFile(t, "t.txt", []byte(line))); err != nil || len(got) != 1 || len(got[0].Visits) != 4 {
			t.Errorf("--format trace %q: %+v, %v", line, got, err)
		}
	}
}

// A trace line's pairs are counted before any visit is made: a line of
// more crawls than --max-observations is refused (not a bad line: the cap
// is the user's), and a malformed pair list is a located bad line.
func TestTraceLineCappedAndChecked(t *testing.T) {
	p := writeFile(t, "t.tsv", []byte("a\t[[1,1],[1,0]]\nb\t[[1,1],[1,0],[1,1],[1,0],[1,1]]\n"))
	if _, _, err := readAll(t, Options{MaxObservations: 4}, p); err == nil || !strings.Contains(err.Error(), "--max-observations") {
		t.Errorf("5 crawls under a cap of 4: %v", err)
	}
	if got, _, err := readAll(t, Options{MaxObservations: 6}, p); err != nil || len(got) != 2 {
		t.Errorf("cap of 6: %d, %v", len(got), err)
	}
	for _, bad := range []string{"x\t[[1,1],[1,0]", "x\t[[1,1] [1,0]]", "x\t[[1,2]]", "x\t[[-1,1]]", "x\t[[1,1]] junk", "x\t[]", "x\tz\t[[1,1]]"} {
		var be *BadRecordError
		p := writeFile(t, "b.tsv", []byte("ok\t[[1,1]]\n"+bad+"\n"))
		if _, _, err := readAll(t, Options{Format: Trace}, p); !errors.As(err, &be) || be.Line != 2 {
			t.Errorf("%q: %v, want a bad line 2", bad, err)
		}
	}
}

// A line is not kept beyond what the cap of captures allows (24 bytes a
// capture): a trace line longer than that is a bad line while it is read,
// before its bytes are held.
func TestTraceLineBytesCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("u\t0\t[")
	for i := range 20000 { // 20,000 pairs of 8 bytes: 160 kB
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("[1, 0]")
	}
	b.WriteString("]\n")
	p := writeFile(t, "long.txt", []byte(b.String()))
	var be *BadRecordError
	if _, _, err := readAll(t, Options{MaxObservations: 5000}, p); !errors.As(err, &be) || be.Reason != "line_too_long" {
		t.Errorf("a 160 kB line under a cap of 5,000 captures (120 kB): %v", err)
	}
	if got, _, err := readAll(t, Options{MaxObservations: 30000}, p); err != nil || len(got[0].Visits) != 20001 {
		t.Errorf("cap of 30,000: %v", err)
	}
}
