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
	cols := []tables.Column{str("scenario"), str("method"), str("sampler"), flt("mean WMRD"), flt("mean KS"), str("best method measured"), flt("its mean WMRD"),
		num("pages"), str("lowest KS allowed"), flt("its mean KS"), str("rule"), str("choice"),
		num("seeds"), flt("mean KS lo"), flt("mean KS hi"), flt("mean WMRD lo"), flt("mean WMRD hi"),
		num("resamples"), flt("mean KS lo over pages"), flt("mean KS hi over pages"), flt("mean WMRD lo over pages"), flt("mean WMRD hi over pages")}
	cols = append(cols, versus("")...)
	cols = append(cols, flt("mean KS"+mr), flt("mean KS lo"+mr), flt("mean KS hi"+mr), flt("mean KS lo over pages"+mr), flt("mean KS hi over pages"+mr), str("lowest KS allowed"+mr), flt("its mean KS"+mr))
	cols = append(cols, versus(mr)...)
	nan := math.NaN()
	var out [][]any
	for _, r := range rows {
		sIv, pIv := r.seedIv, r.pageIv
		row := []any{"constant S, new measurement", r.method, "const:0.05x", 0.002, 0.012, r.lowest, 0.002, r.pages, r.lowest, r.lowestKS, r.rule, r.choice,
			r.seeds, sIv[0], sIv[1], sIv[0] / 6, sIv[1] / 6,
			int64(2000), pIv[0], pIv[1], pIv[0] / 6, pIv[1] / 6,
			r.rival, r.dSeeds[0], r.dSeeds[1], r.dSeeds[2], r.dPages[0], r.dPages[1], r.dPages[2], r.over, r.verdict,
			0.0012, sIv[0] / 10, sIv[1] / 10, pIv[0] / 10, pIv[1] / 10, r.lowMR, 0.0010,
			r.rivalMR, nan, nan, nan, r.dPagesMR[0], r.dPagesMR[1], r.dPagesMR[2], "pages", r.verdictMR}
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
		"the lowest mean among the methods this scenario allows: M4 is indistinguishable from M5 (κ_M4 − κ_M5 = −0.10%, 95% interval −0.30% to 0.10% over pages, which includes 0)",
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

// A recommendation follows the measurement: when another allowed method
// beats the rule's, that one is used and the sentence says the rule
// named another; when the rule is kept with another lower, it says why
// and what keeping it costs (κ_rule − κ_lowest, written so).
func TestFindingsRecommendationChoice(t *testing.T) {
	r := recRow{method: "M5", rule: "M4", choice: "measured best", lowest: "M5", lowestKS: 0.012, seeds: 1, pages: 50,
		seedIv: [2]float64{math.NaN(), math.NaN()}, pageIv: [2]float64{0.011, 0.013},
		rival: "M4", over: "pages", verdict: "better", dPages: [3]float64{-0.002, -0.003, -0.001}, dSeeds: [3]float64{math.NaN(), math.NaN(), math.NaN()}}
	has(t, "measured best", one(t, recTable(r)), "use M5 (", "its rule names M4 (docs/methods.md#recommendation), but M5 is measured better here: M5 beats M4 (κ_M5 − κ_M4 = −0.20%")
	// a biased method measured best is said to be biased in general
	b := recTable(r)
	b.Tables = append(b.Tables, tables.Table{ID: "method_evidence", Columns: []tables.Column{{Name: "sampler", Kind: tables.String}, {Name: "kind", Kind: tables.String},
		{Name: "method", Kind: tables.String}, {Name: "class", Kind: tables.String}}, Rows: [][]any{{"const:0.05x", "G", "M5", "biased"}}})
	var rec string
	for _, h := range Headline(b) {
		if strings.HasPrefix(h, "Scenario") {
			rec = h
		}
	}
	has(t, "biased measured best", rec, "(M5 is biased in general, docs/methods.md#m5: on these pages, at this sampler's rate, its bias costs less than the others' error)")

	r = recRow{method: "M4", rule: "M4", choice: "rule kept", lowest: "M5", lowestKS: 0.0119, seeds: 1, pages: 50,
		seedIv: [2]float64{math.NaN(), math.NaN()}, pageIv: [2]float64{0.011, 0.013},
		rival: "M5", over: "pages", verdict: "negligible", dPages: [3]float64{1.9e-6, 1.8e-6, 2.0e-6}, dSeeds: [3]float64{math.NaN(), math.NaN(), math.NaN()}}
	s := one(t, recTable(r))
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
		Columns: []tables.Column{num("screened pages"), num("with a verdict"), num("long memory"), num("undecided"), num("undecided: trend in the rate"),
			num("undecided: estimators disagree"), num("undecided: an H outside [0, 1]"), num("no long memory"), num("local Whittle above 0.5"), num("DFA-1 above surrogates")},
		Rows: [][]any{{int64(352), int64(304), int64(120), int64(148), int64(8), int64(93), int64(47), int64(36), int64(226), int64(135)}}}
	hs := tables.Table{ID: "hurst_screened", Columns: []tables.Column{{Name: "estimator", Kind: tables.String}, flt("Q1"), flt("median"), flt("Q3")},
		Rows: [][]any{{"DFA-1", 0.53, 0.6912, 0.81}, {"local Whittle", 0.69, 0.77, 0.87}}}
	s := one(t, &tables.Bundle{Tables: []tables.Table{lrd, hs}})
	has(t, "long memory", s, "Long memory, over the 352 pages with ≥ 100 updates: long memory is claimed on 120 of the 304 with enough intervals (",
		"undecided on 148: 8 with a trend in the rate, which long memory cannot be told apart from on one series, 93 where the two estimators disagree, 47 where an estimator's H lies outside [0, 1]",
		"no long memory on 36; 48 have fewer intervals",
		"local Whittle's interval lies above 0.5 on 226, DFA-1 lies above its surrogates on 135; median H",
		"median H: DFA-1 0.69 (quartiles 0.53–0.81), local Whittle 0.77 (quartiles 0.69–0.87).")
	lrd.Rows[0] = []any{int64(5), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0)}
	if s := one(t, &tables.Bundle{Tables: []tables.Table{lrd}}); !strings.Contains(s, "none of the 5 pages with ≥ 100 updates has enough intervals") || strings.Contains(s, "claimed") {
		t.Errorf("no page with H: %q", s)
	}
}
