package generic

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/revisit-dev/revisit/ingest/generic/jsonscan"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/human"
)

// gatherJSONKeys reads one JSON object whose keys are the timestamps (the
// values are validated and ignored), as in the per-edition revision files
// of ajoer/Newswork-on-Wikipedia. The whole file is one object, named from
// the file name, and is held in memory while it is scanned (a file longer
// than the line cap, source.Options.MaxLineBytes, is one bad record,
// "line-too-long", and is not read into memory). A key that is
// not a timestamp is a bad record; a syntax error ends the object (with
// SkipBad the keys read before it are kept and one bad record is counted).
func (r *Reader) gatherJSONKeys() error {
	var b []byte
	var err error
	if max := int64(r.so.MaxLineBytes); max > 0 {
		b, err = io.ReadAll(io.LimitReader(r.br, max+1))
		if err == nil && int64(len(b)) > max {
			n, err := io.Copy(io.Discard, r.br)
			if err != nil {
				return source.ReadError(r.so.File, r.skipBytes+int64(len(b))+n, 0, FileID(r.opt.FileName, r.opt.IDFromDir), err)
			}
			return r.bad(&source.ParseError{File: r.so.File, Offset: r.skipBytes, Line: int64(r.opt.SkipLines) + 1, Page: FileID(r.opt.FileName, r.opt.IDFromDir),
				Reason: "line-too-long", Err: fmt.Errorf("the JSON object of %s bytes is longer than the limit of %s bytes (--max-line-bytes)", human.Comma(int64(len(b))+n), human.Comma(max))}, 1)
		}
	} else {
		b, err = io.ReadAll(r.br)
	}
	if err != nil {
		// The object is cut: its keys cannot be told from garbage.
		return source.ReadError(r.so.File, r.skipBytes+int64(len(b)), 0, FileID(r.opt.FileName, r.opt.IDFromDir), err)
	}
	id := []byte(FileID(r.opt.FileName, r.opt.IDFromDir))
	// lineOf counts lines incrementally: offsets only grow during the scan.
	lastOff, lastLine := 0, int64(r.opt.SkipLines)+1
	lineOf := func(off int) int64 {
		if off >= lastOff {
			lastLine += int64(bytes.Count(b[lastOff:off], []byte{'\n'}))
			lastOff = off
		}
		return lastLine
	}
	err = jsonscan.Members(b, func(key []byte, v jsonscan.Value) error {
		t, err := r.tp.parse(key)
		if err != nil {
			return r.bad(&source.ParseError{File: r.so.File, Offset: r.skipBytes + int64(v.Offset), Line: lineOf(v.Offset), Page: string(id), Reason: "timestamp",
				Err: fmt.Errorf("key %q: %w", key, err)}, 1)
		}
		return r.add(id, nil, nil, t, lineOf(v.Offset), r.skipBytes+int64(v.Offset))
	})
	if err == nil {
		return nil
	}
	var je *jsonscan.Error
	if !errors.As(err, &je) {
		return err // a bad record without SkipBad, already a *source.ParseError
	}
	reason, cause := JSONCause(je)
	return r.bad(&source.ParseError{File: r.so.File, Offset: r.skipBytes + int64(je.Offset), Line: lineOf(je.Offset), Page: string(id), Reason: reason, Err: cause}, 1)
}
