package estimates

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/series"
)

// The estimates file stores whether each row's sampler has constant
// delays, so readers (analysis) need not parse sampler specs; files
// written before the column get it from the spec.
func TestEstimatesConstantColumn(t *testing.T) {
	dir := t.TempDir()
	w, err := NewWriter(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	rows := []estimator.Estimate{
		{PageID: 1, Sampler: "const:0.05x", Method: estimator.MethodM4, Kind: estimator.KindG, CDF: series.CDF{X: []float64{0, 1}, P: []float64{0, 1}}, Rate: math.NaN(), Constant: true},
		{PageID: 1, Sampler: "exp:20x", Method: estimator.MethodM6, Kind: estimator.KindG, CDF: series.CDF{X: []float64{0, 1}, P: []float64{0, 1}}, Rate: math.NaN()},
	}
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var got []bool
	if err := Each(dir, func(e *estimator.Estimate) error { got = append(got, e.Constant); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got[0] || got[1] {
		t.Fatalf("constant column read back as %v, want [true false]", got)
	}

	// A 12-column file (before the column): derived from the spec.
	old := arrow.NewSchema(estimateSchema.Fields()[:legacyColumns], nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, old)
	defer b.Release()
	for _, spec := range []string{"const:0.05x", "exp:20x", "observed const:2", "observed irregular"} {
		appendOlderRow(b, spec)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	legacyDir := writeOlderFile(t, old, rec)
	got = nil
	if err := Each(legacyDir, func(e *estimator.Estimate) error { got = append(got, e.Constant); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, false, true, false}; len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Fatalf("legacy file: constant %v, want %v", got, want)
	}
}
