package dataset

import (
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

// benchDataset writes 20,000 pages of 100 updates each in 4 parts.
func benchDataset(b *testing.B) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "ds")
	w, err := CreateParts(dir, 4)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 20_000 {
		u := make([]int64, 100)
		for j := range u {
			u[j] = 1_000_000_000 + int64(j)*3_600 + int64(i%3_600)
		}
		if err := w.Write(&series.Page{ID: int64(i + 1), Source: "bench", Title: "Page", Resolution: 1, Updates: u}); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(nil); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkEach and BenchmarkEachHead: a pass over every page against a
// pass over ids, titles and update counts (replay's --full-curves
// ranking, schedule's naming pass).
func BenchmarkEach(b *testing.B) {
	dir := benchDataset(b)
	for b.Loop() {
		r, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Each(func(*series.Page) error { return nil }); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Stats().Bytes), "bytes-read")
	}
}

func BenchmarkEachHead(b *testing.B) {
	dir := benchDataset(b)
	for b.Loop() {
		r, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.EachHead(func(PageHead) error { return nil }); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Stats().Bytes), "bytes-read")
	}
}
