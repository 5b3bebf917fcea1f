package logs

import (
	"fmt"
	"slices"
	"strings"
)

// Formats.
const (
	CDX        = "cdx"
	CDXJSON    = "cdx-json"
	CDXJ       = "cdxj"
	CCJSON     = "cc-json"
	Trace      = "trace"
	LogChanged = "log-changed"
	LogDigest  = "log-digest"
	LogLastMod = "log-lastmod"
)

// Formats lists every format name, for help texts.
var Formats = []string{CDX, CDXJSON, CDXJ, CCJSON, Trace, LogChanged, LogDigest, LogLastMod}

// ParseFormat checks a format name ("auto" is accepted by the reader only).
func ParseFormat(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if slices.Contains(Formats, s) {
		return s, nil
	}
	return "", fmt.Errorf("unknown observation format %q (want %s)", s, strings.Join(Formats, ", "))
}

// HasAges reports whether a format carries Last-Modified times.
func HasAges(format string) bool { return format == LogLastMod }

// Ext is the file name extension of a format as Writer writes it.
func Ext(format string) string {
	switch format {
	case CDX:
		return ".cdx"
	case CDXJSON:
		return ".cdx.json"
	case CDXJ:
		return ".cdxj.gz"
	case CCJSON:
		return ".cc.json"
	case Trace:
		return ".trace.tsv"
	default:
		return ".csv"
	}
}
