package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

// A recovered F_U can rise and fall back (a Yelp business's F̂ from M2 rose
// to 0.65 and fell to 0), and the replay figures drew it so. They draw the
// monotone projection now — here worked out by hand by pooling adjacent
// violators — and say so in the caption; the truth is drawn as it is.
func TestMethodFiguresMonotone(t *testing.T) {
	x := []float64{0, 1, 2, 3, 4}
	rows := []EstimateRow{
		{PageID: 1, Title: "biz", Sampler: "const:1", Constant: true, Method: "truth", Kind: "F", CDF: series.CDF{X: x, P: []float64{0, 0.2, 0.5, 0.9, 1}}},
		{PageID: 1, Title: "biz", Sampler: "const:1", Constant: true, Method: "M2", Kind: "F", CDF: series.CDF{X: x, P: []float64{0, 0.65, 0, 0.5, 0.9}}},
		{PageID: 1, Title: "biz", Sampler: "const:1", Constant: true, Method: "truth", Kind: "G", CDF: series.CDF{X: x, P: []float64{0, 0.3, 0.6, 0.8, 0.95}}},
		{PageID: 1, Title: "biz", Sampler: "const:1", Constant: true, Method: "M4", Kind: "G", CDF: series.CDF{X: x, P: []float64{0, 0.4, 0.3, 0.9, 0.8}}},
	}
	// PAVA by hand: (0.65, 0) pool to 0.325; then 0.325 ≤ 0.5 ≤ 0.9.
	// M4: (0.4, 0.3) → 0.35, (0.9, 0.8) → 0.85.
	want := map[string][]float64{"F M2": {0, 0.325, 0.325, 0.5, 0.9}, "F truth": {0, 0.2, 0.5, 0.9, 1},
		"G M4": {0.65, 0.65, 0.15, 0.15}, "G truth": {0.7, 0.4, 0.2, 0.05}} // tails 1 − G at x > 0
	figs := methodFigures(&Result{UnitName: "d"}, rows, "src")
	if len(figs) != 2 {
		t.Fatalf("%d figures, want top_g_m3_m4 and top_f_from_m2", len(figs))
	}
	for _, f := range figs {
		if !strings.Contains(f.Caption, "monotone projection") || !strings.Contains(f.Caption, "estimates.parquet") {
			t.Errorf("%s: caption %q does not say the projection is shown and the raw values are in estimates.parquet", f.ID, f.Caption)
		}
		kind := "F"
		if f.ID == "top_g_m3_m4" {
			kind = "G"
		}
		for _, c := range f.Curves {
			w := want[kind+" "+c.Name]
			if len(w) != len(c.Y) {
				t.Errorf("%s %s: %v, want %v", f.ID, c.Name, c.Y, w)
				continue
			}
			for i := range w {
				if math.Abs(c.Y[i]-w[i]) > 1e-12 {
					t.Errorf("%s %s: %v, want %v", f.ID, c.Name, c.Y, w)
					break
				}
			}
		}
	}
	if rows[1].CDF.P[2] != 0 {
		t.Error("the raw row was modified")
	}
}
