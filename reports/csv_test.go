package reports

import (
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

// A figure's CSV keeps every seed's points: with a curve that summarises
// seeds, a last column "seed" holds "mean" on the drawn curve's rows (its
// band the seeds' range), the seed index on each seed's own rows, and
// nothing on a curve that does not depend on the seed.
func TestCurvesCSVSeedColumn(t *testing.T) {
	f := tables.Figure{ID: "g", XLabel: "age x", XUnit: "h", YLabel: "G(x)", Curves: []tables.Curve{
		{Name: "truth", X: []float64{1, 2}, Y: []float64{0.5, 0.9}},
		{Name: "M4", X: []float64{1, 2}, Y: []float64{0.45, 0.85}, YLo: []float64{0.4, 0.8}, YHi: []float64{0.5, 0.9},
			Seeds: []tables.Curve{{Name: "M4", X: []float64{1, 2}, Y: []float64{0.4, 0.8}}, {Name: "M4", Seed: 1, X: []float64{1, 2}, Y: []float64{0.5, 0.9}}}}}}
	var buf strings.Builder
	if err := WriteCurvesCSV(&buf, &f); err != nil {
		t.Fatal(err)
	}
	want := `curve,age x (h),G(x),G(x) low,G(x) high,seed
truth,1,0.5,,,
truth,2,0.9,,,
M4,1,0.45,0.4,0.5,mean
M4,2,0.85,0.8,0.9,mean
M4,1,0.4,,,0
M4,2,0.8,,,0
M4,1,0.5,,,1
M4,2,0.9,,,1
`
	if buf.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", buf.String(), want)
	}
}
