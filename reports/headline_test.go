package reports

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

// findingsBundle holds one table of each kind Headline reads, with values
// chosen so that every sentence can be written by hand.
func findingsBundle() *tables.Bundle {
	str := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.String} }
	flt := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.Float} }
	num := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.Int} }
	return &tables.Bundle{Tables: []tables.Table{
		{ID: "analysis_corpus", Section: 1, Columns: []tables.Column{num("pages"), num("updates"), num("intervals"),
			{Name: "first", Kind: tables.Time}, {Name: "last", Kind: tables.Time}, {Name: "span", Kind: tables.Seconds}},
			// 2001-10-11T20:18:47Z to 2010-02-02T03:43:07Z: 262250660 s = 8.31 y.
			Rows: [][]any{{int64(1), int64(15179), int64(15178), int64(1002831527), int64(1265082187), 262250660.0}}},
		{ID: "poisson_screen", Columns: []tables.Column{num("pages"), num("≥ 100 updates"), num("|v − 1| ≤ 0.1"), num("in the band, KS p ≥ 0.05"), num("in the band, KS and Ljung–Box p ≥ 0.05"),
			num("all screened, KS p ≥ 0.05"), num("all screened, Ljung–Box p ≥ 0.05"), num("all screened, both p ≥ 0.05")},
			Rows: [][]any{{int64(500), int64(40), int64(7), int64(3), int64(1), int64(12), int64(30), int64(9)}}},
		{ID: "hurst_closest", Columns: []tables.Column{num("page_id"), str("title"), str("estimator"), flt("H"), flt("SE"), flt("95% low"), flt("95% high"), num("points")},
			Rows: [][]any{
				{int64(12), "Anarchism", "ACF power law", 0.7163, 0.02, 0.68, 0.76, int64(100)},
				{int64(12), "Anarchism", "DFA-1", 0.7305, 0.017, 0.697, 0.764, int64(20)},
				{int64(12), "Anarchism", "local Whittle", 0.8951, 0.022, 0.8521, 0.9379, int64(522)},
			}},
		{ID: "tail_fits_aggregate", Columns: []tables.Column{str("family"), str("parameters"), flt("log-likelihood"), flt("AIC"), flt("ΔAIC"), flt("KS"), num("n")},
			Rows: [][]any{
				{"pareto", "α=0.45 β=0.05", -15499.0, 31002.0, 0.0, 0.056, int64(15178)},
				{"lognormal", "μ=-1.3 σ=2.5", -15504.0, 31011.5, 9.5, 0.08, int64(15178)},
				{"exponential", "λ=0.21", -38985.0, 77972.0, 46970.0, 0.53, int64(15178)},
			}},
		{ID: "recommendation", Columns: []tables.Column{str("scenario"), str("method"), str("sampler"), flt("mean WMRD"), flt("mean KS"), str("lowest WMRD consistent"), flt("its mean WMRD"),
			num("pages"), str("lowest KS consistent"), flt("its mean KS")},
			Rows: [][]any{
				{"age available", "M2", "exp:2", 0.00066, 0.0016, "M2", 0.00066, int64(3), "M2", 0.0016},
				{"constant S, new measurement", "M4", "const:0.5", 0.0083, 0.012, "M6", 0.00034, int64(3), "M5", 0.0049},
			}},
		// All replayed pages: not what the findings cite.
		{ID: "method_errors", Columns: []tables.Column{str("sampler"), str("kind"), str("method"), num("pages"), flt("mean WMRD"), flt("median WMRD"), flt("mean KS"), flt("median KS"), num("undefined"), str("class")},
			Rows: [][]any{
				{"exp:2", "G", "naive", int64(9), 0.5, 0.5, 0.6, 0.6, int64(0), "Poisson baseline"},
				{"exp:2", "G", "M2", int64(9), 0.1, 0.1, 0.1, 0.1, int64(0), "unbiased"},
			}},
		{ID: "method_evidence", Title: "Method ranking by KS (κ) on the 3 replayed pages with ≥ 99 intervals",
			Columns: []tables.Column{str("sampler"), str("kind"), str("method"), num("pages"), flt("mean KS"), flt("median KS"),
				{Name: "mean WMRD", Kind: tables.Float, Doc: "WMRD on 0 ≤ x ≤ x_max = 12–40 h, the end of each page's replay grid"}, flt("median WMRD"), num("undefined"), str("class"), str("observes")},
			Rows: [][]any{
				{"exp:2", "G", "M2", int64(3), 0.01, 0.01, 0.002, 0.002, int64(0), "unbiased", "age"},
				{"exp:2", "G", "naive", int64(3), 0.3, 0.3, 0.08, 0.08, int64(0), "Poisson baseline", "comparison"},
				{"exp:2", "G", "age-mle", int64(3), 0.37, 0.37, 0.07, 0.07, int64(0), "Poisson baseline", "age"},
				{"exp:2", "F", "M2", int64(3), 0.0001, 0.0001, 0.0001, 0.0001, int64(0), "unbiased", "age"}, // kind F: not compared
			}},
		{ID: "staleness_summary", Columns: []tables.Column{str("statistic"), flt("S exact / S Poisson"), flt("Δ_ε exact / Δ_ε Poisson")},
			Rows: [][]any{
				{"min", 0.3, 0.8}, {"10%", 0.41, 0.9}, {"25%", 0.5, 1.1}, {"median", 0.617, 1.43},
				{"75%", 0.8, 2.0}, {"90%", 1.23, 3.14}, {"max", 2.0, 5.0}, {"pages", 116.0, 116.0},
			}},
	}}
}

// Every sentence, derived by hand from findingsBundle's cells: counts
// with separators, H with two decimals, errors in % with two significant
// digits (κ 0.0016 → 0.16 %, 0.012 → 1.2 %, M5's 0.0049 → 0.49 %; WMRD
// 0.00066 → 0.066 %, 0.0083 → 0.83 %), ratios with two significant digits
// (0.617 → 0.62, 1.23 → 1.2, 3.14 → 3.1). The cost of Poisson compares, by
// κ, the best baseline (naive, 0.3 → 30 %, below age-mle's 0.37) with M2
// (0.01 → 1.0 %): 30×, WMRD 0.08 → 8.0 % against 0.002 → 0.20 %, on the 3
// pages of method_evidence, never method_errors' 9 (whose numbers would
// give 60 % and 10 %).
func TestHeadlineSentences(t *testing.T) {
	want := []string{
		"The corpus holds 1 page with 15,179 updates, from 2001-10-11 to 2010-02-02 (8.3 y).",
		"Poisson screen: of the 40 pages with ≥ 100 updates, 7 lie in the band |v − 1| ≤ 0.1 (v = standard deviation / mean of a page's intervals, 1 for a Poisson process); of the 7 in the band, 3 are exponential by KS (p ≥ 0.05), and of those 3, 1 is also independent by Ljung–Box (p ≥ 0.05): 1 passes the screen. Over all 40 pages with ≥ 100 updates, in the band or not: 12 exponential by KS, 30 independent by Ljung–Box, 9 both.",
		"Long memory: on “Anarchism”, the page closest to Poisson (ranked by |v − 1| alone), the Hurst exponent is H = 0.73 by DFA-1 (95%: 0.70–0.76) and 0.90 by local Whittle (95%: 0.85–0.94); both intervals lie above 0.5, the value of a Poisson process: its intervals are long-range dependent.",
		"Tails: the pareto family fits the intervals of all pages together best by AIC (α=0.45 β=0.05), ahead of lognormal by ΔAIC = 9.5; the exponential, which a Poisson process implies, trails by ΔAIC = 46,970.",
		"Scenario “age available”: use M2 (with sampler exp:2, on 3 pages with ≥ 99 intervals: mean KS κ = 0.16%, the lowest among the consistent methods this scenario allows; mean WMRD 0.066% on 0 ≤ x ≤ x_max = 12–40 h, the end of each page's replay grid).",
		"Scenario “constant S, new measurement”: use M4 (with sampler const:0.5, on 3 pages with ≥ 99 intervals: mean KS κ = 1.2% (the lowest among the consistent methods this scenario allows is M5's, 0.49%); mean WMRD 0.83% on 0 ≤ x ≤ x_max = 12–40 h, the end of each page's replay grid).",
		"Cost of assuming Poisson when estimating G_U (3 pages with ≥ 99 intervals): with sampler exp:2 the best Poisson baseline (naive) has mean KS κ = 30% against 1.0% for M2, 30× larger (mean WMRD 8.0% against 0.20%); WMRD on 0 ≤ x ≤ x_max = 12–40 h, the end of each page's replay grid.",
		"Cost of assuming Poisson for a crawler (116 pages): at the median page the real staleness is 0.62× what the Poisson model predicts (10–90% of pages: 0.41–1.2×), and the longest revisit interval that keeps staleness within ε is 1.4× the Poisson model's (10–90% of pages: 0.90–3.1×): a crawler planned for Poisson revisits more often than needed.",
	}
	got := Headline(findingsBundle())
	if len(got) != len(want) {
		t.Errorf("%d sentences, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("sentence %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

// A table that is absent gives no sentence, and so does one that is not
// shaped as expected (staleness' "no page qualifies" variant, an empty
// screen): nothing is invented.
func TestHeadlineOmitsWhatIsAbsent(t *testing.T) {
	if got := Headline(nil); got != nil {
		t.Errorf("nil bundle: %q", got)
	}
	if got := Headline(&tables.Bundle{}); got != nil {
		t.Errorf("empty bundle: %q", got)
	}
	b := &tables.Bundle{Tables: []tables.Table{
		{ID: "staleness_summary", Columns: []tables.Column{{Name: "note", Kind: tables.String}}, Rows: [][]any{{"no page has ≥ 20 updates"}}},
		{ID: "poisson_screen", Columns: []tables.Column{{Name: "pages", Kind: tables.Int}}},
		{ID: "hurst_closest", Columns: []tables.Column{{Name: "title", Kind: tables.String}, {Name: "estimator", Kind: tables.String}, {Name: "H", Kind: tables.Float}}},
		{ID: "recommendation", Columns: []tables.Column{{Name: "scenario", Kind: tables.String}, {Name: "method", Kind: tables.String}, {Name: "mean WMRD", Kind: tables.Float}},
			Rows: [][]any{{"random S, no age", "M6", math.NaN()}}},
	}}
	got := Headline(b)
	want := []string{"Scenario “random S, no age”: the method for it is M6; its error was not measured in these results."}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", got, want)
	}
	// Errors measured, but every page too short to rank methods by (the
	// Yelp tips: at most 44 tips a business): say that, not "not measured".
	rec := tables.Table{ID: "recommendation", Columns: []tables.Column{{Name: "scenario", Kind: tables.String}, {Name: "method", Kind: tables.String},
		{Name: "sampler", Kind: tables.String}, {Name: "mean WMRD", Kind: tables.Float}, {Name: "mean KS", Kind: tables.Float},
		{Name: "lowest WMRD consistent", Kind: tables.String}, {Name: "its mean WMRD", Kind: tables.Float}},
		Rows: [][]any{{"age available", "M2", "", math.NaN(), math.NaN(), "too few (every replayed page < 99 intervals)", math.NaN()}}}
	got = Headline(&tables.Bundle{Tables: []tables.Table{rec}})
	if w := "Methods are not ranked and no recommendation is backed by these data: too few (every replayed page < 99 intervals)."; len(got) != 1 || got[0] != w {
		t.Errorf("got %q, want %q", got, w)
	}
	// No page with enough updates: the screen says so rather than "0 of 0".
	screen := tables.Table{ID: "poisson_screen", Columns: findingsBundle().Tables[1].Columns, Rows: [][]any{{int64(855), int64(0), int64(0), int64(0), int64(0)}}}
	got = Headline(&tables.Bundle{Tables: []tables.Table{screen}})
	if w := "Poisson screen: none of the 855 pages has ≥ 100 updates, so no page could be screened."; len(got) != 1 || got[0] != w {
		t.Errorf("got %q, want %q", got, w)
	}
}

// Several pages closest to Poisson: ranges and medians of H, and every
// page counted once: both intervals above 0.5 (page a), around it (b),
// the estimators disagreeing (c: DFA-1 above, Whittle around), both below
// (d), no H (e). Medians of 4: DFA-1 (0.50+0.60)/2 = 0.55, Whittle
// (0.52+0.55)/2 = 0.535 → 0.54.
func TestHeadlineHurstSeveralPages(t *testing.T) {
	cols := findingsBundle().Tables[2].Columns
	tb := tables.Table{ID: "hurst_closest", Columns: cols, Rows: [][]any{
		{int64(1), "a", "DFA-1", 0.70, 0.01, 0.66, 0.74, int64(20)},
		{int64(1), "a", "local Whittle", 0.80, 0.01, 0.70, 0.90, int64(20)},
		{int64(2), "b", "DFA-1", 0.50, 0.01, 0.45, 0.55, int64(20)},
		{int64(2), "b", "local Whittle", 0.52, 0.01, 0.40, 0.64, int64(20)},
		{int64(3), "c", "DFA-1", 0.60, 0.01, 0.52, 0.68, int64(20)},
		{int64(3), "c", "local Whittle", 0.55, 0.01, 0.45, 0.65, int64(20)},
		{int64(4), "d", "DFA-1", 0.40, 0.01, 0.35, 0.45, int64(20)},
		{int64(4), "d", "local Whittle", 0.45, 0.01, 0.41, 0.49, int64(20)},
		{int64(5), "e", "DFA-1", math.NaN(), math.NaN(), math.NaN(), math.NaN(), int64(0)},
		{int64(5), "e", "local Whittle", math.NaN(), math.NaN(), math.NaN(), math.NaN(), int64(0)},
	}}
	got := Headline(&tables.Bundle{Tables: []tables.Table{tb}})
	want := "Long memory: of the 5 pages closest to Poisson (ranked by |v − 1| alone, v = standard deviation / mean of the page's intervals), 4 have a Hurst exponent: DFA-1 gives H = 0.40–0.70 (median 0.55), local Whittle 0.45–0.80 (median 0.54); on 1 both 95% intervals lie above 0.5, the value of a Poisson process (long-range dependent intervals), on 1 both contain 0.5, on 1 both lie below 0.5 (anti-persistent intervals), on 1 DFA-1 and local Whittle disagree on the side of 0.5; 1 has fewer intervals than the estimators need."
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// The report opens with the findings: in index.html before the contents,
// each linking to its table, and in report.md under "## Findings".
func TestFindingsOpenTheReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	if err := Write(findingsBundle(), dir, Options{Title: "t"}); err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	s := string(html)
	f, c := strings.Index(s, `<section class="findings"`), strings.Index(s, `<nav class="toc"`)
	if f < 0 || c < 0 || f > c {
		t.Fatalf("findings at %d, contents at %d: findings must come first", f, c)
	}
	if !strings.Contains(s, `the end of each page&#39;s replay grid). <a href="#t-recommendation">(table)</a>`) {
		t.Error("the recommendation finding does not link to its table")
	}
	if !strings.Contains(s, `<strong>Cost of assuming Poisson when estimating G_U (3 pages with ≥ 99 intervals):</strong>`) {
		t.Error("the cost finding's lead, with its pages, is not set in bold")
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	m := string(md)
	if i, j := strings.Index(m, "## Findings"), strings.Index(m, "## 1 Corpus"); i < 0 || j < 0 || i > j {
		t.Errorf("report.md: findings at %d, first section at %d", i, j)
	}
	for _, h := range Headline(findingsBundle()) {
		if !strings.Contains(m, "- "+h) {
			t.Errorf("report.md lacks %q", h)
		}
	}
}

func TestErrPercent(t *testing.T) {
	cases := map[float64]string{
		0.000973: "0.097%", 0.0083: "0.83%", 0.0803: "8.0%", 0.43: "43%", 0.09996: "10%",
		0: "0%", 1.8: "180%", 9.73e-06: "0.00097%", math.NaN(): "—",
	}
	for f, want := range cases {
		if got := tables.ErrPercent(f); got != want {
			t.Errorf("tables.ErrPercent(%g) = %q, want %q", f, got, want)
		}
	}
}

// methodErrorsTable is a method_errors table of one page.
func methodErrorsTable() tables.Table {
	str := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.String} }
	flt := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.Float} }
	num := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.Int} }
	return tables.Table{ID: "method_errors", Columns: []tables.Column{str("sampler"), str("kind"), str("method"), num("pages"), flt("mean WMRD"), flt("median WMRD"), flt("mean KS"), flt("median KS"), num("undefined"), str("class")},
		Rows: [][]any{
			{"exp:2", "G", "naive", int64(1), 0.08, 0.08, 0.3, 0.3, int64(0), "Poisson baseline"},
			{"exp:2", "G", "M2", int64(1), 0.002, 0.002, 0.01, 0.01, int64(0), "unbiased"},
			{"exp:2", "G", "age-mle", int64(1), 0.07, 0.07, 0.37, 0.37, int64(0), "Poisson baseline"},
			{"exp:2", "F", "M2", int64(1), 0.0001, 0.0001, 0.05, 0.05, int64(0), "unbiased"},
		}}
}

// method_evidence puts KS first and is ranked by it, as the paper ranks
// methods: by KS, naive (0.30) comes before age-mle (0.37), though by
// WMRD age-mle (0.07) would lead naive (0.08).
func TestEvidenceTableRankedByKS(t *testing.T) {
	b := findingsBundle()
	ev := findTable(b, "method_evidence")
	ev.Rows[1], ev.Rows[2] = ev.Rows[2], ev.Rows[1] // age-mle before naive
	var order []string
	for _, r := range forPeople(ev).Rows {
		order = append(order, r[2].(string))
	}
	if w := "M2,naive,age-mle,M2"; strings.Join(order, ",") != w {
		t.Errorf("order %q, want %q", strings.Join(order, ","), w)
	}
}

// Method tables are ranked by error inside each (sampler, kind) group,
// groups in their first order, missing errors last; WMRD and KS print in
// %; the CSV keeps the producer's order and fractions.
func TestMethodTableRankedForPeople(t *testing.T) {
	tb := methodErrorsTable()
	tb.Rows = append(tb.Rows, []any{"exp:2", "G", "M6", int64(1), math.NaN(), math.NaN(), 0.2, 0.2, int64(1), "unbiased"})
	got := forPeople(&tb)
	var order []string
	for _, r := range got.Rows {
		order = append(order, r[1].(string)+" "+r[2].(string))
	}
	if w := "G M2,G age-mle,G naive,G M6,F M2"; strings.Join(order, ",") != w {
		t.Errorf("order %q, want %q", strings.Join(order, ","), w)
	}
	h := tables.HumanRows(got, tables.Report)
	if h[0][4] != "0.20%" || h[0][6] != "1.0%" || h[1][4] != "7.0%" || h[3][4] != "—" {
		t.Errorf("cells %q", h[:4])
	}
	// The input (what the CSV is written from) is untouched.
	if tb.Rows[0][2] != "naive" || tb.Columns[4].Kind != tables.Float {
		t.Error("forPeople changed its input")
	}
	var csv strings.Builder
	if err := WriteCSV(&csv, &tb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(csv.String(), "\nexp:2,G,naive,1,0.08,") {
		t.Errorf("CSV not in the producer's order or not raw:\n%s", csv.String())
	}
	// A method that appears twice in a group (simulate's rows per T) is not
	// a ranking: the order stays.
	sim := tables.Table{Columns: []tables.Column{{Name: "sampler", Kind: tables.String}, {Name: "method", Kind: tables.String}, {Name: "T", Kind: tables.Float}, {Name: "WMRD", Kind: tables.Float}},
		Rows: [][]any{{"exp:1", "M1", 10.0, 0.5}, {"exp:1", "M1", 100.0, 0.1}}}
	if r := forPeople(&sim).Rows; r[0][2] != 10.0 {
		t.Errorf("simulate-like table reordered: %v", r)
	}
}

// The HTML rules off each (sampler, kind) group of a ranked method table:
// methodErrorsTable has groups exp:2 G (3 rows) and exp:2 F.
func TestMethodTableGroupsRuledOff(t *testing.T) {
	me := methodErrorsTable()
	tb := forPeople(&me)
	if got := groupStarts(tb, len(tb.Rows)); fmt.Sprint(got) != "[false false false true]" {
		t.Errorf("group starts %v, want [false false false true]", got)
	}
}

// A hurst_closest table without a page_id column (read from a results
// directory written by hand or by another tool) gives its sentence, keyed
// by title alone, rather than a panic on the missing column.
func TestHeadlineHurstWithoutPageID(t *testing.T) {
	cols := []tables.Column{{Name: "title", Kind: tables.String}, {Name: "estimator", Kind: tables.String},
		{Name: "H", Kind: tables.Float}, {Name: "95% low", Kind: tables.Float}, {Name: "95% high", Kind: tables.Float}}
	b := &tables.Bundle{Tables: []tables.Table{{ID: "hurst_closest", Columns: cols, Rows: [][]any{
		{"a", "DFA-1", 0.70, 0.66, 0.74},
		{"a", "local Whittle", 0.80, 0.70, 0.90},
	}}}}
	got := Headline(b)
	want := "Long memory: on “a”, the page closest to Poisson (ranked by |v − 1| alone), the Hurst exponent is H = 0.70 by DFA-1 (95%: 0.66–0.74) and 0.80 by local Whittle (95%: 0.70–0.90); both intervals lie above 0.5, the value of a Poisson process: its intervals are long-range dependent."
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The long-memory sentence rests on every screened page when the
// analysis wrote hurst_screened (it then wins over hurst_closest):
// counts with separators, H with two decimals, the share above 0.5 with
// two significant digits (272/340 = 0.8 → 80 %, 289/341 → 85 %).
func TestHeadlineHurstScreened(t *testing.T) {
	cols := []tables.Column{{Name: "estimator", Kind: tables.String}, {Name: "screened pages", Kind: tables.Int}, {Name: "pages with H", Kind: tables.Int},
		{Name: "Q1", Kind: tables.Float}, {Name: "median", Kind: tables.Float}, {Name: "Q3", Kind: tables.Float},
		{Name: "95% above 0.5", Kind: tables.Int}, {Name: "share above", Kind: tables.Percent}, {Name: "95% contains 0.5", Kind: tables.Int}, {Name: "95% below 0.5", Kind: tables.Int}}
	b := findingsBundle()
	b.Tables = append(b.Tables, tables.Table{ID: "hurst_screened", Title: "Hurst exponent over every screened page (≥ 100 updates)", Columns: cols, Rows: [][]any{
		{"DFA-1", int64(1352), int64(1340), 0.6213, 0.7051, 0.8049, int64(1072), 1072.0 / 1340, int64(265), int64(3)},
		{"local Whittle", int64(1352), int64(341), 0.66, 0.7549, 0.84, int64(289), 289.0 / 341, int64(51), int64(1)},
	}})
	want := "Long memory, over every screened page: DFA-1 gives a Hurst exponent on 1,340 of the 1,352 pages with ≥ 100 updates: median H = 0.71 (quartiles 0.62–0.80), and its 95% interval lies above 0.5, the value of a Poisson process, on 1,072 of them (80%: long-range dependent intervals), below it on 3; local Whittle on 341: median H = 0.75 (quartiles 0.66–0.84), above 0.5 on 289 (85%), below on 1."
	got := Headline(b)
	if len(got) < 3 || got[2] != want {
		t.Fatalf("sentence 3:\n got %q\nwant %q", got[2], want)
	}
	for _, s := range got {
		if strings.HasPrefix(s, "Long memory: on") {
			t.Errorf("the closest page's sentence is still said: %q", s)
		}
	}
	// No page long enough for H: said, without numbers invented.
	b.Tables[len(b.Tables)-1].Rows = [][]any{
		{"DFA-1", int64(40), int64(0), math.NaN(), math.NaN(), math.NaN(), int64(0), math.NaN(), int64(0), int64(0)},
		{"local Whittle", int64(40), int64(0), math.NaN(), math.NaN(), math.NaN(), int64(0), math.NaN(), int64(0), int64(0)},
	}
	if got := Headline(b)[2]; got != "Long memory, over every screened page: none of the 40 pages with ≥ 100 updates has enough intervals for a Hurst exponent." {
		t.Errorf("no H: %q", got)
	}
}
