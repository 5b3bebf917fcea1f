package logs

// Generic visit logs (log-changed, log-digest, log-last-modified): one
// line id, time, value under a header naming the columns. The three are
// one reader and one writer: the header's value column says which.

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/internal/csvout"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// logHelp is the help of the three generic logs (FormatHelp shows it once).
var logHelp = []string{"CSV/TSV with a header: id, time and one of changed, digest,", "last_modified (times: epoch seconds, RFC 3339, HTTP dates)"}

// logFormat is the table entry of the generic log whose value column is
// col; sniff is set on one of them only, since the header, read by
// beginLog, tells them apart.
func logFormat(name, col string, ages bool, sniff func(head) sniffLevel) *Format {
	return &Format{Name: name, Help: logHelp, Ext: ".csv", Ages: ages, sniff: sniff, begin: beginLog, parse: (*reader).logLine,
		open: func(w *Writer) {
			w.cw = csvout.NewWriter(w.bw)
			w.cw.Header("id", "time", col)
		},
		write: writeLog}
}

// sniffLog: any line with a comma or a tab may be a generic log's header.
func sniffLog(h head) sniffLevel {
	if strings.ContainsAny(h.s, ",\t") {
		return sniffAny
	}
	return sniffNo
}

// beginLog reads the header: its delimiter, the id, time and value
// columns, and from the value column's name which of the logs it is.
func beginLog(h head, st *lineState) error {
	s := h.s
	st.comma = ','
	if strings.Contains(s, "\t") {
		st.comma = '\t'
	}
	st.cols = map[string]int{}
	for i, c := range splitFields(s, st.comma) {
		c = strings.ToLower(strings.TrimSpace(c))
		switch c {
		case "id", "url", "urlkey", "page", "page_id":
			st.cols["id"] = i
		case "time", "timestamp", "visit_time", "crawl_time":
			st.cols["time"] = i
		case "changed", "change", "q":
			st.cols["value"], st.format = i, LogChanged
		case "digest", "hash", "checksum":
			st.cols["value"], st.format = i, LogDigest
		case "last_modified", "last-modified", "lastmod":
			st.cols["value"], st.format = i, LogLastMod
		}
	}
	for _, c := range []string{"id", "time", "value"} {
		if _, ok := st.cols[c]; !ok {
			return fmt.Errorf("visit log header %.80q has no %s column (want id, time and one of changed, digest, last_modified)", s, c)
		}
	}
	st.header = true
	return nil
}

// writeLog writes one URL's visits as rows id, time, value: the changed
// bit, a digest that changes exactly when the page did, or the
// Last-Modified time; a crawl before the first visit that saw no page is
// a row with "-".
func writeLog(w *Writer, o *series.Observed) error {
	if o.HasPrev {
		w.cw.Text(o.ID)
		w.cw.Value(isoTime(o.Prev))
		w.cw.Value("-") // no page seen
		w.cw.End()
	}
	k := 0 // content version
	for j, v := range o.Visits {
		var val string
		switch w.f.Name {
		case LogChanged:
			val = "0"
			if o.Q(j) {
				val = "1"
			}
		case LogDigest:
			if j > 0 && o.Q(j) {
				k++
			}
			val = digestOf(o.ID, k)
		case LogLastMod:
			val = isoTime(v.LastMod)
		}
		w.cw.Text(o.ID)
		w.cw.Value(isoTime(v.T))
		w.cw.Value(val)
		w.cw.End()
		w.rows++
	}
	return w.cw.Flush()
}

// logTime reads a generic log's time: epoch seconds, RFC 3339 /
// YYYY-MM-DD[ HH:MM:SS], or an HTTP date (Last-Modified headers).
func logTime(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	// units.ParseISO, not generic.ParseISO: its wrapped error would be
	// built and dropped on every line with an HTTP date
	if sec, _, _, err := units.ParseISO([]byte(s)); err == nil {
		return sec, nil
	}
	if t, err := http.ParseTime(s); err == nil {
		return t.Unix(), nil
	}
	return 0, fmt.Errorf("time %q: want epoch seconds, RFC 3339 or an HTTP date", s)
}

func (r *reader) logLine(line []byte, st *lineState) (string, error) {
	fs := splitFields(strings.TrimRight(string(line), "\r"), st.comma)
	need := max(st.cols["id"], st.cols["time"], st.cols["value"])
	if len(fs) <= need {
		return "fields", fmt.Errorf("%d fields, want at least %d", len(fs), need+1)
	}
	id := strings.TrimSpace(fs[st.cols["id"]])
	if id == "" {
		return "fields", errors.New("empty id")
	}
	t, err := logTime(fs[st.cols["time"]])
	if err != nil {
		return "timestamp", err
	}
	val := strings.TrimSpace(fs[st.cols["value"]])
	kind := map[string]uint8{LogChanged: kindChanged, LogDigest: kindDigest, LogLastMod: kindLastMod}[st.format]
	rc := rec{t: t, kind: kind}
	switch {
	case val == "" || val == "-":
		rc.flags = fAbsent
	case kind == kindDigest:
		rc.v = fnv64(val)
	case kind == kindChanged:
		switch strings.ToLower(val) {
		case "1", "true", "yes":
			rc.v = 1
		case "0", "false", "no":
		default:
			return "fields", fmt.Errorf("changed %q is not 0, 1, true or false", val)
		}
	default:
		lm, err := logTime(val)
		if err != nil {
			return "last_modified", fmt.Errorf("last_modified: %v", err)
		}
		if lm > t {
			return "last_modified", fmt.Errorf("last_modified %s is after the visit at %s", val, fs[st.cols["time"]])
		}
		rc.v = uint64(lm)
	}
	return r.add(id, rc)
}
