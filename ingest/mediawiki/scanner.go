package mediawiki

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// bufSize is the scanner's window; it grows only for a single tag or
// element content longer than that (up to maxElement), never for text
// bodies, which are skipped through the window.
const (
	bufSize    = 1 << 20
	maxElement = 64 << 20
)

// readMin is the smallest read the scanner asks for: reads of at least the
// decompressor's peek buffer (64 KiB) go straight into the window.
const readMin = 64 << 10

var errTooLong = errors.New("element longer than 64 MiB")

// scanner is a forward-only window over the decompressed XML.
type scanner struct {
	r    io.Reader
	buf  []byte
	pos  int   // next unread byte in buf
	end  int   // end of valid bytes in buf
	base int64 // stream offset of buf[0]
	eof  bool
	err  error // read error other than io.EOF
}

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, bufSize)}
}

// offset is the stream offset of buf[i].
func (s *scanner) offset(i int) int64 { return s.base + int64(i) }

// more reads more bytes, keeping buf[keep:end] (moved to the front). It
// returns false at the end of input or on a read error.
func (s *scanner) more(keep int) bool {
	if s.eof || s.err != nil {
		return false
	}
	if keep > 0 && (keep >= s.end-keep || len(s.buf)-s.end < readMin) {
		// Move the kept bytes to the front when that is cheap (they are
		// fewer than the bytes dropped) or the free space is too small for
		// a large read.
		n := copy(s.buf, s.buf[keep:s.end])
		s.base += int64(keep)
		s.pos -= keep
		s.end = n
	}
	if s.end == len(s.buf) {
		if len(s.buf) >= maxElement {
			s.err = errTooLong
			return false
		}
		nb := make([]byte, 2*len(s.buf))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	for {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			if errors.Is(err, io.EOF) {
				s.eof = true
			} else {
				s.err = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// skipToByte advances pos to the next c, discarding everything before it.
func (s *scanner) skipToByte(c byte) bool {
	for {
		if i := bytes.IndexByte(s.buf[s.pos:s.end], c); i >= 0 {
			s.pos += i
			return true
		}
		s.pos = s.end
		if !s.more(s.pos) {
			return false
		}
	}
}

// skipPast advances pos past the next occurrence of sep, discarding what
// comes before it; revision text is skipped this way.
func (s *scanner) skipPast(sep []byte) bool {
	for {
		if i := bytes.Index(s.buf[s.pos:s.end], sep); i >= 0 {
			s.pos += i + len(sep)
			return true
		}
		// Keep a tail that may hold the start of sep.
		keep := s.end - (len(sep) - 1)
		if keep < s.pos {
			keep = s.pos
		}
		s.pos = keep
		if !s.more(keep) {
			return false
		}
	}
}

// indexByte finds c at or after pos without discarding anything, reading
// more input as needed; it returns the index relative to pos or −1.
func (s *scanner) indexByte(c byte) int {
	from := s.pos
	for {
		if i := bytes.IndexByte(s.buf[from:s.end], c); i >= 0 {
			return from + i - s.pos
		}
		from = s.end - s.pos // relative, survives the move in more
		if !s.more(s.pos) {
			return -1
		}
		from += s.pos
	}
}

// has reports whether at least n bytes from pos are in the window, reading
// more input as needed.
func (s *scanner) has(n int) bool {
	for s.end-s.pos < n {
		if !s.more(s.pos) {
			return s.end-s.pos >= n
		}
	}
	return true
}

// index finds sep at or after pos without discarding anything, reading
// more input as needed; it returns the index relative to pos or −1.
func (s *scanner) index(sep []byte) int {
	from := s.pos
	for {
		if i := bytes.Index(s.buf[from:s.end], sep); i >= 0 {
			return from + i - s.pos
		}
		from = max(s.pos, s.end-len(sep)+1) - s.pos // relative, survives the move in more
		if !s.more(s.pos) {
			return -1
		}
		from += s.pos
	}
}

func (s *scanner) String() string { return fmt.Sprintf("scanner@%d", s.offset(s.pos)) }
