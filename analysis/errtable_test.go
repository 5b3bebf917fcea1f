package analysis

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

// TestPageErrorsAndSummary builds replay-like rows by hand: truth G on the
// grid 0, 1, 2 is 0, 0.5, 1.
//   - M2 (not a step method) = 0, 0.25, 1: Σ|Δ| = 0.25, Σ(H+G)/2 = 0.375 + 1
//     = 1.375 → w = 0.181818…, κ = 0.25.
//   - M4 (step; extra = 1 → grid 0, 0.5, 1, 1.5, 2, both linear) = 0, 0.5, 1
//     → identical to the truth: w = 0, κ = 0.
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
		{PageID: 1, Sampler: "const:1", Method: "truth", Kind: "G", CDF: cdf("truth", 0, 0.5, 1)},
		{PageID: 1, Sampler: "const:1", Method: "M2", Kind: "G", CDF: cdf("M2", 0, 0.25, 1)},
		{PageID: 1, Sampler: "const:1", Method: "M4", Kind: "G", CDF: cdf("M4", 0, 0.5, 1)},
		{PageID: 1, Sampler: "const:1", Method: "naive", Kind: "G", Rate: math.Ln2},
		{PageID: 1, Sampler: "const:1", Method: "matloff", Kind: "G", Rate: math.NaN(), Note: "X = n"},
		{PageID: 2, Sampler: "const:1", Method: "truth", Kind: "G", CDF: cdf("truth", 0, 0.5, 1)},
		{PageID: 2, Sampler: "const:1", Method: "M2", Kind: "G", CDF: cdf("M2", 0, 0.5, 1)},
	}
	pe, err := PageErrors(rows, 0, 1)
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
	sum := Summarize(pe)
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
	if _, err := PageErrors([]EstimateRow{{PageID: 3, Method: "M2", Kind: "G", CDF: cdf("M2", 0, 0, 1)}}, 0, 0); err == nil {
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
		{Sampler: "exp:2", Method: "M2", Kind: "G", MeanWMRD: 0.02},
		{Sampler: "exp:2", Method: "M2", Kind: "F", MeanWMRD: 0.1},
		{Sampler: "const:1", Method: "M4", Kind: "G", MeanWMRD: 0.03},
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
