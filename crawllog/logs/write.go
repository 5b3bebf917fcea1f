package logs

import (
	"bufio"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/internal/csvout"
	"github.com/revisit-dev/revisit/series"
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
	f      *Format
	bw     *bufio.Writer
	gz     *gzip.Writer
	cw     *csvout.Writer // the generic logs
	rows   int64
	closed bool
}

// NewWriter writes format to w (gzip-compressed for cdxj). Close flushes
// it (and does not close w).
func NewWriter(w io.Writer, format string) (*Writer, error) {
	name, err := ParseFormat(format)
	if err != nil {
		return nil, err
	}
	out := &Writer{f: lookup(name)}
	if out.f.gzip {
		out.gz = gzip.NewWriter(w)
		w = out.gz
	}
	out.bw = bufio.NewWriterSize(w, 1<<16)
	if out.f.open != nil {
		out.f.open(out)
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

// outCapture is one capture of a CDX-family log as Writer writes it.
type outCapture struct {
	id, url        string
	t              int64
	status, digest string
}

// writeCaptures is the write of a CDX-family format that writes each capture
// with line: a capture that saw no page (404) at Prev when the first visit
// detected the page's creation, then each visit with content (200) with a
// digest that changes exactly when the page did.
func writeCaptures(line func(*bufio.Writer, outCapture)) func(*Writer, *series.Observed) error {
	return func(w *Writer, o *series.Observed) error {
		c := outCapture{id: o.ID, url: "https://" + o.ID}
		if o.HasPrev {
			c.t, c.status, c.digest = o.Prev, "404", absentDigest
			line(w.bw, c)
			w.rows++
		}
		k := 0 // content version
		for j, v := range o.Visits {
			if j > 0 && o.Q(j) {
				k++
			}
			c.t, c.status, c.digest = v.T, "200", digestOf(o.ID, k)
			line(w.bw, c)
			w.rows++
		}
		return nil
	}
}

// Write writes one URL.
func (w *Writer) Write(o *series.Observed) error {
	if err := o.Check(); err != nil {
		return fmt.Errorf("observations of %q: %w", o.ID, err)
	}
	if strings.ContainsAny(o.ID, " \t\r\n") {
		return fmt.Errorf("observations of %q: the id holds white space", o.ID)
	}
	if o.HasPrev && !o.FirstChanged && !w.f.unchangedPrev {
		return fmt.Errorf("observations of %q: an unchanged visit before the first can only be written as a trace", o.ID)
	}
	if w.cw != nil && csvout.Guarded(o.ID) {
		// Guarded (as every CSV revisit writes), the id would not read
		// back as the same.
		return fmt.Errorf("observations of %q: an id starting with %q cannot be written to a CSV log (a spreadsheet reads it as a formula)", o.ID, o.ID[:1])
	}
	if w.f.Ages && !o.Ages {
		return fmt.Errorf("observations of %q: %s needs Last-Modified times", o.ID, w.f.Name)
	}
	return w.f.write(w, o)
}

// Close ends the log (the closing bracket of cdx-json, the gzip trailer
// of cdxj) and flushes it.
func (w *Writer) Close() error {
	if w.closed {
		return errors.New("observation writer closed twice")
	}
	w.closed = true
	if w.f.close != nil {
		w.f.close(w)
	}
	err := w.bw.Flush()
	if w.gz != nil {
		if cerr := w.gz.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
