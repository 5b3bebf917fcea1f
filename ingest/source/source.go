// Package source is the contract between ingest and its format readers
// (mediawiki, yelp, generic): the Reader interface that yields one object's
// raw revisions at a time, the typed ParseError every reader returns, and the
// skip-bad policy. It holds no parsing code.
package source

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/series"
)

// Reader yields objects one at a time. Next returns io.EOF after the last
// one. Readers of streams that are grouped by object (MediaWiki pages) emit
// each object as soon as it is complete; readers of ungrouped streams (Yelp
// reviews) gather all records first and emit objects in a documented,
// deterministic order.
type Reader interface {
	Next() (*series.RawPage, error)
}

// ParseError reports bad input with its position: the file, the byte offset
// in the decompressed stream and/or the line, and the object (page title or
// id, business id) being read.
type ParseError struct {
	File   string
	Offset int64 // byte offset in the decompressed stream; -1 if unknown
	Line   int64 // 1-based line; 0 if not line-oriented
	Page   string
	Reason string // short machine-readable reason: "xml", "json", "timestamp", "truncated", "missing-field", …
	Err    error
	// Decompressed says that File is compressed, so Offset is not a
	// position in the file itself; the message says "decompressed byte".
	Decompressed bool
	// Revisions is the number of revisions read and dropped with this
	// record when it is a whole page left out as bad (0 for a record that
	// is not a page, or a page with none), so that ingest counts them as
	// read and as revisions of skipped pages.
	Revisions int64
}

// SkipBadHint is an error whose message ends with Hint, what --skip-bad
// would do with it: a reader that says it itself wraps its error in one,
// so that ingest, which adds a general hint to errors of inputs cut short,
// tells by type that the message says it already.
type SkipBadHint struct {
	Err  error
	Hint string
}

func (e *SkipBadHint) Error() string { return e.Err.Error() + e.Hint }

func (e *SkipBadHint) Unwrap() error { return e.Err }

// maxPageInError is the most bytes of ParseError.Page a message shows: a
// generic log's id can be as long as --max-line-bytes.
const maxPageInError = 200

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, " line %d", e.Line)
	}
	if e.Offset >= 0 {
		if e.Decompressed {
			fmt.Fprintf(&b, " at decompressed byte %d", e.Offset)
		} else {
			fmt.Fprintf(&b, " at byte %d", e.Offset)
		}
	}
	if e.Page != "" {
		page := e.Page
		if len(page) > maxPageInError {
			// Cut at a rune start, and say how long it was.
			k := maxPageInError
			for k > 0 && !utf8.RuneStart(page[k]) {
				k--
			}
			page = page[:k] + "… (" + human.Comma(int64(len(e.Page))) + " bytes)"
		}
		fmt.Fprintf(&b, " (page %q)", page)
	}
	b.WriteString(": ")
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString(e.Reason)
	}
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }

// Sentinel causes callers can test with errors.Is.
var (
	ErrTruncated = errors.New("unexpected end of input (truncated file?)")
	ErrTimestamp = errors.New("timestamp does not parse")
	ErrNoUpdates = errors.New("object has no revisions")
)

// Options are what every reader is given.
type Options struct {
	// File names the input in error messages.
	File string
	// SkipBad makes the reader count a bad record, report it through
	// OnBad, and go on; without it the first bad record is returned as a
	// *ParseError.
	SkipBad bool
	// OnBad receives every skipped record when SkipBad is set (may be nil).
	OnBad func(*ParseError)
	// MaxRevisions caps the revisions one object (page) may have; 0 is no
	// cap. An object with more is bad input, reason "too-many-revisions"
	// (see series.RawPage.TooMany for how it is returned under SkipBad).
	MaxRevisions int64
	// MaxLineBytes caps the length of a line of line-oriented input (JSON
	// lines, TSV), of a CSV record and of a whole jsonkeys object; 0 is
	// no cap. A longer one is bad input, reason "line-too-long", and is
	// skipped without being held in memory.
	MaxLineBytes int
}

// Bad handles one bad record according to the options: with SkipBad it is
// reported to OnBad and Bad returns nil (go on); otherwise Bad returns it.
func (o *Options) Bad(e *ParseError) error {
	if e.File == "" {
		e.File = o.File
	}
	if !o.SkipBad {
		return e
	}
	if o.OnBad != nil {
		o.OnBad(e)
	}
	return nil
}

// ReadError is the ParseError for a failure to read the input itself at
// offset (line, page). A decompressor that reports a truncated or damaged
// stream (an error with a Short() message that leaves out the file and
// position, as internal/decompress's CorruptError does) gives reason
// "corrupt" and that short message, the error still wrapped for errors.As;
// any other error (an I/O failure) gives reason "read". Readers hand a
// "corrupt" one to Options.Bad: with SkipBad it is counted and the stream
// ends there, since nothing after the failure can be decoded.
func ReadError(file string, offset, line int64, page string, err error) *ParseError {
	pe := &ParseError{File: file, Offset: offset, Line: line, Page: page, Reason: "read", Err: err}
	var sh interface{ Short() string }
	if errors.As(err, &sh) {
		pe.Reason, pe.Err = "corrupt", shortError{err, sh.Short()}
	}
	return pe
}

// shortError replaces the message of an error that repeats what the
// ParseError around it says, keeping it for errors.Is/As.
type shortError struct {
	err error
	msg string
}

func (e shortError) Error() string { return e.msg }
func (e shortError) Unwrap() error { return e.err }
