package visits

import (
	"bufio"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/internal/csvout"
	"github.com/revisit-dev/revisit/internal/units"
)

// Writer writes Observed URLs in one format: the observation logs of
// `revisit replay --write-observations`. Digest formats get a digest per
// visit that changes exactly when the page changed (the base-32 SHA-1 of
// the URL and the number of changes seen so far, as Wayback digests are
// base-32 SHA-1s); a URL whose first visit detected its creation
// (HasPrev with FirstChanged) gets a capture that saw no page (status 404,
// or "-" in a generic log) at Prev. Times are written to the second
// (Wayback's 14-digit timestamps, RFC 3339, or whole seconds as days in a
// trace), so reading the log back gives the same Observed.
type Writer struct {
	format string
	bw     *bufio.Writer
	gz     *gzip.Writer
	cw     *csvout.Writer
	rows   int64
	closed bool
}

// NewWriter writes format to w (gzip-compressed for cdxj). Close flushes
// it (and does not close w).
func NewWriter(w io.Writer, format string) (*Writer, error) {
	f, err := ParseFormat(format)
	if err != nil {
		return nil, err
	}
	out := &Writer{format: f}
	if f == CDXJ {
		out.gz = gzip.NewWriter(w)
		w = out.gz
	}
	out.bw = bufio.NewWriterSize(w, 1<<16)
	switch f {
	case CDXJSON:
		out.bw.WriteString(`[["urlkey","timestamp","original","mimetype","statuscode","digest","length"]` + "\n")
	case LogChanged, LogDigest, LogLastMod:
		out.cw = csvout.NewWriter(out.bw)
		col := map[string]string{LogChanged: "changed", LogDigest: "digest", LogLastMod: "last_modified"}[f]
		out.cw.Header("id", "time", col)
	}
	return out, nil
}

// cdxTime is a Wayback timestamp YYYYMMDDhhmmss (UTC).
func cdxTime(t int64) string { return time.Unix(t, 0).UTC().Format("20060102150405") }

func isoTime(t int64) string { return time.Unix(t, 0).UTC().Format(time.RFC3339) }

// digestOf is the written digest of content version k of URL id.
func digestOf(id string, k int) string {
	s := sha1.Sum([]byte(id + "#" + strconv.Itoa(k)))
	return base32.StdEncoding.EncodeToString(s[:])
}

// absentDigest is the digest of an empty body, for captures without a page.
var absentDigest = func() string { s := sha1.Sum(nil); return base32.StdEncoding.EncodeToString(s[:]) }()

// Write writes one URL.
func (w *Writer) Write(o *Observed) error {
	if err := o.Check(); err != nil {
		return fmt.Errorf("observations of %q: %w", o.ID, err)
	}
	if strings.ContainsAny(o.ID, " \t\r\n") {
		return fmt.Errorf("observations of %q: the id holds white space", o.ID)
	}
	if o.HasPrev && !o.FirstChanged && w.format != Trace {
		return fmt.Errorf("observations of %q: an unchanged visit before the first can only be written as a trace", o.ID)
	}
	if w.cw != nil && csvout.Guarded(o.ID) {
		// Guarded (as every CSV revisit writes), the id would not read
		// back as the same.
		return fmt.Errorf("observations of %q: an id starting with %q cannot be written to a CSV log (a spreadsheet reads it as a formula)", o.ID, o.ID[:1])
	}
	if w.format == LogLastMod && !o.Ages {
		return fmt.Errorf("observations of %q: %s needs Last-Modified times", o.ID, w.format)
	}
	url := "https://" + o.ID
	k := 0 // content version
	switch w.format {
	case CDX, CDXJSON, CDXJ, CCJSON:
		line := func(t int64, status, digest string) {
			switch w.format {
			case CDX:
				fmt.Fprintf(w.bw, "%s %s %s text/html %s %s 1000\n", o.ID, cdxTime(t), url, status, digest)
			case CDXJSON:
				b, _ := json.Marshal([]string{o.ID, cdxTime(t), url, "text/html", status, digest, "1000"})
				w.bw.WriteString(",")
				w.bw.Write(b)
				w.bw.WriteString("\n")
			case CCJSON:
				b, _ := json.Marshal(struct {
					URLKey    string `json:"urlkey"`
					Timestamp string `json:"timestamp"`
					URL       string `json:"url"`
					Mime      string `json:"mime"`
					Status    string `json:"status"`
					Digest    string `json:"digest"`
					Length    string `json:"length"`
				}{o.ID, cdxTime(t), url, "text/html", status, digest, "1000"})
				w.bw.Write(b)
				w.bw.WriteString("\n")
			case CDXJ:
				b, _ := json.Marshal(struct {
					URL    string `json:"url"`
					Mime   string `json:"mime"`
					Status string `json:"status"`
					Digest string `json:"digest"`
					Length string `json:"length"`
				}{url, "text/html", status, digest, "1000"})
				fmt.Fprintf(w.bw, "%s %s %s\n", o.ID, cdxTime(t), b)
			}
			w.rows++
		}
		if o.HasPrev {
			line(o.Prev, "404", absentDigest)
		}
		for j, v := range o.Visits {
			if j > 0 && o.Q(j) {
				k++
			}
			line(v.T, "200", digestOf(o.ID, k))
		}
	case Trace:
		if !o.HasPrev {
			return fmt.Errorf("observations of %q: a trace needs the crawl before the first visit (HasPrev)", o.ID)
		}
		w.bw.WriteString(o.ID)
		w.bw.WriteString("\t[")
		prev := o.Prev
		for j, v := range o.Visits {
			if j > 0 {
				w.bw.WriteByte(',')
			}
			c := 0
			if o.Q(j) {
				c = 1
			}
			fmt.Fprintf(w.bw, "[%s,%d]", strconv.FormatFloat(float64(v.T-prev)/units.Day, 'g', -1, 64), c)
			prev = v.T
		}
		w.bw.WriteString("]\n")
		w.rows++
	default:
		if o.HasPrev {
			w.cw.Text(o.ID)
			w.cw.Value(isoTime(o.Prev))
			w.cw.Value("-") // no page seen
			w.cw.End()
		}
		for j, v := range o.Visits {
			var val string
			switch w.format {
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
		if err := w.cw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// Close ends the log (the closing bracket of cdx-json, the gzip trailer
// of cdxj) and flushes it.
func (w *Writer) Close() error {
	if w.closed {
		return errors.New("observation writer closed twice")
	}
	w.closed = true
	if w.format == CDXJSON {
		w.bw.WriteString("]\n")
	}
	err := w.bw.Flush()
	if w.gz != nil {
		if cerr := w.gz.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
