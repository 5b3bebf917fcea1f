package analysis

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
)

// method_evidence rests on the pages with ≥ MinEvidenceIntervals
// intervals only (2 of the 3 pages here: page 3 has 50), says so in its
// title, states the x range of its WMRD as the replay's Source line
// states x_max (the replay's choice per page, 12 and 40 h: median 26 h
// = 1.083 d, not the grid ends), and ranks each (sampler, kind)
// group by mean KS (naive 0.30 before age-mle 0.37, though by WMRD
// age-mle 0.07 leads naive 0.08).
func TestEvidenceTable(t *testing.T) {
	pe := func(page int64, n int, xmax float64) PageError {
		return PageError{PageID: page, Sampler: "exp:2", Method: "M2", Kind: "G", Intervals: n, Error: Error{XMax: xmax + 0.3}, PageXMax: xmax}
	}
	res := &Result{UnitName: "h",
		PageErrors: []PageError{pe(1, 150, 12), pe(2, 99, 40), pe(3, 50, 900)},
		Evidence: []MethodSummary{
			{Sampler: "exp:2", Kind: "G", Method: "M2", Pages: 2, MeanWMRD: 0.002, MeanKS: 0.01, Class: estimator.Unbiased, Age: true},
			{Sampler: "exp:2", Kind: "G", Method: "age-mle", Pages: 2, MeanWMRD: 0.07, MeanKS: 0.37, Class: estimator.Baseline, Age: true},
			{Sampler: "exp:2", Kind: "G", Method: "naive", Pages: 2, MeanWMRD: 0.08, MeanKS: 0.30, KS: Interval{Mean: 0.30}, Class: estimator.Baseline},
			{Sampler: "exp:2", Kind: "F", Method: "M2", Pages: 2, MeanWMRD: 0.0001, MeanKS: 0.05, Class: estimator.Unbiased, Age: true},
		}}
	tb := evidenceTable(res, &Options{}, "src")
	if w := "Method ranking by KS (κ) on the 2 replayed pages with ≥ 99 intervals"; tb.Title != w {
		t.Errorf("title %q, want %q", tb.Title, w)
	}
	if d := tb.Columns[6].Doc; tb.Columns[6].Name != "mean WMRD" || d != "WMRD on 0 ≤ x ≤ x_max, x_max per page = 0.99 quantile of the page's G_U (median 1.083 d, range 0.5–1.667 d)" {
		t.Errorf("column 6 %q doc %q", tb.Columns[6].Name, d)
	}
	var order []string
	for _, r := range tb.Rows {
		order = append(order, r[1].(string)+" "+r[2].(string))
	}
	if got, w := order, []string{"F M2", "G M2", "G naive", "G age-mle"}; len(got) != len(w) || got[0] != w[0] || got[1] != w[1] || got[2] != w[2] || got[3] != w[3] {
		t.Errorf("order %q, want %q", got, w)
	}
	if e := evidenceTable(&Result{UnitName: "h", PageErrors: []PageError{pe(3, 50, 900)}}, &Options{}, "src"); len(e.Rows) != 0 ||
		e.Title != "Method ranking by KS (κ): no replayed page has ≥ 99 intervals, too few to rank methods" {
		t.Errorf("no evidence: title %q, %d rows", e.Title, len(e.Rows))
	}
	if r := tb.Rows[1]; r[4] != 0.01 || r[6] != 0.002 || r[10] != "age" {
		t.Errorf("row %v: want KS 0.01, WMRD 0.002, observes age", r)
	}
}

// The recommendation names, besides the lowest WMRD, the consistent
// method with the lowest mean KS among those the scenario allows (no
// age-observing method without ages: M6's 0.4, not M2's 0.01), the pages
// the errors rest on, and the Poisson baseline whose mean KS is lower
// (naive's 0.30), which is not recommended.
func TestRecommendTableLowestKS(t *testing.T) {
	ev := []MethodSummary{
		{Sampler: "exp:2", Kind: "G", Method: "M2", Pages: 2, MeanWMRD: 0.002, MeanKS: 0.01, KS: Interval{Mean: 0.01}, Age: true, Class: estimator.Unbiased},
		{Sampler: "exp:2", Kind: "G", Method: "M6", Pages: 2, MeanWMRD: 0.01, MeanKS: 0.4, KS: Interval{Mean: 0.4}, Class: estimator.Unbiased},
		{Sampler: "exp:2", Kind: "G", Method: "naive", Pages: 2, MeanWMRD: 0.08, MeanKS: 0.30, KS: Interval{Mean: 0.30}, Class: estimator.Baseline},
	}
	tb := recommendTable(ev, ev, "src")
	found := 0
	for _, r := range tb.Rows {
		switch r[0] {
		case "age available":
			found++
			if r[1] != "M2" || r[7] != int64(2) || r[8] != "M2" || r[9] != 0.01 {
				t.Errorf("age row %v", r)
			}
		case "random S, no age":
			found++
			n := len(r)
			if r[1] != "M6" || r[4] != 0.4 || r[5] != "M6" || r[8] != "M6" || r[9] != 0.4 || math.IsNaN(r[3].(float64)) ||
				r[n-3] != "naive" || r[n-2] != "Poisson baseline" || r[n-1] != 0.30 {
				t.Errorf("no-age row %v", r)
			}
		}
	}
	if found != 2 {
		t.Errorf("rows %v", tb.Rows)
	}
}

// A slow source's x_max is stated in one unit chosen from its median, as
// the Source line states it (replay.Spread.In): 4,000 and 13,540 h, median
// 8,770 h = 1.0 y, read "median 1 y, range 0.4563–1.545 y", no
// e-notation; a given x_max reads as given.
func TestEvidenceTableSlowSourceUnit(t *testing.T) {
	res := &Result{Unit: 3600, UnitName: "h",
		PageErrors: []PageError{{PageID: 1, Intervals: 150, PageXMax: 4000}, {PageID: 2, Intervals: 150, PageXMax: 13540}}}
	if d := evidenceTable(res, &Options{}, "src").Columns[6].Doc; d != "WMRD on 0 ≤ x ≤ x_max, x_max per page = 0.99 quantile of the page's G_U (median 1 y, range 0.4563–1.545 y)" {
		t.Errorf("doc %q", d)
	}
	res.PageErrors[0].PageXMax, res.PageErrors[1].PageXMax = 1000, 1000
	if d := evidenceTable(res, &Options{XMax: 1000}, "src").Columns[6].Doc; d != "WMRD on 0 ≤ x ≤ x_max, x_max = 41.67 d (given)" {
		t.Errorf("given: doc %q", d)
	}
}

// A given x_max of 1,000 h reads 41.67 d in method_errors's note.
func TestXMaxTextIn(t *testing.T) {
	if got := xmaxTextIn(1000, 3600); got != "41.67 d" {
		t.Errorf("xmaxTextIn(1000 h) = %q, want 41.67 d", got)
	}
	if got := xmaxTextIn(0, 3600); got != "x_max of each page's replay grid" {
		t.Errorf("xmaxTextIn(0) = %q", got)
	}
}
