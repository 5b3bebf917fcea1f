package generic

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/source"
)

// Auto-detected epoch seconds (or milliseconds) hold the detection's range
// for every value: a millisecond value among seconds would otherwise be
// read as seconds, 1000 times too far (1500000000123 s is the year 49503).
func TestAutoEpochRange(t *testing.T) {
	for _, c := range []struct {
		text string
		line int64 // the bad line
	}{
		{"id,t\na,1500000000\na,1500000000123\n", 3},    // seconds, then milliseconds
		{"id,t\na,1500000000123\na,1500000000\n", 3},    // milliseconds, then seconds
		{"id,t\na,1500000000\na,1500000060\na,42\n", 4}, // seconds, then a count
	} {
		r, err := NewReader(strings.NewReader(c.text), Options{ID: "id", Time: "t"}, source.Options{File: "x.csv"})
		if err != nil {
			t.Fatal(err)
		}
		var pe *source.ParseError
		_, err = r.Next()
		if !errors.As(err, &pe) || pe.Reason != "timestamp" || pe.Line != c.line || !errors.Is(err, source.ErrTimestamp) {
			t.Errorf("%q: err %v, want a timestamp error on line %d", c.text, err, c.line)
		}
	}
	// An explicit layout takes any value.
	r, err := NewReader(strings.NewReader("id,t\na,1500000000\na,42\n"), Options{ID: "id", Time: "t", TimeLayout: LayoutEpoch}, source.Options{File: "x.csv"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Next()
	if err != nil || len(p.Revisions) != 2 {
		t.Fatalf("explicit epoch: %v %v", p, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatal(err)
	}
}
