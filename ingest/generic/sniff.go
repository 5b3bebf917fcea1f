package generic

import (
	"bytes"
	"encoding/csv"

	"github.com/revisit-dev/revisit/ingest/generic/jsonscan"
)

// Sniff reports whether head, the first bytes of a decompressed input,
// looks like a generic log this package reads (SniffFormat is not "").
// Yelp files are JSON lines too: ask yelp.Sniff first.
func Sniff(head []byte) bool { return SniffFormat(head) != "" }

// SniffFormat guesses the format of a generic log from its first bytes:
// "jsonkeys" for a JSON object whose first key is a timestamp, "jsonl" for a
// first line that is a JSON object or array, "tsv" or "csv" for a first line
// of at least two tab- or comma-separated fields, "" otherwise (binary data
// — a NUL byte in the first line —, XML, a single column).
func SniffFormat(head []byte) string {
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	t := bytes.TrimLeft(head, " \t\r\n")
	if len(t) == 0 {
		return ""
	}
	first := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		first = t[:i]
	}
	if bytes.IndexByte(first, 0) >= 0 {
		// Binary data or UTF-16 text. A NUL further on is a bad byte in
		// one record, which the reader reports with its line.
		return ""
	}
	switch t[0] {
	case '{':
		var firstKey []byte
		seen := false
		errStop := errSniffStop{}
		_ = jsonscan.Members(t, func(key []byte, v jsonscan.Value) error {
			firstKey, seen = key, true
			return errStop
		})
		if !seen {
			// The first value may be cut by the end of head; the key is
			// still readable.
			firstKey, seen = firstKeyOf(t)
		}
		if seen {
			if _, _, _, err := ParseISO(firstKey); err == nil {
				return FormatJSONKeys
			}
		}
		if jsonscan.Valid(first) || cutLine(t, first) {
			return FormatJSONL
		}
		return ""
	case '[':
		if jsonscan.Valid(first) || cutLine(t, first) {
			return FormatJSONL
		}
		return ""
	case '<':
		return ""
	}
	if bytes.IndexByte(first, '\t') >= 0 {
		return FormatTSV
	}
	cr := csv.NewReader(bytes.NewReader(first))
	if rec, err := cr.Read(); err == nil && len(rec) >= 2 {
		return FormatCSV
	}
	return ""
}

type errSniffStop struct{}

func (errSniffStop) Error() string { return "stop" }

// firstKeyOf reads the first key of an object that may be truncated after
// it: '{', whitespace, a string.
func firstKeyOf(t []byte) ([]byte, bool) {
	t = bytes.TrimLeft(t[1:], " \t\r\n")
	if len(t) == 0 || t[0] != '"' {
		return nil, false
	}
	end := bytes.IndexByte(t[1:], '"')
	if end < 0 {
		return nil, false
	}
	return t[1 : 1+end], true
}

// cutLine reports whether the first line runs to the end of a long head, so
// that it cannot be validated whole.
func cutLine(t, first []byte) bool { return len(first) == len(t) && len(t) >= 4096 }
