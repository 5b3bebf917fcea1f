package jsonscan

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of arrays and objects accepted; it is the
// same limit as encoding/json's.
const MaxDepth = 10000

// Error is a syntax error at a byte offset of the scanned text.
type Error struct {
	Offset int    // 0-based byte offset in the scanned text
	Msg    string // what was wrong
	EOF    bool   // the text ended inside a value (a truncated line)

	cause error // an error returned by a callback, passed through unchanged
}

func (e *Error) Error() string { return fmt.Sprintf("invalid JSON at byte %d: %s", e.Offset, e.Msg) }

// Kind is the type of a JSON value, named by its first byte.
type Kind byte

// The kinds of JSON values.
const (
	String Kind = '"'
	Number Kind = '0'
	Object Kind = '{'
	Array  Kind = '['
	True   Kind = 't'
	False  Kind = 'f'
	Null   Kind = 'n'
)

// Value is one JSON value as raw bytes of the scanned text (a string keeps
// its quotes and escapes; use Str to decode it).
type Value struct {
	Kind Kind
	Raw  []byte
	// Offset is the byte offset of Raw in the scanned text.
	Offset int
}

// Str decodes a string value (as encoding/json does, with invalid UTF-8 and
// lone surrogates replaced by U+FFFD); for any other kind it returns the raw
// text (a number's digits, true, false, null) so that ids and epoch times
// may be given as numbers. The result may alias Raw.
func (v Value) Str() []byte {
	if v.Kind != String {
		return v.Raw
	}
	return Unquote(v.Raw)
}

// Unquote decodes a JSON string literal, quotes included, that the scanner
// has already validated. Invalid UTF-8 and lone surrogates become U+FFFD as
// in encoding/json. The result aliases raw when nothing needs decoding.
func Unquote(raw []byte) []byte {
	s := raw[1 : len(raw)-1]
	if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
		return s
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			e := s[i+1]
			i += 2
			switch e {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(s[i:])
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						r2 = hex4(s[i+2:])
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						i += 6
						r = dec
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default: // '"', '\\', '/'
				out = append(out, e)
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, s[i:i+size]...)
			}
			i += size
		}
	}
	return out
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// strSafe[c] is true for bytes that may appear unescaped in a string
// without ending it: everything but control characters, '"' and '\\'.
var strSafe = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// hasZero is non-zero when some byte of x is 0; hasLess when some byte is
// below n (n ≤ 128). Both may flag a byte above a true hit (borrows), never
// miss one, which is all the fast path needs.
func hasZero(x uint64) uint64 { return (x - lsb) &^ x & msb }

func hasLess(x uint64, n uint64) uint64 { return (x - lsb*n) &^ x & msb }

// scanner walks one text; it is a value type on the caller's stack.
type scanner struct {
	b   []byte
	pos int
}

func (s *scanner) err(msg string) *Error { return &Error{Offset: s.pos, Msg: msg} }

func (s *scanner) errAt(off int, format string, args ...any) *Error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (s *scanner) ws() {
	for s.pos < len(s.b) {
		switch s.b[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) eof(what string) *Error {
	return &Error{Offset: s.pos, Msg: "unexpected end of input in " + what, EOF: true}
}

// str scans a string starting at the opening quote.
func (s *scanner) str() *Error {
	b := s.b
	i := s.pos + 1
	for {
		// Eight bytes at a time while none of them needs a look (SWAR:
		// no byte < 0x20, no '"', no '\\'), then byte by byte.
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			if hasLess(x, 0x20)|hasZero(x^(lsb*'"'))|hasZero(x^(lsb*'\\')) != 0 {
				break
			}
			i += 8
		}
		for i < len(b) && strSafe[b[i]] {
			i++
		}
		if i >= len(b) {
			s.pos = i
			return s.eof("string")
		}
		switch c := b[i]; {
		case c == '"':
			s.pos = i + 1
			return nil
		case c == '\\':
			if i+1 >= len(b) {
				s.pos = i + 1
				return s.eof("string escape")
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(b) {
						s.pos = i + k
						return s.eof("string escape")
					}
					if !isHex(b[i+k]) {
						return s.errAt(i+k, "invalid character %q in \\u escape", b[i+k])
					}
				}
				i += 6
			default:
				return s.errAt(i+1, "invalid escape character %q", b[i+1])
			}
		default:
			return s.errAt(i, "control character %#x in string", c)
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// num scans a number per RFC 8259.
func (s *scanner) num() *Error {
	b, i := s.b, s.pos
	if b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		s.pos = i
		return s.eof("number")
	case b[i] == '0':
		i++
	case isDigit(b[i]):
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return s.errAt(i, "invalid character %q in number", b[i])
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) {
			s.pos = i
			return s.eof("number")
		}
		if !isDigit(b[i]) {
			return s.errAt(i, "invalid character %q after decimal point", b[i])
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) {
			s.pos = i
			return s.eof("number")
		}
		if !isDigit(b[i]) {
			return s.errAt(i, "invalid character %q in exponent", b[i])
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	s.pos = i
	return nil
}

func (s *scanner) lit(word string) *Error {
	for k := 0; k < len(word); k++ {
		if s.pos+k >= len(s.b) {
			s.pos += k
			return s.eof("literal " + word)
		}
		if s.b[s.pos+k] != word[k] {
			return s.errAt(s.pos+k, "invalid character %q in literal %s", s.b[s.pos+k], word)
		}
	}
	s.pos += len(word)
	return nil
}

// value scans one value at s.pos (no leading whitespace) and returns it.
func (s *scanner) value(depth int) (Value, *Error) {
	if s.pos >= len(s.b) {
		return Value{}, s.eof("value")
	}
	start := s.pos
	var err *Error
	var k Kind
	switch c := s.b[s.pos]; {
	case c == '"':
		k, err = String, s.str()
	case c == '-' || isDigit(c):
		k, err = Number, s.num()
	case c == '{':
		k, err = Object, s.object(depth+1, nil)
	case c == '[':
		k, err = Array, s.array(depth+1, nil)
	case c == 't':
		k, err = True, s.lit("true")
	case c == 'f':
		k, err = False, s.lit("false")
	case c == 'n':
		k, err = Null, s.lit("null")
	default:
		return Value{}, s.err(fmt.Sprintf("invalid character %q looking for beginning of value", c))
	}
	if err != nil {
		return Value{}, err
	}
	return Value{Kind: k, Raw: s.b[start:s.pos], Offset: start}, nil
}

// MemberFunc receives one member of an object: its decoded key and its
// value. Returning a non-nil error stops the scan and is returned as is.
type MemberFunc func(key []byte, v Value) error

// ElementFunc receives one element of an array with its 0-based index.
type ElementFunc func(i int, v Value) error

// object scans an object starting at '{'; fn (may be nil) gets each member.
func (s *scanner) object(depth int, fn MemberFunc) *Error {
	if depth > MaxDepth {
		return s.err("exceeded max depth")
	}
	s.pos++ // '{'
	s.ws()
	if s.pos < len(s.b) && s.b[s.pos] == '}' {
		s.pos++
		return nil
	}
	for {
		if s.pos >= len(s.b) {
			return s.eof("object")
		}
		if s.b[s.pos] != '"' {
			return s.err(fmt.Sprintf("invalid character %q looking for beginning of object key string", s.b[s.pos]))
		}
		kstart := s.pos
		if err := s.str(); err != nil {
			return err
		}
		key := s.b[kstart:s.pos]
		s.ws()
		if s.pos >= len(s.b) {
			return s.eof("object")
		}
		if s.b[s.pos] != ':' {
			return s.err(fmt.Sprintf("invalid character %q after object key", s.b[s.pos]))
		}
		s.pos++
		s.ws()
		v, err := s.value(depth)
		if err != nil {
			return err
		}
		if fn != nil {
			if e := fn(Unquote(key), v); e != nil {
				return &Error{Offset: v.Offset, cause: e}
			}
		}
		s.ws()
		if s.pos >= len(s.b) {
			return s.eof("object")
		}
		switch s.b[s.pos] {
		case ',':
			s.pos++
			s.ws()
		case '}':
			s.pos++
			return nil
		default:
			return s.err(fmt.Sprintf("invalid character %q after object key:value pair", s.b[s.pos]))
		}
	}
}

// array scans an array starting at '['; fn (may be nil) gets each element.
func (s *scanner) array(depth int, fn ElementFunc) *Error {
	if depth > MaxDepth {
		return s.err("exceeded max depth")
	}
	s.pos++ // '['
	s.ws()
	if s.pos < len(s.b) && s.b[s.pos] == ']' {
		s.pos++
		return nil
	}
	for i := 0; ; i++ {
		v, err := s.value(depth)
		if err != nil {
			return err
		}
		if fn != nil {
			if e := fn(i, v); e != nil {
				return &Error{Offset: v.Offset, cause: e}
			}
		}
		s.ws()
		if s.pos >= len(s.b) {
			return s.eof("array")
		}
		switch s.b[s.pos] {
		case ',':
			s.pos++
			s.ws()
		case ']':
			s.pos++
			return nil
		default:
			return s.err(fmt.Sprintf("invalid character %q after array element", s.b[s.pos]))
		}
	}
}

// start skips leading whitespace and checks the first byte.
func (s *scanner) start(want byte, what string) error {
	s.ws()
	if s.pos >= len(s.b) {
		return s.eof(what)
	}
	if s.b[s.pos] != want {
		return s.err(fmt.Sprintf("invalid character %q: want %s", s.b[s.pos], what))
	}
	return nil
}

func (s *scanner) end() error {
	s.ws()
	if s.pos < len(s.b) {
		return s.err(fmt.Sprintf("invalid character %q after top-level value", s.b[s.pos]))
	}
	return nil
}

func unwrap(e *Error) error {
	if e == nil {
		return nil
	}
	if e.cause != nil {
		return e.cause
	}
	return e
}

// Members scans b, which must hold exactly one JSON object (surrounded by
// optional whitespace), and calls fn for each member in order. Everything
// in b is validated; values not looked at are skipped without allocation.
// A syntax error is an *Error; an error returned by fn is returned as is.
// Members seen before a syntax error have already been passed to fn.
func Members(b []byte, fn MemberFunc) error {
	s := scanner{b: b}
	if err := s.start('{', "object"); err != nil {
		return err
	}
	if err := unwrap(s.object(1, fn)); err != nil {
		return err
	}
	return s.end()
}

// Elements scans b, which must hold exactly one JSON array (surrounded by
// optional whitespace), and calls fn for each element in order, as Members
// does for objects.
func Elements(b []byte, fn ElementFunc) error {
	s := scanner{b: b}
	if err := s.start('[', "array"); err != nil {
		return err
	}
	if err := unwrap(s.array(1, fn)); err != nil {
		return err
	}
	return s.end()
}

// Valid reports whether b is one valid JSON value (surrounded by optional
// whitespace), like json.Valid.
func Valid(b []byte) bool {
	s := scanner{b: b}
	s.ws()
	if _, err := s.value(0); err != nil {
		return false
	}
	return s.end() == nil
}

// Float parses a Number value's raw text.
func Float(raw []byte) (float64, error) { return strconv.ParseFloat(string(raw), 64) }
