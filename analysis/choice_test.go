package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/model"
)

// The verdict of a paired difference d = κ_method − κ_other by its 95 %
// interval: below 0 is better for the method (an error), above worse,
// containing 0 indistinguishable, excluding 0 by less than 0.01
// percentage points negligible, no interval none.
func TestVerdict(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{-0.03, -0.01, VerdictBetter},
		{0.01, 0.03, VerdictWorse},
		{-0.01, 0.01, VerdictSame},
		{0, 0, VerdictSame},
		{-2e-6, -1e-6, VerdictNegligible},
		{1e-6, 2e-6, VerdictNegligible},
		{-2e-4, -1e-6, VerdictBetter}, // reaches beyond 0.01 points
		{nan, nan, VerdictNone},
	} {
		if got := (Interval{Mean: (c.lo + c.hi) / 2, Lo: c.lo, Hi: c.hi}).Verdict(); got != c.want {
			t.Errorf("interval [%g, %g]: verdict %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

// constPages are the errors of three methods on n pages under one
// constant sampler (one seed): M4 (the rule of "constant S, new
// measurement") has κ_p, M5 has κ_p + d5, M3 κ_p + 0.3; κ_p is drawn
// around 0.01 so that the pages differ.
func constPages(n int, d5 func(p int) float64) []PageError {
	return pageErrors(n, model.NewRand(3, 3), "const:0.05x", true, 0.01, 0.005, map[string]func(int) float64{
		"M4": func(int) float64 { return 0 }, "M5": d5, "M3": func(int) float64 { return 0.3 },
	}, "M4", "M5", "M3")
}

// pageErrors are the errors of the methods named on n pages under one
// sampler (one seed): on page p method m has κ_p + offset[m](p), κ_p
// drawn uniformly in [base, base + spread) so that the pages differ.
func pageErrors(n int, r *rand.Rand, sampler string, constant bool, base, spread float64, offset map[string]func(int) float64, names ...string) []PageError {
	var out []PageError
	for p := range n {
		k := base + spread*r.Float64()
		for _, name := range names {
			ks := k + offset[name](p)
			out = append(out, PageError{PageID: int64(p + 1), Sampler: sampler, Method: name, Kind: "G", Constant: constant, Intervals: 500,
				Error: Error{WMRD: ks / 4, KS: ks}, Mean: Error{WMRD: ks / 4, KS: ks}})
		}
	}
	return out
}

// The recommendation follows the measurement: when another allowed
// method beats the rule's on the pages (the interval over pages of
// κ_other − κ_rule below 0 by more than 0.01 points), that method is
// recommended; when it is lower only negligibly, or by a difference the
// pages do not resolve, the rule's method is kept and compared with it
// (κ_rule − κ_lowest: what keeping it costs).
func TestChooseFollowsMeasurement(t *testing.T) {
	sc := Scenario{Sampler: "constant"}
	pick := func(errs []PageError) Choice {
		t.Helper()
		rec, err := Recommend(sc, Summarize(errs, 1))
		if err != nil {
			t.Fatal(err)
		}
		return choose(rec.Evidence, rec.Method, defaultKS)
	}
	c := pick(constPages(30, func(int) float64 { return -0.002 }))
	if c.Method != "M5" || c.Rule != "M4" || c.Why != ChoiceMeasured || c.Versus.rival != "M4" || math.Abs(c.Versus.pages.Mean+0.002) > 1e-12 || c.Versus.pages.Hi >= 0 {
		t.Errorf("M5 lower by 0.002 on every page: %+v, want M5 measured best against M4 (Δ −0.002)", c)
	}
	c = pick(constPages(30, func(int) float64 { return -2e-6 }))
	if c.Method != "M4" || c.Why != ChoiceKept || c.Lowest != "M5" || c.Versus.rival != "M5" || c.Versus.pages.Verdict() != VerdictNegligible || math.Abs(c.Versus.pages.Mean-2e-6) > 1e-12 {
		t.Errorf("M5 lower by 2·10⁻⁶: %+v, want M4 kept, costing +2·10⁻⁶ against M5", c)
	}
	// M5 lower by 0.001 on average but ±0.02 from page to page.
	c = pick(constPages(30, func(p int) float64 { return -0.001 + 0.02*float64(2*(p%2)-1) }))
	if c.Method != "M4" || c.Why != ChoiceKept || c.Versus.pages.Verdict() != VerdictSame {
		t.Errorf("M5 lower by 0.001 ± 0.02: %+v, want M4 kept, indistinguishable", c)
	}
	c = pick(constPages(30, func(int) float64 { return 0.002 }))
	if c.Method != "M4" || c.Why != ChoiceLowest || c.Versus.rival != "M5" || c.Versus.pages.Verdict() != VerdictBetter {
		t.Errorf("M4 lowest: %+v, want M4 beating M5", c)
	}
}

// With old M3 traces only what M3's samples feed is allowed (M3, M5):
// M4, lower on every page, is not among the methods compared.
func TestOldM3Allows(t *testing.T) {
	rec, err := Recommend(Scenario{Sampler: "constant", OldM3: true}, Summarize(constPages(10, func(int) float64 { return 0.002 }), 1))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range rec.Evidence {
		got = append(got, e.Method)
	}
	if len(got) != 2 || !(got[0] == "M5" && got[1] == "M3" || got[0] == "M3" && got[1] == "M5") {
		t.Errorf("old M3 traces allow %v, want M3 and M5", got)
	}
	if c := choose(rec.Evidence, rec.Method, defaultKS); c.Method != "M5" || c.Why != ChoiceOnly || c.Versus.rival != "M3" || c.Lower != "" {
		t.Errorf("old M3 traces: %+v, want M5 the only consistent method, against M3", c)
	}
}

// randomPages are the errors of the methods of a random sampler on n
// pages (one seed): M6 has κ_p, G-M4 (biased) κ_p − 0.02, M2 (ages)
// κ_p − 0.03; κ_p is drawn around 0.05 so that the pages differ.
func randomPages(n int) []PageError {
	return pageErrors(n, model.NewRand(4, 4), "exp:20x", false, 0.05, 0.01, map[string]func(int) float64{
		"M6": func(int) float64 { return 0 }, "G-M4": func(int) float64 { return -0.02 }, "M2": func(int) float64 { return -0.03 },
	}, "M6", "G-M4", "M2")
}

// Only consistent methods are recommended: under random delays without
// ages G-M4, biased, beats M6 on every page (κ lower by 0.02), yet M6,
// the only consistent method the scenario allows, is recommended, and
// G-M4 is named as the lower biased method with its mean κ and the
// paired difference κ_M6 − κ_G-M4 = +0.02. With ages M2 is recommended
// (the lowest of all), and no biased method is lower.
func TestChooseConsistentOnly(t *testing.T) {
	sum := Summarize(randomPages(30), 1)
	var m6, gm4 float64
	for _, m := range sum {
		switch m.Method {
		case "M6":
			m6 = m.MeanKS
		case "G-M4":
			gm4 = m.MeanKS
		}
	}
	rec, err := Recommend(Scenario{Sampler: "random"}, sum)
	if err != nil {
		t.Fatal(err)
	}
	c := choose(rec.Evidence, rec.Method, defaultKS)
	if c.Method != "M6" || c.Why != ChoiceOnly || c.Lower != "G-M4" || c.LowerClass != estimator.Biased || c.LowerKS != gm4 || gm4 >= m6 {
		t.Errorf("random S, no age: %+v, want M6 (only consistent), G-M4 lower (%g < %g)", c, gm4, m6)
	}
	if c.Versus.rival != "G-M4" || math.Abs(c.Versus.pages.Mean-0.02) > 1e-12 || c.Versus.pages.Verdict() != VerdictWorse {
		t.Errorf("random S, no age: versus %+v, want κ_M6 − κ_G-M4 = +0.02, worse", c.Versus)
	}
	rec, err = Recommend(Scenario{Sampler: "random", Age: true}, sum)
	if err != nil {
		t.Fatal(err)
	}
	if c := choose(rec.Evidence, rec.Method, defaultKS); c.Method != "M2" || c.Why != ChoiceLowest || c.Versus.rival != "M6" || c.Lower != "" || !math.IsNaN(c.LowerKS) {
		t.Errorf("age available: %+v, want M2 the lowest against M6, nothing lower", c)
	}
	// The recommendation table carries the choice and the lower biased method.
	tb := recommendTable(sum, sum, "src")
	li, lk, ci := len(tb.Columns)-3, len(tb.Columns)-1, 11
	if tb.Columns[li].Name != "lower biased" || tb.Columns[lk].Name != "lower biased mean KS" || tb.Columns[ci].Name != "choice" {
		t.Fatalf("columns %v", tb.Columns)
	}
	for _, r := range tb.Rows {
		if r[0] == "random S, no age" && (r[1] != "M6" || r[ci] != ChoiceOnly || r[li] != "G-M4" || r[li+1] != "biased" || r[lk] != gm4) {
			t.Errorf("random S, no age row %v", r)
		}
	}
}
