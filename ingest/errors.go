package ingest

// Errors of a run: options (OptionError), inputs no reader recognises
// (FormatError, ArchiveError), damage found outside a parser, the --skip-bad
// hint, and the counting of bad records skipped.

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/decompress"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/usage"
)

// OptionError is a problem with the options rather than the input:
// usage.Error (exit code 2 in the CLI). Its message names the stage
// ("ingest: …"), as the command line prints it.
type OptionError = usage.Error

// optionError is err as an OptionError.
func optionError(err error) *OptionError { return &OptionError{Err: fmt.Errorf("ingest: %w", err)} }

// FormatError is an input whose content no reader recognises.
type FormatError struct {
	File string
	Head string // the first bytes, quoted for the message
	// NUL is the offset of the first NUL byte in the head, -1 if none: text
	// logs have none, binary data and UTF-16 text do.
	NUL int64
	// Generic says that --id/--time were given, so the generic reader was
	// tried and did not recognise the input either.
	Generic bool
}

func (e *FormatError) Error() string {
	if e.Head == `""` {
		return e.File + ": empty input (no bytes to read)"
	}
	if e.NUL >= 0 {
		return fmt.Sprintf("%s: unknown format: byte %d is a NUL byte, so this is not text in UTF-8 (binary data, or UTF-16 text: convert it) (starts with %s)", e.File, e.NUL, e.Head)
	}
	if e.Generic {
		return fmt.Sprintf("%s: unknown format: not MediaWiki XML, not a mediawiki_history TSV dump, not Yelp JSON lines, not a CSV/TSV log with a header or JSON lines (a title line before the header? --skip-lines) (starts with %s)", e.File, e.Head)
	}
	return fmt.Sprintf("%s: unknown format: not MediaWiki XML, not a mediawiki_history TSV dump, not Yelp JSON lines; for a CSV/TSV/JSON log give --id and --time (starts with %s)", e.File, e.Head)
}

// ArchiveError is an archive none of whose members is in a format ingest
// reads (or that has no member at all): an error even with --skip-bad,
// which would otherwise read nothing from it and say little.
type ArchiveError struct {
	File    string
	Archive string   // "tar" or "7z"
	Members []string // each member's name and first bytes
}

// maxMembersNamed is how many members an ArchiveError names.
const maxMembersNamed = 10

func (e *ArchiveError) Error() string {
	if len(e.Members) == 0 {
		return fmt.Sprintf("%s: the %s archive has no file member", e.File, e.Archive)
	}
	list := e.Members
	more := ""
	if len(list) > maxMembersNamed {
		more = fmt.Sprintf(" and %s more", human.Comma(int64(len(list)-maxMembersNamed)))
		list = list[:maxMembersNamed]
	}
	return fmt.Sprintf("%s: no member of the %s archive is in a format ingest reads (MediaWiki XML, mediawiki_history TSV, Yelp JSON lines, or with --id/--time a CSV/TSV/JSON log; compressed members are decompressed first): %s%s",
		e.File, e.Archive, strings.Join(list, ", "), more)
}

// formatError describes an input no reader recognises from its head.
func (d *driver) formatError(name string, head []byte) *FormatError {
	nul := int64(bytes.IndexByte(head, 0))
	if d.opt.genericGiven() && nul >= 0 {
		// A NUL after the first line does not stop the generic reader
		// (generic.SniffFormat): only one in the first line is reported.
		if i := bytes.IndexByte(head, '\n'); i >= 0 && int64(i) < nul {
			nul = -1
		}
	}
	return &FormatError{File: name, Head: quoteHead(head), NUL: nul, Generic: d.opt.genericGiven()}
}

// badInput handles damage the reader found outside a parser — when the
// input was opened, between archive members, past the tar end marker or the
// parser's last read: without SkipBad it is returned; with SkipBad a
// *decompress.CorruptError is one counted bad record ("corrupt") and the
// input ends there.
func (d *driver) badInput(r *decompress.Reader, name string, err error) error {
	var ce *decompress.CorruptError
	if !d.opt.SkipBad || !errors.As(err, &ce) {
		return d.skipBadHint(err)
	}
	pe := source.ReadError(name, ce.Offset, 0, "", err)
	so := d.sourceOptions(r.Name())
	return so.Bad(pe)
}

// skipBadHint adds to the error of an input cut short or damaged (a
// *source.ParseError of reason "truncated" or "corrupt", or a
// *decompress.CorruptError) what --skip-bad would do with it, unless the
// reader said so already (a *source.SkipBadHint).
func (d *driver) skipBadHint(err error) error {
	var said *source.SkipBadHint
	if d.opt.SkipBad || errors.As(err, &said) {
		return err
	}
	const hint = " (--skip-bad keeps what was read before it)"
	var pe *source.ParseError
	if errors.As(err, &pe) {
		if pe.Reason == "truncated" || pe.Reason == "corrupt" {
			pe.Err = &source.SkipBadHint{Err: pe.Err, Hint: hint}
		}
		return err
	}
	var ce *decompress.CorruptError
	if errors.As(err, &ce) {
		return &source.SkipBadHint{Err: err, Hint: hint}
	}
	return err
}

func quoteHead(head []byte) string {
	if len(head) > 40 {
		head = head[:40]
	}
	return fmt.Sprintf("%q", head)
}

// onBad counts a skipped bad record; readers call it from the parsing
// goroutine.
func (d *driver) onBad(e *source.ParseError) {
	d.badMu.Lock()
	d.bad[e.Reason]++
	if d.inputBad != nil {
		d.inputBad[e.Reason]++
	}
	d.badRevisions += e.Revisions
	d.badMu.Unlock()
	if d.compressed {
		e.Decompressed = true
	}
	if d.opt.OnBad != nil {
		d.opt.OnBad(e)
	}
}
