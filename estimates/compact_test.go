package estimates

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/series"
)

// KnotIndices by hand: n = 100, k = 5 gives 0, then round(100^{j/3}) for
// j = 0, 1, 2 (1, 4.64 → 5, 21.54 → 22) and n; a short grid is kept
// whole; where log spacing repeats an index the next one is taken.
func TestKnotIndices(t *testing.T) {
	for _, c := range []struct {
		points, k int
		want      []int
	}{
		{101, 5, []int{0, 1, 5, 22, 100}},
		{5, 32, []int{0, 1, 2, 3, 4}},
		{6, 6, []int{0, 1, 2, 3, 4, 5}},
		// n = 10, k = 6: round(10^{j/4}) = 1, 2 (1.78), 3 (3.16), 6 (5.62), then 10
		{11, 6, []int{0, 1, 2, 3, 6, 10}},
		// n = 7, k = 7: 1, 1.48 → 1 → 2 (next), 2.18 → 2 → 3, 3.24 → 3 → 4, 4.8 → 5, 7
		{8, 7, []int{0, 1, 2, 3, 4, 5, 7}},
	} {
		if got := KnotIndices(c.points, c.k); !reflect.DeepEqual(got, c.want) {
			t.Errorf("KnotIndices(%d, %d) = %v, want %v", c.points, c.k, got, c.want)
		}
	}
	for points := 1; points < 3000; points += 7 {
		idx := KnotIndices(points, Knots)
		if len(idx) != min(points, Knots) || idx[0] != 0 || idx[len(idx)-1] != points-1 {
			t.Fatalf("KnotIndices(%d): %v", points, idx)
		}
		for i := 1; i < len(idx); i++ {
			if idx[i] <= idx[i-1] {
				t.Fatalf("KnotIndices(%d): not ascending: %v", points, idx)
			}
		}
	}
}

// Compact keeps the values at the knots rounded to Quantum, leaves rows
// without a curve or with a short grid as they are.
func TestCompact(t *testing.T) {
	x, p := make([]float64, 101), make([]float64, 101)
	for i := range x {
		x[i] = 0.5 * float64(i)
		p[i] = 1 - math.Exp(-x[i]/7)
	}
	est := []estimator.Estimate{
		{Method: estimator.MethodM2, Kind: estimator.KindG, CDF: series.CDF{X: x, P: p}},
		{Method: estimator.MethodPoissonMLE, Kind: estimator.KindG, Rate: 0.2},
		{Method: estimator.MethodM4, Kind: estimator.KindG, CDF: series.CDF{X: []float64{0, 1}, P: []float64{0, 0.3}}},
	}
	Compact(est, 5)
	if !est[0].Compact || est[1].Compact || est[2].Compact {
		t.Fatalf("compact flags %v %v %v, want true false false", est[0].Compact, est[1].Compact, est[2].Compact)
	}
	if want := []float64{0, 0.5, 2.5, 11, 50}; !reflect.DeepEqual(est[0].CDF.X, want) {
		t.Fatalf("knots %v, want %v", est[0].CDF.X, want)
	}
	for j, xv := range est[0].CDF.X {
		exact := 1 - math.Exp(-xv/7)
		got := est[0].CDF.P[j]
		if math.Abs(got-exact) > Quantum/2 || got*65536 != math.Round(got*65536) {
			t.Errorf("P(%g) = %.10g, want %.10g rounded to a multiple of 2^-16", xv, got, exact)
		}
	}
	if len(est[1].CDF.X) != 0 || !reflect.DeepEqual(est[2].CDF.P, []float64{0, 0.3}) {
		t.Fatalf("rows left alone changed: %+v %+v", est[1].CDF, est[2].CDF)
	}
}

// The error and compact columns round-trip; a row without an error reads
// back NaN errors; a file written before them (13 columns) reads Err nil
// and full curves.
func TestErrorColumns(t *testing.T) {
	dir := t.TempDir()
	w, err := NewWriter(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	e1 := estimator.Error{WMRD: 0.125, KS: 0.0625, Points: 91, XMax: 4.5}
	rows := []estimator.Estimate{
		{PageID: 1, Sampler: "exp:2", Method: estimator.MethodM6, Kind: estimator.KindG, CDF: series.CDF{X: []float64{0, 1}, P: []float64{0, 1}}, Rate: math.NaN(), Err: &e1, Compact: true},
		{PageID: 1, Sampler: "exp:2", Method: estimator.MethodTruth, Kind: estimator.KindG, CDF: series.CDF{X: []float64{0, 1}, P: []float64{0, 1}}, Rate: math.NaN()},
	}
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var got []estimator.Estimate
	if err := Each(dir, func(e *estimator.Estimate) error { got = append(got, *e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Err == nil || *got[0].Err != e1 || !got[0].Compact {
		t.Fatalf("row 0 read back as %+v", got[0])
	}
	if e := got[1].Err; e == nil || !math.IsNaN(e.WMRD) || !math.IsNaN(e.KS) || e.Points != 0 || got[1].Compact {
		t.Fatalf("row 1 (no error) read back with %+v, compact %v", e, got[1].Compact)
	}

	old := arrow.NewSchema(estimateSchema.Fields()[:errColumns], nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, old)
	defer b.Release()
	appendOlderRow(b, "exp:2")
	b.Field(ecConstant).(*array.BooleanBuilder).Append(false)
	rec := b.NewRecordBatch()
	defer rec.Release()
	oldDir := writeOlderFile(t, old, rec)
	got = nil
	if err := Each(oldDir, func(e *estimator.Estimate) error { got = append(got, *e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Err != nil || got[0].Compact || got[0].Method != estimator.MethodM2 {
		t.Fatalf("13-column file read back as %+v", got)
	}
}
