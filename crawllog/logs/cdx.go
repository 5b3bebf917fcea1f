package logs

// CDX files (space-separated, with or without the " CDX …" legend line):
// the legend, the default layout and the reading of one line.

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// sniffCDX: a legend line is sure; six fields or more with a numeric
// second (the timestamp) and a third that is no JSON object (a CDXJ line
// has its JSON there) are likely.
func sniffCDX(h head) sniffLevel {
	switch {
	case strings.HasPrefix(h.s, "CDX ") || strings.HasPrefix(string(h.line), " CDX"):
		return sniffSure
	case len(h.fs) >= 6 && isDigits(h.fs[1]) && !strings.HasPrefix(h.fs[2], "{"):
		return sniffLikely
	}
	return sniffNo
}

// beginCDX reads the legend, when the first line is one.
func beginCDX(h head, st *lineState) error {
	if !isLegend(h.line) {
		return nil
	}
	if err := cdxLegend(h.s, st); err != nil {
		return err // a bad legend: the lines after it are read with the default layout
	}
	st.header = true
	return nil
}

// writeCDX writes one capture as a 7-field CDX line.
func writeCDX(bw *bufio.Writer, c outCapture) {
	fmt.Fprintf(bw, "%s %s %s text/html %s %s 1000\n", c.id, cdxTime(c.t), c.url, c.status, c.digest)
}

// cdxLegendFields are the legend letters revisit reads (the IIPC CDX
// format): N the massaged URL (SURT urlkey), b the timestamp, a the
// original URL, m the MIME type, s the status, k the digest.
var cdxLegendFields = map[string]string{"N": "urlkey", "b": "timestamp", "a": "original", "m": "mimetype", "s": "statuscode", "k": "digest"}

// isLegend: " CDX N b a …" (the first byte is the delimiter) or "CDX …".
func isLegend(line []byte) bool {
	return bytes.HasPrefix(line, []byte(" CDX ")) || bytes.HasPrefix(line, []byte("CDX "))
}

// cdxLegend sets st's columns and field count from a legend line: every
// later line must have exactly its fields (the classic 11-field
// "N b a m s k r M S V g", the older 9-field "N b a m s k r V g", …).
func cdxLegend(s string, st *lineState) error {
	letters := strings.Fields(s)[1:]
	cols := map[string]int{}
	for i, c := range letters {
		if name, ok := cdxLegendFields[c]; ok {
			cols[name] = i
		}
	}
	for _, c := range []string{"urlkey", "timestamp", "digest"} {
		if _, ok := cols[c]; !ok {
			return fmt.Errorf("CDX legend %q has no %s column", s, c)
		}
	}
	st.cols, st.nf = cols, len(letters)
	return nil
}

// cdxDefault is the layout of a CDX file without a legend: the Wayback CDX
// server's default "urlkey timestamp original mimetype statuscode digest
// length" (7 fields) or the 9- and 11-field index lines, which begin with
// the same six.
var cdxDefault = map[string]int{"urlkey": 0, "timestamp": 1, "original": 2, "mimetype": 3, "statuscode": 4, "digest": 5}

// cdxLine reads one line of a CDX file: a capture, a legend further down
// (concatenated files) or the pagination footer's resume key.
func (r *reader) cdxLine(line []byte, st *lineState) (string, error) {
	if isLegend(line) { // a legend further down (concatenated files)
		if r.rng != nil && strings.TrimSpace(string(line)) != r.legend {
			// the shards after it take the layout of the first line
			r.fnErr = fmt.Errorf("observations %s %s: a CDX legend other than the file's first line: shards of byte ranges cannot read a file whose layout changes (give --shard-by hash)", r.name, r.where())
			return "", nil
		}
		if err := cdxLegend(strings.TrimSpace(string(line)), st); err != nil {
			return "legend", err
		}
		return "", nil
	}
	fs := strings.Fields(string(line))
	if len(fs) == 1 && st.blank { // the pagination footer: "", then the resume key
		r.in.ResumeKeys++
		return "", nil
	}
	if st.nf == 0 {
		if len(fs) != 7 && len(fs) != 9 && len(fs) != 11 {
			return "fields", fmt.Errorf("%d fields: a CDX line without a legend has 7 (urlkey timestamp original mimetype statuscode digest length), 9 or 11; give the \" CDX …\" legend line", len(fs))
		}
		st.cols, st.nf = cdxDefault, len(fs)
	}
	if len(fs) != st.nf {
		return "fields", fmt.Errorf("%d fields, the CDX legend (or first line) has %d", len(fs), st.nf)
	}
	get := func(c string) string {
		if i, ok := st.cols[c]; ok {
			return fs[i]
		}
		return ""
	}
	return r.capture(get("urlkey"), get("timestamp"), get("statuscode"), get("digest"), get("mimetype"), get("original"))
}
