package decompress

// LZMA-alone: the decoder of ulikunitz/xz, delivering what it decoded
// before a cut and refusing bytes after the end of the stream.

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/ulikunitz/xz/lzma"
)

// lzmaStream is the LZMA-alone decoder of ulikunitz/xz with two fixes.
//
// A stream cut short delivers every byte decoded before the cut, as
// `lzma -dc` does: the decoder fills its dictionary buffer (up to the
// dictionary size, 8 MiB for lzma -6) before it hands anything out, and
// returns io.ErrUnexpectedEOF at the cut with that buffer still unread;
// it has then stopped (its end-of-stream flag is set), and further reads
// return the buffered bytes and io.EOF. So the truncation is held back
// until they are out.
//
// Bytes after the end of the stream are an error naming the stored offset
// where they start (`lzma -dc` rejects them too): the decoder reads its
// input byte by byte from the bufio.Reader, so it stops exactly at the end.
type lzmaStream struct {
	zr *lzma.Reader
	// trailing checks what follows the end of the stream: nil when
	// nothing does, else the error naming where the bytes after it start.
	trailing func() error
	trunc    error // the truncation, returned after the decoded bytes
	err      error // the final error
}

// trailingLZMA is lzmaStream.trailing for the stored bytes of r: the
// decoder read them from r.br, whose bytes not yet taken are after the end.
func (r *Reader) trailingLZMA() error { return trailingAfter(r.br, r.src.n.Load) }

// trailingAfter is lzmaStream.trailing for stored bytes read through br
// from a source of which read() bytes were read so far.
func trailingAfter(br *bufio.Reader, read func() int64) error {
	if _, perr := br.Peek(1); perr == nil {
		end := read() - int64(br.Buffered())
		return fmt.Errorf("data after the end of the lzma stream, from byte %d of the file", end)
	}
	return nil
}

func (s *lzmaStream) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.zr.Read(p)
	switch {
	case err == nil:
		return n, nil
	case errors.Is(err, io.ErrUnexpectedEOF) && s.trunc == nil:
		s.trunc = err
		if n > 0 {
			return n, nil
		}
		return s.Read(p)
	case errors.Is(err, io.EOF) && s.trunc != nil:
		s.err = s.trunc
	case errors.Is(err, io.EOF):
		s.err = io.EOF
		if terr := s.trailing(); terr != nil {
			s.err = terr
		}
	case s.trunc != nil:
		s.err = s.trunc // a failure while returning the buffered bytes: report the cut
	default:
		s.err = err
	}
	if n > 0 && s.err != io.EOF {
		return n, nil
	}
	return n, s.err
}
