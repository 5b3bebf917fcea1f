package linescan

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestLongLines checks lines far longer than the buffer and offsets against
// a naive split of the same text (strings.SplitAfter on "\n").
func TestLongLines(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 50; i++ {
		b.WriteString(strings.Repeat(string(rune('a'+i%26)), i*997))
		if i%7 == 3 {
			b.WriteString("\r")
		}
		b.WriteString("\n")
	}
	b.WriteString("tail")
	text := b.String()
	want := strings.SplitAfter(text, "\n")
	s := New(strings.NewReader(text), 4096)
	var off int64
	for i, w := range want {
		line, err := s.Next()
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		exp := strings.TrimSuffix(strings.TrimSuffix(w, "\n"), "\r")
		if !bytes.Equal(line, []byte(exp)) || s.Line() != int64(i+1) || s.Offset() != off {
			t.Fatalf("line %d: got %d bytes at line %d offset %d, want %d bytes at offset %d",
				i+1, len(line), s.Line(), s.Offset(), len(exp), off)
		}
		off += int64(len(w))
	}
	if _, err := s.Next(); err != io.EOF {
		t.Fatalf("after last line: %v, want EOF", err)
	}
	if s.Consumed() != int64(len(text)) {
		t.Fatalf("consumed %d, want %d", s.Consumed(), len(text))
	}
}

func TestEmpty(t *testing.T) {
	s := New(strings.NewReader(""), 0)
	if _, err := s.Next(); err != io.EOF {
		t.Fatalf("got %v, want EOF", err)
	}
	// A blank line is a line: "\n" is one empty line.
	s = New(strings.NewReader("\n"), 0)
	line, err := s.Next()
	if err != nil || len(line) != 0 || s.Line() != 1 {
		t.Fatalf("got %q, %v, line %d", line, err, s.Line())
	}
	if _, err := s.Next(); err != io.EOF {
		t.Fatalf("got %v, want EOF", err)
	}
}

func TestBOM(t *testing.T) {
	s := New(strings.NewReader("\ufeff{\"a\":1}\n\ufeffx"), 0)
	l1, _ := s.Next()
	if string(l1) != `{"a":1}` {
		t.Errorf("line 1 = %q", l1)
	}
	// Only the stream's first bytes are a byte-order mark.
	l2, _ := s.Next()
	if string(l2) != "\ufeffx" || s.Offset() != 11 {
		t.Errorf("line 2 = %q at %d, want offset 3+7+1 = 11", l2, s.Offset())
	}
}

// A line past the cap is a *TooLongError with its length, at its line and
// offset; the scanner goes on with the next line, and memory stays bounded
// by the cap plus the buffer however long the line is.
func TestMaxLine(t *testing.T) {
	long := strings.Repeat("x", 10_000)
	in := "ab\r\n" + long + "\r\ncd\n" + strings.Repeat("y", 11) + "\nef"
	s := New(strings.NewReader(in), 4096)
	s.SetMax(10)
	type step struct {
		line   string
		length int64 // > 0: a TooLongError of this length
		no     int64
		offset int64
	}
	want := []step{{"ab", 0, 1, 0}, {"", 10_000, 2, 4}, {"cd", 0, 3, 10_006}, {"", 11, 4, 10_009}, {"ef", 0, 5, 10_021}}
	for _, w := range want {
		line, err := s.Next()
		var tl *TooLongError
		switch {
		case w.length > 0 && (!errors.As(err, &tl) || tl.Length != w.length || tl.Max != 10):
			t.Fatalf("line %d: %q, %v; want a TooLongError of length %d", w.no, line, err, w.length)
		case w.length == 0 && (err != nil || string(line) != w.line):
			t.Fatalf("line %d: %q, %v; want %q", w.no, line, err, w.line)
		}
		if s.Line() != w.no || s.Offset() != w.offset {
			t.Errorf("line %d at %d, want %d at %d", s.Line(), s.Offset(), w.no, w.offset)
		}
	}
	if _, err := s.Next(); err != io.EOF {
		t.Errorf("at the end: %v", err)
	}
	if cap(s.long) > 10+2+2*4096 {
		t.Errorf("kept %d bytes for a line past a cap of 10", cap(s.long))
	}
}
