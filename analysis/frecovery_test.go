package analysis

import (
	"math"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// The reason the Findings give for a poor F_U: recovered from the exact
// G_U on bins of width h, F_U is close to the truth when few intervals
// are shorter than h, and far from it when many are (g_U falls by their
// share inside the first bin, and the derivative averages that fall
// away). Exponential intervals of mean 10 on a grid of step 1 (10 % of
// them shorter than h ≥ 1) recover within a few percent; half of the
// intervals 100 times shorter than the grid step, KS above 30 %.
func TestRecoveryPoorWhenIntervalsShorterThanBins(t *testing.T) {
	r := model.NewRand(5, 5)
	ks := func(u []float64) (float64, float64) {
		grid := estimator.Grid(1, 60)
		g := transform.NewAge(u).At(grid)
		rec, err := estimator.RecoverF(series.CDF{X: grid, P: g}, estimator.RecoverOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s := slices.Clone(u)
		slices.Sort(s)
		var d float64
		for i, x := range grid {
			f := float64(sortSearch(s, x)) / float64(len(s)) // #{U ≤ x}/n
			d = math.Max(d, math.Abs(rec.F.P[i]-f))
		}
		return d, shorterThan(u, rec.H)
	}
	exp := make([]float64, 20000)
	mixed := make([]float64, 20000)
	for i := range exp {
		exp[i] = 10 * r.ExpFloat64()
		mixed[i] = 10 * r.ExpFloat64()
		if i%2 == 0 {
			mixed[i] = 0.01 * r.ExpFloat64()
		}
	}
	dExp, shortExp := ks(exp)
	dMixed, shortMixed := ks(mixed)
	if dExp > 0.05 || shortExp > 0.2 {
		t.Errorf("exponential: KS %.3f with %.0f%% of the intervals below h, want a few %% and ≤ 20%%", dExp, 100*shortExp)
	}
	if dMixed < 0.3 || shortMixed < 0.5 {
		t.Errorf("half the intervals 100× below the grid: KS %.3f with %.0f%% below h, want > 30%% and ≥ 50%%", dMixed, 100*shortMixed)
	}
	t.Logf("KS %.3f (%.0f%% < h) vs %.3f (%.0f%% < h)", dExp, 100*shortExp, dMixed, 100*shortMixed)
}

// sortSearch is #{s_i ≤ x} for sorted s.
func sortSearch(s []float64, x float64) int {
	n, _ := slices.BinarySearchFunc(s, x, func(a, b float64) int {
		if a <= b {
			return -1
		}
		return 1
	})
	return n
}

// shorterThan counts by hand; f_recovery takes per (sampler, method) the
// medians over pages of h and of that share (each page's mean over its
// seeds), the mean KS and its interval from the evidence summary, and
// calls a mean KS above PoorRecoveryKS poor.
func TestFRecoveryTable(t *testing.T) {
	if got := shorterThan([]float64{0.5, 1, 2, 3}, 1.5); got != 0.5 {
		t.Errorf("shorterThan = %g, want 0.5 (0.5 and 1 are below 1.5)", got)
	}
	if got := shorterThan(nil, 1); !math.IsNaN(got) {
		t.Errorf("no intervals: %g, want NaN", got)
	}
	pe := func(page int64, seed int, h, short float64) PageError {
		return PageError{PageID: page, Seed: seed, Sampler: "exp:20x", Method: "M6", Kind: "F", Intervals: 200, H: h, Short: short, Error: Error{KS: 0.3}}
	}
	res := &Result{UnitName: "h",
		PageErrors: []PageError{pe(1, 0, 1, 0.2), pe(1, 1, 3, 0.4), pe(2, 0, 5, 0.6), pe(3, 0, 10, 0.9),
			{PageID: 4, Sampler: "exp:20x", Method: "M6", Kind: "F", Intervals: 50, H: 100, Short: 1}}, // too short: not evidence
		Evidence: []MethodSummary{{Sampler: "exp:20x", Method: "M6", Kind: "F", Pages: 3, MeanKS: 0.3, Seeds: 2,
			KS: Interval{0.3, 0.29, 0.31, 2}, ByPageKS: Interval{0.3, 0.2, 0.4, 3}}}}
	tb, ok := fRecoveryTable(res, "src")
	if !ok || len(tb.Rows) != 1 {
		t.Fatalf("f_recovery: %v", tb.Rows)
	}
	// per page: h 2, 5, 10 → median 5; share 0.3, 0.6, 0.9 → 0.6
	r := tb.Rows[0]
	if r[3] != 0.3 || r[4] != 0.2 || r[5] != 0.4 || r[6] != "pages" || r[9] != 5.0 || math.Abs(r[10].(float64)-0.6) > 1e-12 || r[11] != "poor" {
		t.Errorf("row %v", r)
	}
}
