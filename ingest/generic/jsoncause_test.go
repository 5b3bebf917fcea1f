package generic

import (
	"errors"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/generic/jsonscan"
	"github.com/revisit-dev/revisit/ingest/source"
)

// A JSON line that ends inside a value, anywhere in a file: the cause says
// the line ends early and where, once, still matching source.ErrTruncated
// (a cut line in the middle of a file is no "truncated file").
func TestJSONCauseCutLine(t *testing.T) {
	line := []byte(`{"business_id":"abc","date":`)
	err := jsonscan.Members(line, func([]byte, jsonscan.Value) error { return nil })
	reason, cause := JSONCause(err)
	msg := cause.Error()
	// The scanner stops at the end of the 28-byte line: column 29.
	if reason != "truncated" || !errors.Is(cause, source.ErrTruncated) || !strings.Contains(msg, "line ends inside a JSON value") ||
		!strings.Contains(msg, "column 29") || strings.Count(msg, "unexpected end") > 1 {
		t.Errorf("reason %q cause %q", reason, msg)
	}
}
