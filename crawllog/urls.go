package crawllog

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
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
// exactly (shortest round-trip form); NaN is empty.
const URLsFile = "urls.csv"

// URLsColumns is URLsFile's header.
var URLsColumns = []string{"url", "page_id", "source", "importance", "originals", "visits", "changes", "delays",
	"h", "x_max", "bins", "empty_bins", "reference", "ks", "verdict"}

// urlsWriter streams dir/URLsFile, one line per URL as it is estimated
// (no URL's line is held).
type urlsWriter struct {
	path string
	f    *os.File
	w    *csv.Writer
	rec  []string
}

func newURLsWriter(dir string) (*urlsWriter, error) {
	path := filepath.Join(dir, URLsFile)
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := &urlsWriter{path: path, f: f, w: csv.NewWriter(f), rec: make([]string, len(URLsColumns))}
	w.w.Write(URLsColumns)
	return w, nil
}

func (w *urlsWriter) add(s *URLSummary) {
	num := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	r := w.rec
	r[0], r[1], r[2], r[3], r[4] = s.URL, strconv.FormatInt(s.PageID, 10), s.Source, num(s.Importance), strconv.Itoa(s.Originals)
	r[5], r[6], r[7], r[8], r[9] = strconv.Itoa(s.Visits), strconv.Itoa(s.Detections), s.Delays, num(s.H), num(s.XMax)
	r[10], r[11], r[12], r[13], r[14] = strconv.Itoa(s.Bins), strconv.Itoa(s.EmptyBins), s.Reference, num(s.KS), s.VerdictText()
	w.w.Write(r) // a write error stays in w.w (close)
}

// close ends the file; abort removes it.
func (w *urlsWriter) close() error {
	w.w.Flush()
	if err := w.w.Error(); err != nil {
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
