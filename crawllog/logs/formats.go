package logs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/revisit-dev/revisit/series"
)

// Format names.
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

// Format is one observation log format: everything detection, reading,
// writing, the check of a format name and the help text know of it. A
// format is one file (its sniff, begin, parse and write functions) and its
// entry in formatTable.
type Format struct {
	Name string
	// Help is its entry in `revisit estimate --help` (FormatHelp), one
	// string per line; consecutive formats with the same Help share it.
	Help []string
	// Ext is the file name extension Writer's output takes.
	Ext string
	// Ages: every visit carries a Last-Modified time (Observed.Ages), and
	// Writer refuses a URL without them.
	Ages bool
	// Ranges says whether an input of this format can be read by byte
	// ranges (ranges.go).
	Ranges rangeable

	// sniff says how surely the first line of a stream is of this
	// format; detection takes the surest, the first in the table on a tie.
	sniff func(h head) sniffLevel
	// begin sets a stream's state from its first line (a legend, a
	// header); nil: nothing to set.
	begin func(h head, st *lineState) error
	// parse reads one line; on error it returns the reason counted.
	parse func(r *reader, line []byte, st *lineState) (string, error)

	// gzip: Writer compresses the output.
	gzip bool
	// open writes what precedes the first URL, close what follows the
	// last; nil: nothing.
	open, close func(w *Writer)
	// write writes one URL, checked.
	write func(w *Writer, o *series.Observed) error
	// unchangedPrev: the format can say that the crawl before the first
	// visit saw no change (Observed.HasPrev without FirstChanged).
	unchangedPrev bool
}

// rangeable says when a format can be read by byte ranges.
type rangeable uint8

const (
	rangesNever  rangeable = iota
	rangesAlways           // each line is a whole URL (a trace)
	rangesSorted           // with Options.Sorted, cut between urlkeys (CDX, CDXJ)
)

// sniffLevel is how surely a first line is of a format.
type sniffLevel uint8

const (
	sniffNo     sniffLevel = iota
	sniffAny               // any delimited line: the generic logs, tried last
	sniffLikely            // its fields have the format's shape
	sniffSure              // a mark only this format has (a legend, a bracket)
)

// head is the first line of a stream, as the sniffers see it.
type head struct {
	line []byte   // as read
	s    string   // trimmed
	fs   []string // s's fields separated by white space
}

// formatTable lists every format, in the order help texts name them.
var formatTable = []*Format{
	{Name: CDX, Help: []string{"Wayback CDX: urlkey timestamp original mimetype statuscode digest length"},
		Ext: ".cdx", Ranges: rangesSorted, sniff: sniffCDX, begin: beginCDX, parse: (*reader).cdxLine,
		write: writeCaptures(writeCDX)},
	{Name: CDXJSON, Help: []string{"the Wayback CDX server's JSON array of arrays, header row first"},
		Ext: ".cdx.json", sniff: sniffCDXJSON, parse: (*reader).cdxJSONLine,
		open: openCDXJSON, close: closeCDXJSON, write: writeCaptures(writeCDXJSON)},
	{Name: CDXJ, Help: []string{`Common Crawl CDXJ: SURT timestamp {"digest": …, "status": …}`},
		Ext: ".cdxj.gz", Ranges: rangesSorted, sniff: sniffCDXJ, parse: (*reader).cdxjLine,
		gzip: true, write: writeCaptures(writeCDXJ)},
	{Name: CCJSON, Help: []string{"Common Crawl's index server output=json, one object per line"},
		Ext: ".cc.json", sniff: sniffCCJSON, parse: (*reader).cdxjLine,
		write: writeCaptures(writeCCJSON)},
	{Name: Trace, Help: []string{"URL_ID<TAB>first_crawl_offset<TAB>[[days_since_prev_crawl,", "changed], …] (the Bing change trace) or id<TAB>[[…], …]"},
		Ext: ".trace.tsv", Ranges: rangesAlways, sniff: sniffTrace, begin: beginTrace, parse: parseTrace,
		write: writeTrace, unchangedPrev: true},
	logFormat(LogChanged, "changed", false, sniffLog),
	logFormat(LogDigest, "digest", false, nil),
	logFormat(LogLastMod, "last_modified", true, nil),
}

// Formats lists every format name, in the table's order, for help texts.
var Formats = func() []string {
	names := make([]string, len(formatTable))
	for i, f := range formatTable {
		names[i] = f.Name
	}
	return names
}()

// lookup is the format named name, nil if none.
func lookup(name string) *Format {
	for _, f := range formatTable {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// ParseFormat checks a format name ("auto" is accepted by the reader only).
func ParseFormat(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if lookup(s) != nil {
		return s, nil
	}
	return "", fmt.Errorf("unknown observation format %q (want %s)", s, strings.Join(Formats, ", "))
}

// HasAges reports whether a format carries Last-Modified times.
func HasAges(format string) bool {
	f := lookup(format)
	return f != nil && f.Ages
}

// Ext is the file name extension of a format as Writer writes it (".csv"
// for a name not in the table).
func Ext(format string) string {
	if f := lookup(format); f != nil {
		return f.Ext
	}
	return ".csv"
}

// FormatHelp is the formats' part of `revisit estimate --help`: one entry
// per format, or per run of formats with the same help, the names in a
// column of 13 (on a line of their own when longer) and the help beside
// them.
func FormatHelp() string {
	const col = 13
	var b strings.Builder
	for i := 0; i < len(formatTable); {
		j, names := i+1, formatTable[i].Name
		for ; j < len(formatTable) && slices.Equal(formatTable[j].Help, formatTable[i].Help); j++ {
			names += ", " + formatTable[j].Name
		}
		help := formatTable[i].Help
		if len(names) < col {
			fmt.Fprintf(&b, "  %-*s%s\n", col, names, help[0])
			help = help[1:]
		} else {
			fmt.Fprintf(&b, "  %s\n", names)
		}
		for _, l := range help {
			fmt.Fprintf(&b, "  %*s%s\n", col, "", l)
		}
		i = j
	}
	return b.String()
}
