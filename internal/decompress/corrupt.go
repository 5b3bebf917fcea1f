package decompress

// Errors: CorruptError, what a decoder failure becomes, with the file,
// format and decompressed offset it happened at.

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// CorruptError is a failure of the decompressor itself: the stored stream is
// truncated or damaged.
type CorruptError struct {
	File   string
	Format string
	Offset int64 // decompressed bytes delivered before the failure
	Err    error
	// Truncated: the stored stream ends before its end (the decoder wanted
	// more bytes, or a bzip2 file has no end-of-stream trailer).
	Truncated bool
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("%s: %s after %d decompressed bytes: %v", e.File, e.what(), e.Offset, e.Err)
}

func (e *CorruptError) what() string {
	if e.Truncated {
		return "truncated " + e.Format + " stream"
	}
	return e.Format + " stream is corrupt or truncated"
}

func (e *CorruptError) Unwrap() error { return e.Err }

// noEOF keeps io.EOF out of a CorruptError's chain: a decoder that met the
// end of its input too early says io.EOF, and callers test errors.Is(err,
// io.EOF) for a clean end. It becomes io.ErrUnexpectedEOF.
func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%v (%w)", err, io.ErrUnexpectedEOF)
	}
	return err
}

// Short is the message without the file and offset, for callers that
// report those already (a parser's *source.ParseError).
func (e *CorruptError) Short() string {
	return fmt.Sprintf("%s: %v", e.what(), e.Err)
}

func (r *Reader) wrapErr(err error) error { return r.wrapErrAt(err, r.offset) }

// wrapErrAt is wrapErr for a failure after offset decompressed bytes of
// the current member.
func (r *Reader) wrapErrAt(err error, offset int64) error {
	r.failed = true
	var ce *CorruptError
	if errors.As(err, &ce) {
		return err
	}
	name := r.name
	if r.curName != "" {
		name += ":" + r.curName
	}
	format := r.format
	switch {
	case r.member.format != "" && r.member.format != Plain && (r.feed == nil || r.feed.err == nil):
		format = r.member.format // the member's own decompressor failed
	case format == Plain && r.archive == Tar:
		format = Tar // an uncompressed tar cut short: the archive is what is truncated
	}
	return r.corrupt(err, name, format, offset)
}

// corrupt builds the CorruptError of a decoder failure after offset
// decompressed bytes.
func (r *Reader) corrupt(err error, name, format string, offset int64) *CorruptError {
	var ce *CorruptError
	if errors.As(err, &ce) {
		return ce
	}
	err = noEOF(err)
	// The parallel bzip2 decoder looks for the stream's trailer before it
	// delivers the first block, so a cut file fails here, at offset 0.
	// (Files are checked for it first and read sequentially when it is
	// missing; standard input cannot be.) pbzip2 gives that error no type
	// or sentinel, so its text is the only mark of it.
	noTrailer := r.format == Bzip2 && strings.Contains(err.Error(), "failed to find trailer")
	truncated := errors.Is(err, io.ErrUnexpectedEOF) || noTrailer
	if noTrailer {
		err = fmt.Errorf("%w (the stream ends before the bzip2 end-of-stream trailer; from standard input the parallel decoder cannot tell how many blocks before the cut are whole, so what was read before the error varies)", err)
	}
	return &CorruptError{File: name, Format: format, Offset: offset, Err: err, Truncated: truncated}
}
