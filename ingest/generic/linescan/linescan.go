package linescan

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

var bom = []byte("\ufeff")

// Scanner reads lines from a stream. Lines may be of any length; the line
// terminator ("\n" or "\r\n") is not part of the returned line.
type Scanner struct {
	br     *bufio.Reader
	long   []byte // accumulates a line longer than the buffer
	line   int64  // number of the line last returned
	offset int64  // offset of the line last returned
	next   int64  // offset of the next line
	err    error
}

// New returns a Scanner reading r through a buffer of size bytes (at least
// 4096; 1 MiB is a good size for multi-GB inputs).
func New(r io.Reader, size int) *Scanner {
	if size < 4096 {
		size = 4096
	}
	return &Scanner{br: bufio.NewReaderSize(r, size)}
}

// Next returns the next line, or io.EOF after the last one (a last line
// without a trailing newline is returned like any other). A UTF-8 byte-order
// mark at the start of the stream is dropped from the first line (Offset
// and Consumed still count its 3 bytes). The returned
// slice is only valid until the following call. Any other error is the
// underlying reader's.
func (s *Scanner) Next() ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	frag, err := s.br.ReadSlice('\n')
	line := frag
	if errors.Is(err, bufio.ErrBufferFull) {
		s.long = append(s.long[:0], frag...)
		for errors.Is(err, bufio.ErrBufferFull) {
			frag, err = s.br.ReadSlice('\n')
			s.long = append(s.long, frag...)
		}
		line = s.long
	}
	if err != nil && err != io.EOF {
		s.err = err
		return nil, err
	}
	if len(line) == 0 { // err == io.EOF
		s.err = io.EOF
		return nil, io.EOF
	}
	s.line++
	s.offset = s.next
	s.next += int64(len(line))
	if s.line == 1 && bytes.HasPrefix(line, bom) {
		line = line[len(bom):]
	}
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
	}
	return line, nil
}

// Line is the 1-based number of the line last returned by Next.
func (s *Scanner) Line() int64 { return s.line }

// Offset is the byte offset, in the stream, of the start of the line last
// returned by Next.
func (s *Scanner) Offset() int64 { return s.offset }

// Consumed is the number of bytes consumed so far (the offset of the next
// line).
func (s *Scanner) Consumed() int64 { return s.next }
