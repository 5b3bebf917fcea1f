package mediawiki

// Bad input: reporting bad records and malformed XML (a page's first
// one at its end), and the end of input — a truncated or corrupt dump, and
// the salvage of the page it cut.

import (
	"errors"
	"fmt"
	"io"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/human"
)

func (r *Reader) perr(off int64, reason string, err error) *source.ParseError {
	pe := &source.ParseError{File: r.opt.File, Offset: off, Reason: reason, Err: err}
	if r.inPage && r.page != nil {
		switch {
		case r.titleSet:
			pe.Page = r.page.Title
		case r.pageIDSet:
			pe.Page = fmt.Sprintf("id %d", r.page.ID)
		}
	}
	return pe
}

// bad reports a bad record; it returns a non-nil error when the reader
// must stop (SkipBad not set).
func (r *Reader) bad(off int64, reason string, err error) error {
	if e := r.opt.Bad(r.perr(off, reason, err)); e != nil {
		return e
	}
	return nil
}

// badPage reports a bad record that drops the whole page being read: the
// page's revisions read so far go with it (ParseError.Revisions), so that
// they are counted.
func (r *Reader) badPage(off int64, reason string, err error) error {
	pe := r.perr(off, reason, err)
	if r.inPage {
		pe.Revisions = r.nrev
	}
	return r.opt.Bad(pe)
}

// malformed reports malformed XML. Inside a page it makes the page bad:
// without SkipBad that is the error; with SkipBad the page's first such
// record is reported at the page's end, with the page's revision count.
func (r *Reader) malformed(off int64, msg string) error {
	pe := r.perr(off, "xml", errors.New("malformed XML: "+msg))
	if r.inPage && r.opt.SkipBad && r.pageErr == nil {
		r.pageBad, r.pageErr = true, pe
		return nil
	}
	if err := r.opt.Bad(pe); err != nil {
		return err
	}
	if r.inPage {
		r.pageBad = true
	}
	return nil
}

// reportPageErr reports the pending bad record of a page (see malformed)
// with the revisions the page had.
func (r *Reader) reportPageErr() error {
	pe := r.pageErr
	if pe == nil {
		return nil
	}
	r.pageErr = nil
	pe.Revisions = r.nrev
	return r.opt.Bad(pe)
}

// atEnd decides what the end of input means: io.EOF after </mediawiki>;
// otherwise the dump is truncated (or the decompressor failed), which is
// reported with the page being read.
func (r *Reader) atEnd() error {
	s := r.s
	if s.err == nil && r.rootEnded && !r.inPage {
		return io.EOF
	}
	off := s.offset(s.end)
	reason, cause := "truncated", error(source.ErrTruncated)
	switch {
	case s.err != nil && errors.Is(s.err, errTooLong):
		reason, cause = "xml", s.err
	case s.err != nil:
		reason, cause = "corrupt", s.err
		if sh, ok := s.err.(interface{ Short() string }); ok {
			cause = shortError{s.err, sh.Short()} // file and offset are in the ParseError
		}
	case !r.rootSeen:
		reason, cause = "xml", errors.New("not a MediaWiki XML export (no <mediawiki> element)")
	}
	if r.inPage && r.pageErr != nil {
		// The page had a bad record pending: it goes with the page's
		// revisions, the end of input on its own.
		if err := r.reportPageErr(); err != nil {
			return err
		}
		r.nrev = 0
		r.live.Store(0)
	}
	if r.inPage && (reason == "truncated" || reason == "corrupt") && !r.pageBad && r.titleSet && r.pageIDSet && r.nrev > 0 {
		return r.salvage(off, reason, cause)
	}
	if err := r.badPage(off, reason, cause); err != nil {
		return err
	}
	r.inPage = false
	r.rootEnded = true
	s.err = nil
	s.eof = true
	return io.EOF
}

// salvage ends the input inside a page that has complete revisions (its
// title and id known, no bad record): the cut is reported as one bad record
// (reason "truncated" or "corrupt") that drops nothing, and the page is
// kept with its complete revisions, marked Truncated, for Next to return
// before io.EOF — the revision being read at the cut is lost, as in what
// `xz -dc` recovers. Without SkipBad the cut is the error, saying how many
// complete revisions --skip-bad keeps.
func (r *Reader) salvage(off int64, reason string, cause error) error {
	if !r.opt.SkipBad {
		return r.perr(off, reason, &source.SkipBadHint{Err: fmt.Errorf("%w, after %s of the page",
			cause, human.Count(r.nrev, "complete revision", "complete revisions")),
			Hint: " (--skip-bad keeps them, with the pages before, and marks the page truncated)"})
	}
	if err := r.opt.Bad(r.perr(off, reason, fmt.Errorf("%w; the page's %s before it are kept and the page is marked truncated",
		cause, human.Count(r.nrev, "complete revision", "complete revisions")))); err != nil {
		return err
	}
	p := r.page
	if !r.nsSet {
		p.Namespace = r.site.Namespaces.FromTitle(p.Title)
	}
	p.Group = r.site.Namespaces.Group(p.Namespace)
	p.Truncated = true
	r.salvaged = p
	r.page, r.inPage, r.inRev, r.inContrib, r.inUpload = nil, false, false, false, false
	r.rootEnded = true
	r.s.err = nil
	r.s.eof = true
	return io.EOF
}

// shortError replaces the message of an error that repeats what the
// ParseError around it says, keeping it for errors.Is/As.
type shortError struct {
	err error
	msg string
}

func (e shortError) Error() string { return e.msg }

func (e shortError) Unwrap() error { return e.err }
