package estimates

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/revisit-dev/revisit/estimator"
)

// A row group's grid values grow by doubling up to what the group needs
// and no further: the last row of a group pushed each of x and p to the
// next power of two, 2²¹ values (16 MiB) where 2²⁰ and a few were held
// (a builder grown alone, the reference). The rows the writer reads back
// are those written, across the groups.
func TestWriterValuesCapacity(t *testing.T) {
	name := filepath.Join(t.TempDir(), File)
	w, err := NewWriter(name)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, 1000)
	for i := range x {
		x[i] = float64(i) / 7
	}
	e := estimator.Estimate{Title: "t", Sampler: "exp:2", Method: "M6", Kind: estimator.KindG, Rate: math.NaN()}
	e.CDF.X, e.CDF.P = x, x
	lim := maxGroupValues/2 + groupSlack
	// a column filled as a row group fills it: past half of
	// maxGroupValues by the last row
	own, grown := array.NewFloat64Builder(memory.DefaultAllocator), array.NewFloat64Builder(memory.DefaultAllocator)
	for own.Len() <= maxGroupValues/2 {
		own.AppendValues(x, nil)
		growValues(grown, len(x))
		grown.AppendValues(x, nil)
	}
	if own.Cap() != 2*maxGroupValues/2 || grown.Cap() > lim || grown.Len() != own.Len() {
		t.Errorf("%d values: capacity %d growing alone (want the next power of two, %d), %d with growValues (want ≤ %d)",
			own.Len(), own.Cap(), maxGroupValues, grown.Cap(), lim)
	}
	rows := 3*maxGroupValues/(2*len(x)) + 5 // past two row groups
	for i := range rows {
		e.PageID = int64(i)
		if err := w.Write(&e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	n := 0
	err = Each(filepath.Dir(name), func(r *estimator.Estimate) error {
		if r.PageID != int64(n) || len(r.CDF.X) != len(x) || r.CDF.X[999] != x[999] || r.CDF.P[1] != x[1] {
			t.Fatalf("row %d: page %d, %d values", n, r.PageID, len(r.CDF.X))
		}
		n++
		return nil
	})
	if err != nil || n != rows {
		t.Fatalf("%d rows read of %d: %v", n, rows, err)
	}
}

// A row group is bounded by the bytes of its strings too: rows of 4,000-byte
// titles (URLs used as ids, or a trace's long ids) and short grids end a group
// every maxGroupStringBytes of titles, so that the writer holds no more of
// them. The rows read back are those written.
func TestWriterGroupsBoundedByStringBytes(t *testing.T) {
	name := filepath.Join(t.TempDir(), File)
	w, err := NewWriter(name)
	if err != nil {
		t.Fatal(err)
	}
	rows, size := 12000, 4000
	e := estimator.Estimate{Sampler: "observed const:1", Method: "naive", Kind: estimator.KindG, Rate: 1}
	e.CDF.X, e.CDF.P = []float64{1}, []float64{0.5}
	for i := range rows {
		e.PageID, e.Title = int64(i), fmt.Sprintf("%0*d", size, i)
		if err := w.Write(&e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	pf, err := file.OpenParquetFile(name, false)
	if err != nil {
		t.Fatal(err)
	}
	groups := pf.NumRowGroups()
	pf.Close()
	if want := rows * size / maxGroupStringBytes; groups < want {
		t.Errorf("%d rows of %d-byte titles in %d row groups, want at least %d", rows, size, groups, want)
	}
	n := 0
	err = Each(filepath.Dir(name), func(r *estimator.Estimate) error {
		if r.PageID != int64(n) || r.Title != fmt.Sprintf("%0*d", size, n) {
			t.Fatalf("row %d: page %d", n, r.PageID)
		}
		n++
		return nil
	})
	if err != nil || n != rows {
		t.Fatalf("%d rows read of %d: %v", n, rows, err)
	}
}
