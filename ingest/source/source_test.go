package source

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// A page name is at most maxPageInError bytes in a message: a CSV id
// field that swallowed thousands of lines (an unbalanced quote) made a
// 35 kB error line, up to --max-line-bytes (16 MiB) per bad record.
func TestParseErrorLongPage(t *testing.T) {
	long := strings.Repeat("é", 50_000) // 100,000 bytes
	e := &ParseError{File: "f.csv", Offset: 6, Line: 2, Page: long, Reason: "timestamp", Err: errors.New("bad time")}
	msg := e.Error()
	if len(msg) > 400 {
		t.Fatalf("message of %d bytes", len(msg))
	}
	want := `f.csv line 2 at byte 6 (page "` + strings.Repeat("é", maxPageInError/2) + `… (100,000 bytes)"): bad time`
	if msg != want || !utf8.ValidString(msg) {
		t.Fatalf("got  %q\nwant %q", msg, want)
	}
	short := &ParseError{File: "f.csv", Offset: -1, Page: "Joe's", Err: errors.New("x")}
	if got := short.Error(); got != `f.csv (page "Joe's"): x` {
		t.Fatalf("got %q", got)
	}
}
