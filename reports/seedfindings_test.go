package reports

import (
	"math"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

// recRow is one row of a recommendation table as analysis writes it:
// the method and its choice against the rule, its mean κ and intervals
// over seeds and pages, and its comparison on each range (the rival,
// the difference over seeds and over pages, the interval judged, the
// verdict).
type recRow struct {
	method, rule, choice, lowest string
	lowestKS                     float64
	seeds, pages                 int64
	seedIv, pageIv               [2]float64 // κ's intervals
	rival, over, verdict         string
	dSeeds, dPages               [3]float64 // mean, lo, hi
	lowMR, rivalMR, verdictMR    string     // x ≤ 10·E[U]
	dPagesMR                     [3]float64
	lower, lowerClass            string // a biased method with a lower mean κ
	lowerKS                      float64
}

func recTable(rows ...recRow) *tables.Bundle {
	str := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.String} }
	flt := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.Float} }
	num := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.Int} }
	mr := " (x ≤ 10·E[U])"
	versus := func(s string) []tables.Column {
		return []tables.Column{str("compared with" + s), flt("Δ KS" + s), flt("Δ KS lo" + s), flt("Δ KS hi" + s),
			flt("Δ KS over pages" + s), flt("Δ KS lo over pages" + s), flt("Δ KS hi over pages" + s), str("interval over" + s), str("verdict" + s)}
	}
	cols := []tables.Column{str("scenario"), str("method"), str("sampler"), flt("mean WMRD"), flt("mean KS"), str("lowest WMRD consistent"), flt("its mean WMRD"),
		num("pages"), str("lowest KS consistent"), flt("its mean KS"), str("rule"), str("choice"),
		num("seeds"), flt("mean KS lo"), flt("mean KS hi"), flt("mean WMRD lo"), flt("mean WMRD hi"),
		num("resamples"), flt("mean KS lo over pages"), flt("mean KS hi over pages"), flt("mean WMRD lo over pages"), flt("mean WMRD hi over pages")}
	cols = append(cols, versus("")...)
	cols = append(cols, flt("mean KS"+mr), flt("mean KS lo"+mr), flt("mean KS hi"+mr), flt("mean KS lo over pages"+mr), flt("mean KS hi over pages"+mr), str("lowest KS consistent"+mr), flt("its mean KS"+mr))
	cols = append(cols, versus(mr)...)
	cols = append(cols, str("lower biased"), str("lower biased class"), flt("lower biased mean KS"))
	nan := math.NaN()
	var out [][]any
	for _, r := range rows {
		sIv, pIv := r.seedIv, r.pageIv
		row := []any{"constant S, new measurement", r.method, "const:0.05x", 0.002, 0.012, r.lowest, 0.002, r.pages, r.lowest, r.lowestKS, r.rule, r.choice,
			r.seeds, sIv[0], sIv[1], sIv[0] / 6, sIv[1] / 6,
			int64(2000), pIv[0], pIv[1], pIv[0] / 6, pIv[1] / 6,
			r.rival, r.dSeeds[0], r.dSeeds[1], r.dSeeds[2], r.dPages[0], r.dPages[1], r.dPages[2], r.over, r.verdict,
			0.0012, sIv[0] / 10, sIv[1] / 10, pIv[0] / 10, pIv[1] / 10, r.lowMR, 0.0010,
			r.rivalMR, nan, nan, nan, r.dPagesMR[0], r.dPagesMR[1], r.dPagesMR[2], "pages", r.verdictMR,
			r.lower, r.lowerClass, r.lowerKS}
		out = append(out, row)
	}
	return &tables.Bundle{Tables: []tables.Table{{ID: "recommendation", Columns: cols, Rows: out}}}
}

func one(t *testing.T, b *tables.Bundle) string {
	t.Helper()
	h := Headline(b)
	if len(h) != 1 {
		t.Fatalf("Headline = %q, want one sentence", h)
	}
	return h[0]
}

func has(t *testing.T, what, s string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("%s: %q\nlacks %q", what, s, w)
		}
	}
}

// The Findings quote the interval over pages where there is one and say
// how it was obtained, once per sentence; a paired difference is written
// subject − other (negative: the subject's error is lower), "beats"
// only on analysis' verdict better (or worse, the rival then the
// subject), "indistinguishable" when the interval includes 0,
// "negligibly" when it excludes 0 by less than 0.01 points; one page
// with seeds quotes the seeds' interval and says it is the crawl's
// randomness only; one page and one seed, no interval.
func TestFindingsIntervals(t *testing.T) {
	nan := math.NaN()
	base := recRow{method: "M4", rule: "M4", choice: "lowest", lowest: "M4", lowestKS: 0.012, seeds: 5, pages: 50,
		seedIv: [2]float64{0.0119, 0.0121}, pageIv: [2]float64{0.011, 0.013},
		rival: "M5", over: "pages", dSeeds: [3]float64{-0.001, -0.0011, -0.0009},
		lowMR: "M4", rivalMR: "M5", verdictMR: "better", dPagesMR: [3]float64{-0.002, -0.003, -0.001}}

	r := base
	r.verdict, r.dPages = "indistinguishable", [3]float64{-0.001, -0.003, 0.001}
	s := one(t, recTable(r))
	has(t, "interval includes 0", s, "use M4 (with sampler const:0.05x, on 50 pages: mean KS κ = 1.2% (95% interval 1.1% to 1.3% over pages (bootstrap, 2,000 resamples of the 50 pages, each averaged over 5 seeds))",
		"the lowest mean among the consistent methods this scenario allows: M4 is indistinguishable from M5 (κ_M4 − κ_M5 = −0.10%, 95% interval −0.30% to 0.10% over pages, which includes 0)",
		"mean WMRD 0.20% (95% interval 0.18% to 0.22% over pages)")
	if strings.Count(s, "bootstrap") != 1 || strings.Contains(s, "% over 5 seeds") {
		t.Errorf("the bootstrap is described once and the seeds' interval not quoted where pages have one: %q", s)
	}

	r = base
	r.verdict, r.dPages = "better", [3]float64{-0.002, -0.003, -0.001}
	has(t, "below 0", one(t, recTable(r)), "allows: M4 beats M5 (κ_M4 − κ_M5 = −0.20%, 95% interval −0.30% to −0.10% over pages)")

	// The rival is the better one: it is the subject and the sign turns.
	r = base
	r.verdict, r.dPages = "worse", [3]float64{0.002, 0.001, 0.003}
	has(t, "above 0", one(t, recTable(r)), "M5 beats M4 (κ_M5 − κ_M4 = −0.20%, 95% interval −0.30% to −0.10% over pages)")

	r = base
	r.verdict, r.dPages = "negligible", [3]float64{-1.9e-6, -2.0e-6, -1.8e-6}
	s = one(t, recTable(r))
	if strings.Contains(s, "allows: M4 beats M5") {
		t.Errorf("negligible difference called a win: %q", s)
	}
	has(t, "negligible", s, "M4 and M5 differ consistently but negligibly (κ_M4 − κ_M5 = −0.00019%")

	// Identical on every page and seed (M4 and G-M4 on constant delays).
	r = base
	r.verdict, r.dPages = "indistinguishable", [3]float64{0, 0, 0}
	has(t, "identical", one(t, recTable(r)), "M4 and M5 give the same κ on every page and seed")

	// One page, five seeds: the seeds' interval, said to be the crawl's only.
	r = base
	r.pages, r.pageIv, r.over, r.verdict, r.dPages = 1, [2]float64{nan, nan}, "seeds", "better", [3]float64{nan, nan, nan}
	r.dPagesMR, r.verdictMR = [3]float64{nan, nan, nan}, ""
	has(t, "one page", one(t, recTable(r)), "mean KS κ = 1.2% (95% interval 1.2% to 1.2% over 5 seeds (one page: the crawl's randomness only))",
		"M4 beats M5 (κ_M4 − κ_M5 = −0.10%, 95% interval −0.11% to −0.090% over 5 seeds)")

	// One page, one seed: no interval, no verdict.
	r.seeds, r.seedIv, r.over, r.verdict, r.dSeeds = 1, [2]float64{nan, nan}, "", "", [3]float64{nan, nan, nan}
	s = one(t, recTable(r))
	has(t, "one seed", s, "mean KS κ = 1.2% (no interval: one page and one seed (--seeds R gives one over seeds))")
	if strings.Contains(s, "beats") || strings.Contains(s, "indistinguishable") {
		t.Errorf("one page, one seed: %q claims a comparison", s)
	}

	// The second range has another lowest method: the ranking flips.
	r = base
	r.verdict, r.dPages = "better", [3]float64{-0.002, -0.003, -0.001}
	r.lowMR, r.rivalMR, r.verdictMR, r.dPagesMR = "M5", "M5", "worse", [3]float64{0.002, 0.001, 0.003}
	has(t, "flip", one(t, recTable(r)), "the ranking by κ flips: on this range M5's is the lowest (0.10%), on the default range M4's", "M5 beats M4 (κ_M5 − κ_M4 = −0.20%")
}

// A recommendation follows the measurement among the consistent
// methods: when another consistent method beats the rule's, that one is
// used and the sentence says the rule named another; when the rule is
// kept with another lower, it says why and what keeping it costs
// (κ_rule − κ_lowest, written so). A biased method with a lower mean κ
// is never the one used: the sentence names it with its κ, the paired
// comparison when the row holds it, and why it is not recommended.
func TestFindingsRecommendationChoice(t *testing.T) {
	nan3 := [3]float64{math.NaN(), math.NaN(), math.NaN()}
	r := recRow{method: "M5", rule: "M4", choice: "measured best", lowest: "M5", lowestKS: 0.012, seeds: 1, pages: 50,
		seedIv: [2]float64{math.NaN(), math.NaN()}, pageIv: [2]float64{0.011, 0.013},
		rival: "M4", over: "pages", verdict: "better", dPages: [3]float64{-0.002, -0.003, -0.001}, dSeeds: nan3, lowerKS: math.NaN()}
	s := one(t, recTable(r))
	has(t, "measured best", s, "use M5 (", "the lowest mean among the consistent methods this scenario allows; its rule names M4 (docs/methods.md#recommendation), but M5 is measured better here: M5 beats M4 (κ_M5 − κ_M4 = −0.20%")
	if strings.Contains(s, "biased") {
		t.Errorf("no biased method is lower: %q", s)
	}

	// Random delays, no ages: G-M4 (biased) beats M6, the only consistent
	// method; M6 is used and G-M4 said lower, and why it is not used.
	r = recRow{method: "M6", rule: "M6", choice: "only consistent", lowest: "M6", lowestKS: 0.054, seeds: 1, pages: 50,
		seedIv: [2]float64{math.NaN(), math.NaN()}, pageIv: [2]float64{0.048, 0.059},
		rival: "G-M4", over: "pages", verdict: "worse", dPages: [3]float64{0.026, 0.021, 0.032}, dSeeds: nan3,
		lower: "G-M4", lowerClass: "biased", lowerKS: 0.0078}
	s = one(t, recTable(r))
	has(t, "biased lower", s, "use M6 (", "the only consistent method this scenario allows; G-M4, biased in general (docs/methods.md#g-m4), has a lower mean κ here, 0.78% against M6's 1.2%: G-M4 beats M6 (κ_G-M4 − κ_M6 = −2.6%, 95% interval −3.2% to −2.1% over pages); it is not recommended, because its bias depends on the update process and the revisit rate: a lower error on these pages does not carry to others")
	if strings.Contains(s, "use G-M4") || strings.Count(s, "G-M4 beats M6") != 1 {
		t.Errorf("biased lower: %q", s)
	}
	// A Poisson baseline lower, compared with another consistent method.
	r = recRow{method: "M2", rule: "M2", choice: "lowest", lowest: "M2", lowestKS: 0.012, seeds: 1, pages: 50,
		seedIv: [2]float64{math.NaN(), math.NaN()}, pageIv: [2]float64{0.011, 0.013},
		rival: "M6", over: "pages", verdict: "better", dPages: [3]float64{-0.002, -0.003, -0.001}, dSeeds: nan3,
		lower: "naive", lowerClass: "Poisson baseline", lowerKS: 0.009}
	has(t, "baseline lower", one(t, recTable(r)), "the lowest mean among the consistent methods this scenario allows: M2 beats M6 (κ_M2 − κ_M6 = −0.20%",
		"; naive, a Poisson baseline, exact only for Poisson updates (docs/methods.md#naive), has a lower mean κ here, 0.90% against M2's 1.2%; it is not recommended")
	// With old M3 traces M5 is the only consistent method, compared with M3.
	r = recRow{method: "M5", rule: "M5", choice: "only consistent", lowest: "M5", lowestKS: 0.012, seeds: 1, pages: 50,
		seedIv: [2]float64{math.NaN(), math.NaN()}, pageIv: [2]float64{0.011, 0.013},
		rival: "M3", over: "pages", verdict: "better", dPages: [3]float64{-0.29, -0.32, -0.27}, dSeeds: nan3, lowerKS: math.NaN()}
	has(t, "old M3", one(t, recTable(r)), "the only consistent method this scenario allows: M5 beats M3 (κ_M5 − κ_M3 = −29%")

	r = recRow{method: "M4", rule: "M4", choice: "rule kept", lowest: "M5", lowestKS: 0.0119, seeds: 1, pages: 50,
		seedIv: [2]float64{math.NaN(), math.NaN()}, pageIv: [2]float64{0.011, 0.013},
		rival: "M5", over: "pages", verdict: "negligible", dPages: [3]float64{1.9e-6, 1.8e-6, 2.0e-6}, dSeeds: nan3, lowerKS: math.NaN()}
	s = one(t, recTable(r))
	has(t, "rule kept", s, "use M4 (", "(M5's mean κ is lower, 1.2%)", "M4 and M5 differ consistently but negligibly (κ_M4 − κ_M5 = 0.00019%",
		"M4, the scenario's method (docs/methods.md#recommendation), is kept because the data do not show M5 better, and keeping it costs 0.00019% of κ on average")
}

// F_U's recovery: each method's mean KS against the true F_U with its
// interval over pages; where it is poor (analysis' "poor"), the bins'
// width and the share of intervals shorter than one bin, and the reason.
func TestFindingsFRecovery(t *testing.T) {
	str := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.String} }
	flt := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.Float} }
	num := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.Int} }
	tb := tables.Table{ID: "f_recovery", Columns: []tables.Column{str("sampler"), str("method"), num("pages"), flt("mean KS"), flt("mean KS lo"), flt("mean KS hi"), str("interval over"),
		num("seeds"), num("resamples"), {Name: "median h", Unit: "h", Kind: tables.Duration}, {Name: "median share < h", Kind: tables.Percent}, str("quality")},
		Rows: [][]any{{"exp:20x", "M2", int64(50), 0.04, 0.03, 0.05, "pages", int64(1), int64(2000), 0.25, 0.12, ""},
			{"exp:20x", "M6", int64(50), 0.45, 0.36, 0.55, "pages", int64(1), int64(2000), 0.5, 0.318, "poor"}}}
	s := one(t, &tables.Bundle{Tables: []tables.Table{tb}})
	has(t, "F recovery", s, "mean KS against the true F_U of M2 4.0% with sampler exp:20x (95% interval 3.0% to 5.0% over pages (bootstrap, 2,000 resamples of the 50 pages, one seed each))",
		"M6 45% with sampler exp:20x (95% interval 36% to 55% over pages), poor: the derivative's bins (median h = 30 min) are wider than 31.8% of the median page's intervals",
		"(on 50 pages)", "g_U(0), E[U] and the whole recovered F_U are biased")
	if strings.Count(s, "poor") != 1 {
		t.Errorf("only M6 is poor: %q", s)
	}
	// M4 recovers the same F_U as M2: one clause names both.
	tb.Rows = append(tb.Rows[:1], append([][]any{{"exp:20x", "M4", int64(50), 0.04, 0.03, 0.05, "pages", int64(1), int64(2000), 0.25, 0.12, ""}}, tb.Rows[1:]...)...)
	has(t, "same recovery", one(t, &tables.Bundle{Tables: []tables.Table{tb}}), "of M2, M4 4.0% with sampler exp:20x (95% interval")
}

// Long memory is said as claimed, undecided (with why) or absent, with
// each estimator's own count and the medians of H beside it.
func TestFindingsLongMemory(t *testing.T) {
	num := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.Int} }
	flt := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.Float} }
	lrd := tables.Table{ID: "lrd_verdict", Title: "Long memory over every screened page (≥ 100 updates): the verdicts",
		Columns: []tables.Column{num("screened pages"), num("with a verdict"), num("long memory"), num("long memory, rate change removed"), num("undecided"), num("undecided: trend in the rate"),
			{Name: "trend, too few intervals to remove it", Kind: tables.Int, Doc: "of those, the pages with < 1,024 intervals: halves too short to remove the change"},
			num("undecided: estimators disagree"), num("undecided: an H outside [0, 1]"), num("no long memory"), num("local Whittle above 0.5"), num("DFA-1 above surrogates")},
		Rows: [][]any{{int64(352), int64(304), int64(120), int64(70), int64(148), int64(8), int64(6), int64(93), int64(47), int64(36), int64(226), int64(135)}}}
	hs := tables.Table{ID: "hurst_screened", Columns: []tables.Column{{Name: "estimator", Kind: tables.String}, flt("Q1"), flt("median"), flt("Q3")},
		Rows: [][]any{{"DFA-1", 0.53, 0.6912, 0.81}, {"local Whittle", 0.69, 0.77, 0.87}}}
	s := one(t, &tables.Bundle{Tables: []tables.Table{lrd, hs}})
	has(t, "long memory", s, "Long memory, over the 352 pages with ≥ 100 updates: long memory is claimed on 120 of the 304 with enough intervals (",
		"where the rate changes along the window, both again in each half once the intervals are time-rescaled: 70 of them)",
		"undecided on 148: 8 where the rate changes along the window and long memory is not found in both halves once the change is removed (6 of them with fewer than 1,024 intervals: halves too short to remove it), 93 where the two estimators disagree, 47 where an estimator's H lies outside [0, 1]",
		"no long memory on 36; 48 have fewer intervals",
		"local Whittle's interval lies above 0.5 on 226, DFA-1 lies above its surrogates on 135; median H",
		"median H: DFA-1 0.69 (quartiles 0.53–0.81), local Whittle 0.77 (quartiles 0.69–0.87).")
	lrd.Rows[0] = []any{int64(5), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0)}
	if s := one(t, &tables.Bundle{Tables: []tables.Table{lrd}}); !strings.Contains(s, "none of the 5 pages with ≥ 100 updates has enough intervals") || strings.Contains(s, "claimed") {
		t.Errorf("no page with H: %q", s)
	}
}
