package human

import (
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// unsafeRune reports whether r must not reach a terminal as it is: a
// control character (C0 but newline and tab, DEL, C1: escape sequences,
// carriage return, backspace, bell) or a bidirectional formatting
// character (it reorders what follows it on the line).
func unsafeRune(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	if unicode.IsControl(r) {
		return true
	}
	switch {
	case r == 0x061C, r == 0x200E, r == 0x200F,
		r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// needsEscape reports whether s holds a rune unsafeRune refuses, a
// newline or tab (inside a name they break the line), or a byte that is
// not UTF-8.
func needsEscape(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return true
			}
		}
		if r == '\n' || r == '\t' || unsafeRune(r) {
			return true
		}
	}
	return false
}

// Path is a file name (or any one name a user chose: a page title, a URL)
// for the terminal: s itself when it holds only printable characters and
// spaces, otherwise s quoted as a Go string literal (strconv.Quote:
// "esc\x1b[2J.xml"), so that a name cannot clear the screen, move the
// cursor or hide part of the message.
func Path(s string) string {
	if !needsEscape(s) {
		return s
	}
	return strconv.Quote(s)
}

// Text is a message for the terminal with every control character but
// newline and tab escaped in place (ESC as \x1b, a C1 character or a
// bidirectional formatting character as \u009b, a byte that is not UTF-8
// as \xff): the whole message stays readable and no part of it reaches
// the terminal as a command.
func Text(s string) string {
	clean := true
	for i, r := range s {
		if unsafeRune(r) || r == utf8.RuneError && invalidAt(s, i) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && invalidAt(s, i):
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case unsafeRune(r) && r < 0x80:
			b.WriteString(`\x`)
			b.WriteString(hex2(byte(r)))
		case unsafeRune(r):
			q := strconv.QuoteRune(r) // '\u009b'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Terminal is a writer of messages for the terminal (a stage's log lines,
// a summary): what is written through it reaches w escaped as Text
// escapes it. Each Write is escaped on its own: a message written at once
// (fmt.Fprintf, io.WriteString) keeps its multi-byte characters.
type Terminal struct{ w io.Writer }

// NewTerminal writes to w through Text.
func NewTerminal(w io.Writer) Terminal { return Terminal{w} }

// Write writes p escaped; it reports len(p) when the escaped text was
// written whole.
func (t Terminal) Write(p []byte) (int, error) {
	if _, err := io.WriteString(t.w, Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// invalidAt reports whether the byte at s[i] does not start a valid UTF-8
// encoding (a decoded utf8.RuneError of width 1).
func invalidAt(s string, i int) bool {
	_, n := utf8.DecodeRuneInString(s[i:])
	return n == 1
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}
