package crawllog

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/revisit-dev/revisit/internal/csvout"
)

// URLsFile is the per-URL table of an estimate output: one line per URL
// estimated, in the order of estimates.parquet (join on page_id), with
// what the parquet's rows do not hold — the URL's grid and its empty bins,
// what the reader knew of it (the Bing trace's id and importance score,
// the original URLs its SURT key grouped) — and its report line.
//
// Columns (URLsColumns): url, page_id; source (the id in the log when a
// companion file gave the URL, else empty); importance (the Bing trace's
// urlid_imp.txt score, empty without one); originals (distinct original
// URLs grouped under the SURT key when more than one, else 0); visits,
// changes (detections), delays ("constant" or "irregular"); h, x_max
// (in the estimate's unit, estimate.json's unit_name); bins, empty_bins
// (the grid's bins y_1 … y_N and those without a pair of visits, M6's
// W(y_n) = 0); reference (M2, M4 or M6), ks, verdict. Floats print
// exactly (shortest round-trip form); NaN is empty; text cells (the URL,
// source) are csvout's, guarded against formula evaluation.
const URLsFile = "urls.csv"

// URLsColumns is URLsFile's header.
var URLsColumns = []string{"url", "page_id", "source", "importance", "originals", "visits", "changes", "delays",
	"h", "x_max", "bins", "empty_bins", "reference", "ks", "verdict"}

// urlsWriter streams dir/URLsFile, one line per URL as it is estimated
// (no URL's line is held).
type urlsWriter struct {
	path string
	f    *os.File
	w    *csvout.Writer
}

func newURLsWriter(dir string) (*urlsWriter, error) {
	path := filepath.Join(dir, URLsFile)
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := &urlsWriter{path: path, f: f, w: csvout.NewWriter(f)}
	w.w.Header(URLsColumns...)
	return w, nil
}

func (w *urlsWriter) add(s *URLSummary) {
	c := w.w
	c.Text(s.URL)
	c.Int(s.PageID)
	c.Text(s.Source)
	c.Float(s.Importance)
	c.Int(int64(s.Originals))
	c.Int(int64(s.Visits))
	c.Int(int64(s.Detections))
	c.Text(s.Delays)
	c.Float(s.H)
	c.Float(s.XMax)
	c.Int(int64(s.Bins))
	c.Int(int64(s.EmptyBins))
	c.Text(s.Reference)
	c.Float(s.KS)
	c.Text(s.VerdictText())
	c.End() // a write error stays in w.w (close)
}

// close ends the file; abort removes it.
func (w *urlsWriter) close() error {
	if err := w.w.Flush(); err != nil {
		w.f.Close()
		return fmt.Errorf("%s: %w", w.path, err)
	}
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("%s: %w", w.path, err)
	}
	return nil
}

// emptyShare is empty/bins (0 without bins: JSON has no NaN).
func emptyShare(bins, empty int64) float64 {
	if bins == 0 {
		return 0
	}
	return float64(empty) / float64(bins)
}
