package analysis

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// TestPageErrorsAndSummary builds replay-like rows by hand: truth G on the
// grid 0, 1, 2 is 0, 0.5, 1.
//   - M2 (not a step method) = 0, 0.25, 1: Σ|Δ| = 0.25, Σ(H+G)/2 = 0.375 + 1
//     = 1.375 → w = 0.181818…, κ = 0.25.
//   - M4 (step, but without the intervals the truth is known only on the
//     grid, so it is compared there) = 0, 0.5, 1 → w = 0, κ = 0.
//   - naive with λ̂ = ln 2 and no CDF: 1 − 2^{−x} = 0, 0.5, 0.75 →
//     Σ|Δ| = 0.25, Σ(H+G)/2 = 0.5 + 0.875 = 1.375 → w = 0.181818…, κ = 0.25.
//   - matloff undefined (NaN rate) → NaN errors, counted as undefined.
//
// A second page gives M2 w = 0 so the mean is 0.0909… and the median
// (of two) the same.
func TestPageErrorsAndSummary(t *testing.T) {
	grid := []float64{0, 1, 2}
	cdf := func(m string, p ...float64) series.CDF { return series.CDF{Method: m, X: grid, P: p} }
	rows := []EstimateRow{
		{PageID: 1, Sampler: "const:1", Constant: true, Method: "truth", Kind: "G", CDF: cdf("truth", 0, 0.5, 1)},
		{PageID: 1, Sampler: "const:1", Constant: true, Method: "M2", Kind: "G", CDF: cdf("M2", 0, 0.25, 1)},
		{PageID: 1, Sampler: "const:1", Constant: true, Method: "M4", Kind: "G", CDF: cdf("M4", 0, 0.5, 1)},
		{PageID: 1, Sampler: "const:1", Constant: true, Method: "naive", Kind: "G", Rate: math.Ln2},
		{PageID: 1, Sampler: "const:1", Constant: true, Method: "matloff", Kind: "G", Rate: math.NaN(), Note: "X = n"},
		{PageID: 2, Sampler: "const:1", Constant: true, Method: "truth", Kind: "G", CDF: cdf("truth", 0, 0.5, 1)},
		{PageID: 2, Sampler: "const:1", Constant: true, Method: "M2", Kind: "G", CDF: cdf("M2", 0, 0.5, 1)},
	}
	pe, err := PageErrors(rows, 0, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]float64{"M2": {0.25 / 1.375, 0.25}, "M4": {0, 0}, "naive": {0.25 / 1.375, 0.25}}
	for _, e := range pe {
		if e.PageID != 1 {
			continue
		}
		if e.Method == "matloff" {
			if !math.IsNaN(e.WMRD) || e.Note != "X = n" {
				t.Errorf("matloff: %+v, want NaN with its note", e)
			}
			continue
		}
		w := want[e.Method]
		if math.Abs(e.WMRD-w[0]) > 1e-12 || math.Abs(e.KS-w[1]) > 1e-12 {
			t.Errorf("%s: w %.6f κ %.6f, want %.6f %.6f", e.Method, e.WMRD, e.KS, w[0], w[1])
		}
	}
	sum := Summarize(pe, 1)
	for _, s := range sum {
		switch s.Method {
		case "M2":
			if s.Pages != 2 || math.Abs(s.MeanWMRD-0.25/1.375/2) > 1e-12 || math.Abs(s.MedianWMRD-0.25/1.375/2) > 1e-12 {
				t.Errorf("M2 summary %+v", s)
			}
		case "matloff":
			if s.Pages != 0 || s.Undefined != 1 || !math.IsNaN(s.MeanWMRD) {
				t.Errorf("matloff summary %+v", s)
			}
		}
	}
	if sum[0].Method != "M2" {
		t.Errorf("summary order starts with %s, want M2 (SPEC order)", sum[0].Method)
	}
	if _, err := PageErrors([]EstimateRow{{PageID: 3, Method: "M2", Kind: "G", CDF: cdf("M2", 0, 0, 1)}}, 0, 0, nil); err == nil {
		t.Error("estimate without truth: no error")
	}
}

// TestRecommend checks SPEC §5's rule table and that evidence is filtered
// to the scenario's sampler kind and sorted by mean WMRD.
func TestRecommend(t *testing.T) {
	cases := []struct {
		s    Scenario
		want string
	}{
		{Scenario{Age: true, Sampler: "random"}, "M2"},
		{Scenario{Age: true, Sampler: "constant"}, "M2"},
		{Scenario{Sampler: "constant"}, "M4"},
		{Scenario{Sampler: "constant", OldM3: true}, "M5"},
		{Scenario{Sampler: "random"}, "M6"},
	}
	sum := []MethodSummary{
		{Sampler: "exp:2", Method: "M6", Kind: "G", MeanWMRD: 0.05},
		{Sampler: "exp:2", Method: "G-M4", Kind: "G", MeanWMRD: 0.4},
		{Sampler: "exp:2", Method: "M2", Kind: "G", Age: true, MeanWMRD: 0.02},
		{Sampler: "exp:2", Method: "M2", Kind: "F", Age: true, MeanWMRD: 0.1},
		{Sampler: "const:1", Constant: true, Method: "M4", Kind: "G", MeanWMRD: 0.03},
	}
	for _, c := range cases {
		r, err := Recommend(c.s, sum)
		if err != nil || r.Method != c.want {
			t.Errorf("%+v: %s, %v; want %s", c.s, r.Method, err, c.want)
		}
	}
	r, _ := Recommend(Scenario{Sampler: "random"}, sum)
	if len(r.Evidence) != 2 || r.Evidence[0].Method != "M6" || r.Evidence[1].Method != "G-M4" {
		t.Errorf("evidence %+v, want the random-sampler G rows without age methods, sorted by WMRD", r.Evidence)
	}
	r, _ = Recommend(Scenario{Age: true, Sampler: "random"}, sum)
	if len(r.Evidence) != 3 || r.Evidence[0].Method != "M2" || r.Evidence[1].Method != "M6" {
		t.Errorf("evidence %+v, want the 3 random-sampler G rows sorted by WMRD", r.Evidence)
	}
	if _, err := Recommend(Scenario{Sampler: "random", OldM3: true}, nil); err == nil {
		t.Error("old M3 traces with random sampler: no error")
	}
	if _, err := Recommend(Scenario{Sampler: "weekly"}, nil); err == nil {
		t.Error("unknown sampler: no error")
	}
}

// TestPageErrorsExactTruth is SPEC §4.2's protocol worked by hand: the
// step estimate, known on the grid x_n = nΔ, is interpolated linearly, and
// the truth is the page's exact G_U at every point of the fine grid (not
// the truth's grid values interpolated too, which would make the
// interpolation a no-op).
//
// Page: updates at 0, 2.5 h and 3 h → intervals U = 2.5, 0.5 (h), ΣU = 3,
// G_U(x) = (min(2.5, x) + min(0.5, x)) / 3. Δ = 1 h, x_max = 3, one extra
// point per step (Extra = 1), so the fine grid is 0, 0.5, 1, …, 3.
//
//	x         0    0.5   1    1.5   2     2.5   3
//	G_U(x)    0    1/3   1/2  2/3   5/6   1     1
//
// The truth row (grid values) is 0, 1/2, 5/6, 1.
//
// M4 = the truth at the grid points: interpolated 0, 1/4, 1/2, 2/3, 5/6,
// 11/12, 1. |Δ| = 0, 1/12, 0, 0, 0, 1/12, 0 → κ = 1/12; Σ|Δ| = 1/6;
// ΣH = 25/6, ΣG = 26/6, Σ(H+G)/2 = 51/12 → w = (1/6)/(51/12) = 2/51.
// (Interpolating the truth too gives w = κ = 0: the bug this guards.)
//
// M5 = 0, 0.4, 0.8, 1 on the grid: interpolated 0, 0.2, 0.4, 0.6, 0.8,
// 0.9, 1. |Δ| = 0, 2/15, 1/10, 1/15, 1/30, 1/10, 0 → κ = 2/15;
// Σ|Δ| = 13/30; ΣH = 3.9, ΣG = 13/3, Σ(H+G)/2 = 247/60 →
// w = (13/30)/(247/60) = 26/247 = 2/19.
//
// M2 (ECDF of ages, not a step method) = 0, 0.5, 0.75, 1 is compared at
// the 4 grid points only: |Δ| = 0, 0, 1/12, 0 → κ = 1/12; ΣH = 2.25,
// ΣG = 7/3, Σ(H+G)/2 = 55/24 → w = (1/12)/(55/24) = 2/55.
func TestPageErrorsExactTruth(t *testing.T) {
	grid := []float64{0, 1, 2, 3}
	cdf := func(m string, p ...float64) series.CDF { return series.CDF{Method: m, X: grid, P: p} }
	rows := []EstimateRow{
		{PageID: 7, Title: "hand", Sampler: "const:1", Method: "truth", Kind: "G", CDF: cdf("truth", 0, 0.5, 5.0/6, 1)},
		{PageID: 7, Title: "hand", Sampler: "const:1", Method: "M4", Kind: "G", CDF: cdf("M4", 0, 0.5, 5.0/6, 1)},
		{PageID: 7, Title: "hand", Sampler: "const:1", Method: "M5", Kind: "G", CDF: cdf("M5", 0, 0.4, 0.8, 1)},
		{PageID: 7, Title: "hand", Sampler: "const:1", Method: "M2", Kind: "G", CDF: cdf("M2", 0, 0.5, 0.75, 1)},
	}
	page := series.Page{ID: 7, Title: "hand", Resolution: 1, Updates: []int64{0, 9000, 10800}}
	res, err := Analyze(context.Background(), eachOf([]series.Page{page}), Options{
		Out: t.TempDir(), Unit: transform.Hour, Reps: 19, XMax: 3, Extra: 1, Replay: "hand",
		Estimates: func(string) ([]EstimateRow, string, error) { return rows, "hand-made rows", nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		w, k   float64
		points int
	}{"M4": {2.0 / 51, 1.0 / 12, 7}, "M5": {2.0 / 19, 2.0 / 15, 7}, "M2": {2.0 / 55, 1.0 / 12, 4}}
	if len(res.PageErrors) != len(want) {
		t.Fatalf("%d page errors, want %d: %+v", len(res.PageErrors), len(want), res.PageErrors)
	}
	for _, e := range res.PageErrors {
		w := want[e.Method]
		if math.Abs(e.WMRD-w.w) > 1e-12 || math.Abs(e.KS-w.k) > 1e-12 || e.Points != w.points {
			t.Errorf("%s: w %.6f κ %.6f on %d points, want %.6f %.6f on %d", e.Method, e.WMRD, e.KS, e.Points, w.w, w.k, w.points)
		}
	}
	// The same rows against the page's intervals in minutes (a replay in
	// another unit), or against a dataset without page 7: errors, not
	// silently wrong tables.
	if _, err := PageErrors(rows, 3, 1, map[int64][]float64{7: {150, 30}}); err == nil || !strings.Contains(err.Error(), "another unit") {
		t.Errorf("intervals in another unit: %v, want an error naming the unit", err)
	}
	if _, err := PageErrors(rows, 3, 1, map[int64][]float64{8: {2.5, 0.5}}); err == nil || !strings.Contains(err.Error(), "not in the dataset") {
		t.Errorf("page missing from the dataset: %v, want an error", err)
	}
}

// Every Poisson baseline replay writes (poisson-mle included) is classed,
// ranked and scored as one: a method analysis does not know would be
// scored as an estimate of G_U and ranked last, unnamed in the findings.
func TestPoissonBaselinesKnown(t *testing.T) {
	var reg estimator.Registry
	for _, m := range []string{"naive", "cho", "matloff", "age-mle", "poisson-mle"} {
		if c := reg.ClassOf(m); c != estimator.Baseline || string(c) != "Poisson baseline" {
			t.Errorf("%s: class %q", m, c)
		}
		if reg.Rank(m) >= reg.Rank("no such method") {
			t.Errorf("%s has no rank", m)
		}
	}
}

// Whether a sampler is constant comes from the estimates file, not from
// its spec: estimate's "observed const:Δ" rows count as constant-delay
// evidence (parsing the spec took them for random delays).
func TestEvidenceConstantFromRows(t *testing.T) {
	grid := []float64{0, 1, 2}
	cdf := func(m string, p ...float64) series.CDF { return series.CDF{Method: m, X: grid, P: p} }
	g := cdf("truth", 0, 0.5, 1)
	rows := []EstimateRow{
		{PageID: 1, Sampler: "observed const:2", Constant: true, Method: "truth", Kind: "G", CDF: g},
		{PageID: 1, Sampler: "observed const:2", Constant: true, Method: "M4", Kind: "G", CDF: cdf("M4", 0, 0.25, 1)},
	}
	pe, err := PageErrors(rows, 0, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := Summarize(pe, 1)
	if len(sum) != 1 || !sum[0].Constant || sum[0].Class != estimator.Unbiased {
		t.Fatalf("summary %+v: want one constant, unbiased M4 row", sum)
	}
	rec, err := Recommend(Scenario{Sampler: "constant"}, sum)
	if err != nil || len(rec.Evidence) != 1 || rec.Evidence[0].Method != "M4" {
		t.Fatalf("evidence %+v, %v: want the observed const:2 M4 row", rec.Evidence, err)
	}
}

// Summaries follow replay's one rule (estimator.SummarizeErrors, as in
// replay.json): a page whose WMRD or KS is NaN is undefined and left out
// of both means. Pages: (0.1, 0.5), (NaN, 0.1), (0.3, NaN), (0.2, 0.4) →
// 2 pages, 2 undefined, mean WMRD 0.15, mean KS 0.45.
func TestSummaryOneRule(t *testing.T) {
	nan := math.NaN()
	var errs []PageError
	for i, e := range [][2]float64{{0.1, 0.5}, {nan, 0.1}, {0.3, nan}, {0.2, 0.4}} {
		errs = append(errs, PageError{PageID: int64(i), Sampler: "exp:1", Method: "M6", Kind: "G", Error: Error{WMRD: e[0], KS: e[1]}})
	}
	sum := Summarize(errs, 1)
	if len(sum) != 1 {
		t.Fatalf("%d summaries, want 1", len(sum))
	}
	s := sum[0]
	if s.Pages != 2 || s.Undefined != 2 || math.Abs(s.MeanWMRD-0.15) > 1e-15 || math.Abs(s.MeanKS-0.45) > 1e-15 || math.Abs(s.MedianKS-0.45) > 1e-15 {
		t.Errorf("summary %+v: want 2 pages, 2 undefined, mean WMRD 0.15, mean and median KS 0.45", s)
	}
}
