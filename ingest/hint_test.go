package ingest

import (
	"errors"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/source"
)

// The --skip-bad hint is added by the error's type, not its text: a page
// whose title reads "--skip-bad" still gets it, and a reader's own hint
// (a *source.SkipBadHint) is not repeated.
func TestSkipBadHintByType(t *testing.T) {
	d := &driver{}
	cut := errors.New("unexpected end of input")
	err := d.skipBadHint(&source.ParseError{File: "f.xml", Offset: 9, Page: "Talk:--skip-bad", Reason: "truncated", Err: cut})
	if got := err.Error(); !strings.HasSuffix(got, "(--skip-bad keeps what was read before it)") {
		t.Errorf("title naming --skip-bad: %q, want the hint", got)
	}
	own := &source.ParseError{File: "f.xml", Offset: 9, Page: "P", Reason: "truncated",
		Err: &source.SkipBadHint{Err: cut, Hint: " (--skip-bad keeps them)"}}
	if got := d.skipBadHint(own).Error(); strings.Count(got, "--skip-bad") != 1 {
		t.Errorf("reader's own hint: %q, want it once", got)
	}
	if !errors.Is(own, cut) {
		t.Error("the hinted error does not unwrap to its cause")
	}
}
