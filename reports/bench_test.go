package reports

import (
	"io"
	"math"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

// bigTable is a per-page table as analysis writes it: 10,000 rows.
func bigTable() tables.Table {
	t := corpusTable()
	t.Rows = nil
	for i := 0; i < 10000; i++ {
		t.Rows = append(t.Rows, []any{"page", int64(i * 37), float64(i) / 1e4, int64(i) << 20, float64(i) * 3600, int64(1002831527 + i), math.Sqrt(float64(i))})
	}
	return t
}

func BenchmarkSVGTail5000(b *testing.B) {
	f := sampleFigures()[0] // 5,000-point step curve plus two fits, log-log
	for b.Loop() {
		if _, _, err := SVG(&f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarkdown10kRows(b *testing.B) {
	t := bigTable()
	for b.Loop() {
		WriteMarkdown(io.Discard, &t)
	}
	b.ReportMetric(float64(len(t.Rows))*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkCSV10kRows(b *testing.B) {
	t := bigTable()
	for b.Loop() {
		WriteCSV(io.Discard, &t)
	}
	b.ReportMetric(float64(len(t.Rows))*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkWriteSample is a whole report directory of the sample bundle
// (2 tables, 6 figures) with the big table added.
func BenchmarkWriteSample(b *testing.B) {
	bd := sampleBundle()
	bd.Tables = append(bd.Tables, bigTable())
	bd.Tables[len(bd.Tables)-1].ID = "big"
	dir := b.TempDir()
	for b.Loop() {
		if err := Write(bd, filepath.Join(dir, "r"), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
