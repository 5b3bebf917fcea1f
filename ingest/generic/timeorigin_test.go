package generic

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/units"
)

// TestTimeOrigin: relative seconds are placed after --time-origin. The
// expected times are the origin's Unix seconds (2014-10-29T00:00:00Z =
// 1414540800, from `date -u -d 2014-10-29 +%s`) plus the values, fractions
// floored.
func TestTimeOrigin(t *testing.T) {
	origin := time.Date(2014, 10, 29, 0, 0, 0, 0, time.UTC)
	const o = 1414540800
	if origin.Unix() != o {
		t.Fatalf("origin %d", origin.Unix())
	}
	for _, c := range []struct {
		layout string
		in     string
		want   int64
		ok     bool
	}{
		{"auto", "0.0", o, true}, // auto takes small numbers with an origin
		{"auto", "4514.9", o + 4514, true},
		{"auto", "390499200", o + 390499200, true}, // any size: seconds after the origin
		{"epoch", "86400", o + units.Day, true},
		{"epochms", "1500", o + 1, true},
		{"auto", "2014-10-29", 0, false}, // a date is no relative time
		{"auto", "x", 0, false},
		{"epoch", "9223372036854775", 0, false}, // beyond what a dataset stores once shifted
	} {
		p := newTimeParser(c.layout, origin)
		got, err := p.parse([]byte(c.in))
		if (err == nil) != c.ok || (c.ok && got != c.want) || (!c.ok && !errors.Is(err, source.ErrTimestamp)) {
			t.Errorf("%s %q = %d, %v; want %d ok=%v", c.layout, c.in, got, err, c.want, c.ok)
		}
	}
	// Through a reader, and the layouts that exclude an origin.
	r, err := NewReader(strings.NewReader("id,t\na,0\na,60.5\nb,3600\n"), Options{ID: "id", Time: "t", TimeOrigin: origin}, source.Options{File: "x.csv"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Next()
	if err != nil || len(p.Revisions) != 2 || p.Revisions[0] != o || p.Revisions[1] != o+60 {
		t.Fatalf("a: %+v %v", p, err)
	}
	for _, l := range []string{LayoutDate, LayoutRFC3339, LayoutDateTime, "02/01/2006"} {
		opt := Options{ID: "id", Time: "t", TimeLayout: l, TimeOrigin: origin}
		if err := opt.check(); err == nil {
			t.Errorf("layout %s with an origin accepted", l)
		}
	}
}
