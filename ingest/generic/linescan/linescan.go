package linescan

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/revisit-dev/revisit/internal/human"
)

var bom = []byte("\ufeff")

// Scanner reads lines from a stream. Lines may be of any length up to the
// cap set with SetMax; the line terminator ("\n" or "\r\n") is not part of
// the returned line.
type Scanner struct {
	br     *bufio.Reader
	long   []byte // accumulates a line longer than the buffer
	max    int    // longest line returned (0: no cap)
	flag   string // the option that sets max (TooLongError.Flag)
	line   int64  // number of the line last returned
	offset int64  // offset of the line last returned
	next   int64  // offset of the next line
	err    error
}

// TooLongError is a line longer than the Scanner's cap. The line has been
// read past (not kept), so Next can go on with the following line; Line
// and Offset refer to it.
type TooLongError struct {
	Length int64 // bytes of the line without its terminator (the whole line, counted while passing over it)
	Max    int
	Flag   string // the option that sets Max, named in the message; "" when no option does
}

func (e *TooLongError) Error() string {
	msg := fmt.Sprintf("line of %s bytes is longer than the limit of %s bytes", human.Comma(e.Length), human.Comma(int64(e.Max)))
	if e.Flag != "" {
		msg += " (" + e.Flag + ")"
	}
	return msg
}

// New returns a Scanner reading r through a buffer of size bytes (at least
// 4096; 1 MiB is a good size for multi-GB inputs).
func New(r io.Reader, size int) *Scanner {
	if size < 4096 {
		size = 4096
	}
	return &Scanner{br: bufio.NewReaderSize(r, size), flag: MaxLineFlag}
}

// MaxLineFlag is the option that sets the cap in the ingest readers, named
// by a *TooLongError unless SetMaxFrom names another.
const MaxLineFlag = "--max-line-bytes"

// SetMaxFrom caps the length of a line like SetMax, the cap being set by
// the option flag (named in a *TooLongError; "" for a fixed cap that no
// option changes).
func (s *Scanner) SetMaxFrom(max int, flag string) { s.max, s.flag = max, flag }

// SetMax caps the length of a line (without its terminator) at max bytes;
// 0 is no cap. A longer line makes Next return a *TooLongError; memory is
// then bounded by max plus the buffer size, however long the line is.
func (s *Scanner) SetMax(max int) { s.max = max }

// Next returns the next line, or io.EOF after the last one (a last line
// without a trailing newline is returned like any other). A UTF-8 byte-order
// mark at the start of the stream is dropped from the first line (Offset
// and Consumed still count its 3 bytes). The returned
// slice is only valid until the following call. A line longer than the cap
// (SetMax) is a *TooLongError, after which Next goes on with the next line.
// Any other error is the underlying reader's.
func (s *Scanner) Next() ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	frag, err := s.br.ReadSlice('\n')
	line := frag
	total := int64(len(frag))
	over := false // stopped keeping the line: it is too long
	if errors.Is(err, bufio.ErrBufferFull) {
		s.long = append(s.long[:0], frag...)
		for errors.Is(err, bufio.ErrBufferFull) {
			frag, err = s.br.ReadSlice('\n')
			total += int64(len(frag))
			if s.max > 0 && total > int64(s.max)+2 { // + "\r\n"
				over = true
				s.long = s.long[:0]
			}
			if !over {
				s.long = append(s.long, frag...)
			}
		}
		line = s.long
	}
	if err != nil && err != io.EOF {
		s.err = err
		return nil, err
	}
	if total == 0 { // err == io.EOF
		s.err = io.EOF
		return nil, io.EOF
	}
	s.line++
	s.offset = s.next
	s.next += total
	if over {
		return nil, &TooLongError{Length: total - terminator(frag), Max: s.max, Flag: s.flag}
	}
	if s.line == 1 && bytes.HasPrefix(line, bom) {
		line = line[len(bom):]
	}
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
	}
	if s.max > 0 && len(line) > s.max {
		return nil, &TooLongError{Length: int64(len(line)), Max: s.max, Flag: s.flag}
	}
	return line, nil
}

// terminator is the length of the line terminator at the end of the last
// fragment of a line (0, 1 for "\n", 2 for "\r\n").
func terminator(frag []byte) int64 {
	n := len(frag)
	switch {
	case n > 0 && frag[n-1] == '\n' && n > 1 && frag[n-2] == '\r':
		return 2
	case n > 0 && frag[n-1] == '\n':
		return 1
	}
	return 0
}

// Line is the 1-based number of the line last returned by Next.
func (s *Scanner) Line() int64 { return s.line }

// Offset is the byte offset, in the stream, of the start of the line last
// returned by Next.
func (s *Scanner) Offset() int64 { return s.offset }

// Consumed is the number of bytes consumed so far (the offset of the next
// line).
func (s *Scanner) Consumed() int64 { return s.next }

// IsTooLong reports whether err, as Next returned it, is a *TooLongError
// (without the allocation errors.As costs on every line).
func IsTooLong(err error) (*TooLongError, bool) {
	tl, ok := err.(*TooLongError)
	return tl, ok
}
