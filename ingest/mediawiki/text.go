package mediawiki

import (
	"bytes"
	"errors"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/revisit-dev/revisit/internal/units"
)

// parseTimestamp reads a revision timestamp, "2001-01-21T02:12:21Z" in every
// dump, into Unix seconds (UTC, 1-second resolution). The fixed layout is
// decoded by hand; anything else is tried as RFC 3339 with an offset.
func parseTimestamp(b []byte) (int64, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 20 && b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' && b[16] == ':' && b[19] == 'Z' {
		y, ok1 := digits(b[0:4])
		mo, ok2 := digits(b[5:7])
		d, ok3 := digits(b[8:10])
		h, ok4 := digits(b[11:13])
		mi, ok5 := digits(b[14:16])
		s, ok6 := digits(b[17:19])
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && mo >= 1 && mo <= 12 && d >= 1 && int64(d) <= units.DaysIn(int64(y), int64(mo)) && h < 24 && mi < 60 && s < 60 {
			return units.DaysFromCivil(int64(y), int64(mo), int64(d))*units.Day + int64(h*3600+mi*60+s), nil
		}
		return 0, errors.New("bad timestamp " + strconv.Quote(string(b)))
	}
	t, err := time.Parse(time.RFC3339, string(b))
	if err != nil {
		return 0, errors.New("bad timestamp " + strconv.Quote(string(b)))
	}
	return t.Unix(), nil
}

func digits(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseInt reads a decimal integer (optionally negative) with surrounding
// white space: any int64, from −9223372036854775808 to 9223372036854775807.
func parseInt(b []byte) (int64, bool) {
	b = bytes.TrimSpace(b)
	if len(b) > 18 {
		// Beyond what 18 digits can overflow: let strconv check the range.
		n, err := strconv.ParseInt(string(b), 10, 64)
		return n, err == nil && b[0] != '+'
	}
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// xmlChar reports whether r is a character XML 1.0 allows (its Char
// production): tab, newline, carriage return, and U+0020–U+D7FF,
// U+E000–U+FFFD, U+10000–U+10FFFF; &#0; and other control characters are
// not.
func xmlChar(r uint64) bool {
	return r == 0x9 || r == 0xA || r == 0xD || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// unescape decodes the XML entities MediaWiki writes in titles and names:
// &amp; &lt; &gt; &quot; &apos; and numeric &#NNN; / &#xHH;. An unknown or
// malformed entity is an error.
func unescape(b []byte) (string, error) {
	if bytes.IndexByte(b, '&') < 0 {
		return string(b), nil
	}
	v, err := appendUnescaped(make([]byte, 0, len(b)), b)
	return string(v), err
}

// appendUnescaped appends b with its entities decoded (as unescape) to
// dst.
func appendUnescaped(dst, b []byte) ([]byte, error) {
	i := bytes.IndexByte(b, '&')
	for i >= 0 {
		dst = append(dst, b[:i]...)
		b = b[i:]
		semi := bytes.IndexByte(b, ';')
		if semi < 0 || semi > 12 {
			return nil, errors.New("unterminated entity in " + strconv.Quote(string(b)))
		}
		ent := b[1:semi]
		if c, ok := predefinedEntity(ent); ok {
			dst = append(dst, c)
		} else {
			if len(ent) < 2 || ent[0] != '#' {
				return nil, errors.New("unknown entity &" + string(ent) + ";")
			}
			var r uint64
			var err error
			if ent[1] == 'x' || ent[1] == 'X' {
				r, err = strconv.ParseUint(string(ent[2:]), 16, 32)
			} else {
				r, err = strconv.ParseUint(string(ent[1:]), 10, 32)
			}
			if err != nil || !xmlChar(r) {
				return nil, errors.New("bad character reference &" + string(ent) + ";")
			}
			dst = utf8.AppendRune(dst, rune(r))
		}
		b = b[semi+1:]
		i = bytes.IndexByte(b, '&')
	}
	return append(dst, b...), nil
}

// predefinedEntity is the character of one of XML's five predefined
// entities (&amp; &lt; &gt; &quot; &apos;), given its name.
func predefinedEntity(name []byte) (byte, bool) {
	switch string(name) {
	case "amp":
		return '&', true
	case "lt":
		return '<', true
	case "gt":
		return '>', true
	case "quot":
		return '"', true
	case "apos":
		return '\'', true
	}
	return 0, false
}
