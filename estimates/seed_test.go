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

// The seed and second-range error columns round-trip; a file written
// before them (18 columns, ending with compact) reads seed 0 and
// ErrMean nil, its other columns as written.
func TestSeedColumns(t *testing.T) {
	dir := t.TempDir()
	w, err := NewWriter(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	e1 := estimator.Error{WMRD: 0.125, KS: 0.0625, Points: 91, XMax: 4.5}
	m1 := estimator.Error{WMRD: 0.25, KS: 0.5, XMax: 2}
	row := estimator.Estimate{PageID: 1, Sampler: "exp:2", Method: estimator.MethodM6, Kind: estimator.KindG, CDF: series.CDF{X: []float64{0, 1}, P: []float64{0, 1}},
		Rate: math.NaN(), Err: &e1, ErrMean: &m1, Seed: 7, Compact: true}
	if err := w.Write(&row); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var got []estimator.Estimate
	if err := Each(dir, func(e *estimator.Estimate) error { got = append(got, *e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Seed != 7 || got[0].ErrMean == nil || *got[0].ErrMean != m1 || *got[0].Err != e1 {
		t.Fatalf("row read back as %+v (ErrMean %+v)", got[0], got[0].ErrMean)
	}

	old := arrow.NewSchema(estimateSchema.Fields()[:compactColumns], nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, old)
	defer b.Release()
	appendOlderRow(b, "exp:2")
	b.Field(ecConstant).(*array.BooleanBuilder).Append(false)
	b.Field(ecWMRD).(*array.Float64Builder).Append(0.5)
	b.Field(ecKS).(*array.Float64Builder).Append(0.25)
	b.Field(ecErrPoints).(*array.Int64Builder).Append(3)
	b.Field(ecErrXMax).(*array.Float64Builder).Append(9)
	b.Field(ecCompact).(*array.BooleanBuilder).Append(true)
	rec := b.NewRecordBatch()
	defer rec.Release()
	oldDir := writeOlderFile(t, old, rec)
	got = nil
	if err := Each(oldDir, func(e *estimator.Estimate) error { got = append(got, *e); return nil }); err != nil {
		t.Fatal(err)
	}
	want := estimator.Error{WMRD: 0.5, KS: 0.25, Points: 3, XMax: 9}
	if len(got) != 1 || got[0].Seed != 0 || got[0].ErrMean != nil || got[0].Err == nil || *got[0].Err != want || !got[0].Compact {
		t.Fatalf("18-column file read back as %+v", got)
	}
}
