package human

import (
	"fmt"
	"strings"
	"testing"
)

// The escapes are written by hand: ESC is \x1b, CSI (U+009B) \u009b, the
// right-to-left override U+202E \u202e, a lone 0xff byte \xff.
func TestTextEscapesControlCharacters(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain é name.xml", "plain é name.xml"},
		{"line one\n\tline two", "line one\n\tline two"},
		{"esc\x1b[2J.xml", `esc\x1b[2J.xml`},
		{"bell\a cr\r bs\b del\x7f", `bell\x07 cr\x0d bs\x08 del\x7f`},
		{"csi\u009b31m", `csi\u009b31m`},
		{"rtl\u202etxt.exe", `rtl\u202etxt.exe`},
		{"bad\xffbyte", `bad\xffbyte`},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPathQuotesOnlyWhenNeeded(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"out/my data.xml", "out/my data.xml"},
		{"ünïcode/ページ", "ünïcode/ページ"},
		{"esc\x1b[2J.xml", `"esc\x1b[2J.xml"`},
		{"two\nlines", `"two\nlines"`},
		{"bad\xff", `"bad\xff"`},
	} {
		if got := Path(c.in); got != c.want {
			t.Errorf("Path(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A Terminal writer escapes each message as Text does and reports the
// bytes it was given.
func TestTerminalWriter(t *testing.T) {
	var b strings.Builder
	w := NewTerminal(&b)
	msg := "analyze: replay run\x1b[31m/replay (ページ)\n"
	if n, err := fmt.Fprint(w, msg); n != len(msg) || err != nil {
		t.Fatalf("wrote %d of %d bytes: %v", n, len(msg), err)
	}
	if want := "analyze: replay run\\x1b[31m/replay (ページ)\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
