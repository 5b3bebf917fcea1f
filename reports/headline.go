package reports

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
)

// finding is one sentence of the headline and the table it was computed
// from (its ID), so that the HTML can link to it.
type finding struct {
	text, table string
}

// Headline returns the report's findings as plain sentences, each computed
// from the contents of one table of b (never from figures or prose):
//
//   - analysis_corpus: how many pages and updates, over which span;
//   - poisson_screen: the screen as the sequence it is (of the pages with
//     ≥ K updates, those in the CoV band; of those, those exponential by
//     KS; of those, those also independent by Ljung–Box), then each test
//     counted over every screened page;
//   - lrd_verdict (with hurst_screened's medians; else, from older
//     results, hurst_screened, hurst_closest or screen_closest): on how
//     many pages long memory is claimed, undecided (and why) or absent,
//     and each estimator's own count;
//   - tail_fits_aggregate (and tail_fits_top when it disagrees): which tail
//     family fits best by AIC, its lead, and the exponential's ΔAIC;
//   - recommendation (with method_evidence): the method for each scenario
//     and sampler, always consistent for G_U (the scenario's, or the
//     consistent measured best that beats it), its mean KS κ (the paper's
//     ranking) with its interval, how it compares with the other methods
//     the scenario allows (a biased one with a lower κ is named, with why
//     it is not recommended), its mean WMRD
//     on the range of x that method_evidence states, and the pages it
//     rests on;
//   - method_evidence: the three methods of lowest mean κ per sampler and
//     how often the first stays first over bootstrap resamples of the
//     pages; the error of the best Poisson baseline against the best other
//     method on G_U, per sampler, by κ (and WMRD), on the same pages;
//   - f_recovery: how far F_U recovered from G_U is from the truth, and
//     where it is poor, why;
//   - staleness_summary: the cost of assuming Poisson for a crawler, as
//     the median (and 10–90 % range over pages) of S exact / S Poisson
//     and Δ_ε exact / Δ_ε Poisson.
//
// A table that is absent, empty or not shaped as expected gives no
// sentence: nothing is guessed. Every method sentence rests on the same
// pages (those with enough intervals to rank methods) and says how many
// and how they were chosen; every interval says which variation it
// covers (seedfindings.go); when there are no such pages, one sentence
// says the evidence is too few, it comes last, and no method is ranked.
// Errors are printed in % with two significant digits (see errPercent).
// When a results directory appears twice in a merged bundle, the first
// table with an ID is used.
func Headline(b *tables.Bundle) []string {
	var out []string
	for _, f := range findings(b) {
		out = append(out, f.text)
	}
	return out
}

func findings(b *tables.Bundle) []finding {
	if b == nil {
		return nil
	}
	var out []finding
	add := func(id string, texts ...string) {
		for _, s := range texts {
			if s != "" {
				out = append(out, finding{s, id})
			}
		}
	}
	if t := findTable(b, "analysis_corpus"); t != nil {
		add(t.ID, corpusFinding(t))
	}
	if t := findTable(b, "poisson_screen"); t != nil {
		add(t.ID, screenFinding(t))
	}
	if t := findTable(b, "lrd_verdict"); t != nil && len(t.Rows) == 1 {
		add(t.ID, lrdFinding(t, findTable(b, "hurst_screened")))
	} else if t := findTable(b, "hurst_screened"); t != nil && len(t.Rows) > 0 {
		add(t.ID, hurstScreenedFinding(t))
	} else if t := findTable(b, "hurst_closest"); t != nil && len(t.Rows) > 0 {
		add(t.ID, hurstFinding(hurstFromLong(t)))
	} else if t := findTable(b, "screen_closest"); t != nil {
		add(t.ID, hurstFinding(hurstFromWide(t)))
	}
	// The top page's fit is told when there is no aggregate table, or
	// when it names another winner.
	agg := findTable(b, "tail_fits_aggregate")
	var aggBest string
	if agg != nil {
		var s string
		s, aggBest = tailFinding(agg, "the intervals of all pages together")
		add(agg.ID, s)
	}
	if t := findTable(b, "tail_fits_top"); t != nil {
		if s, best := tailFinding(t, "the top page's intervals"); agg == nil || (best != "" && best != aggBest) {
			add(t.ID, s)
		}
	}
	// Method errors rest on the evidence (the pages long enough to rank
	// methods, method_evidence); a sentence saying the evidence is too
	// few closes the findings, and nothing is claimed from it.
	var tooFew []finding
	ev := findTable(b, "method_evidence")
	if t := findTable(b, "recommendation"); t != nil {
		said, few := recommendFindings(t, ev)
		add(t.ID, said...)
		for _, s := range few {
			tooFew = append(tooFew, finding{s, t.ID})
		}
	}
	if ev != nil {
		add(ev.ID, rankingFinding(ev), baselineFinding(ev))
		if len(ev.Rows) == 0 && findTable(b, "recommendation") == nil {
			if _, why, ok := strings.Cut(ev.Title, ": "); ok {
				tooFew = append(tooFew, finding{fmt.Sprintf("Methods are not ranked and no recommendation is backed by these data: %s.", why), ev.ID})
			}
		}
	}
	if t := findTable(b, "f_recovery"); t != nil {
		add(t.ID, fRecoveryFinding(t))
	}
	if t := findTable(b, "staleness_summary"); t != nil {
		add(t.ID, stalenessFinding(t))
	}
	out = append(out, tooFew...)
	return out
}

func findTable(b *tables.Bundle, id string) *tables.Table {
	for i := range b.Tables {
		if b.Tables[i].ID == id {
			return &b.Tables[i]
		}
	}
	return nil
}

// col is the index of the column named name (exactly), or -1.
func col(t *tables.Table, name string) int {
	for j, c := range t.Columns {
		if c.Name == name {
			return j
		}
	}
	return -1
}

func cellFloat(r []any, j int) float64 {
	if f, ok := tables.AsFloat(tables.CellAt(r, j)); ok {
		return f
	}
	return math.NaN()
}

func cellInt(r []any, j int) (int64, bool) { return tables.AsInt(tables.CellAt(r, j)) }

func cellString(r []any, j int) string {
	s, _ := tables.CellAt(r, j).(string)
	return s
}

func corpusFinding(t *tables.Table) string {
	if len(t.Rows) != 1 {
		return ""
	}
	r := t.Rows[0]
	pages, ok1 := cellInt(r, col(t, "pages"))
	updates, ok2 := cellInt(r, col(t, "updates"))
	if !ok1 || !ok2 {
		return ""
	}
	s := fmt.Sprintf("The corpus holds %s with %s", human.Count(pages, "page", "pages"), human.Count(updates, "update", "updates"))
	first, okf := cellInt(r, col(t, "first"))
	last, okl := cellInt(r, col(t, "last"))
	if okf && okl && last > first {
		s += fmt.Sprintf(", from %s to %s", tables.Human(tables.Time, first)[:10], tables.Human(tables.Time, last)[:10])
		// span is in the column's unit (the run's, or seconds in bundles
		// written before it was).
		if j := col(t, "span"); j >= 0 {
			if per, _, ok := t.Columns[j].SecondsPerValue(); ok {
				if span := cellFloat(r, j) * per; finite(span) {
					s += " (" + human.Seconds(span) + ")"
				}
			}
		}
	}
	return s + "."
}

// screenFinding reads the one-row screen table: pages, pages with ≥ K
// updates, of those in the CoV band, of those passing KS, of those also
// passing Ljung–Box (the column names carry K and the band), and, when
// the table has them, each test counted over every screened page. It
// says the screen as the sequence it is ("of the 2 in the band, 1 …"),
// then the parallel counts.
func screenFinding(t *tables.Table) string {
	if len(t.Rows) != 1 || len(t.Columns) < 5 {
		return ""
	}
	r := t.Rows[0]
	var n [5]int64
	for j := range n {
		v, ok := cellInt(r, j)
		if !ok {
			return ""
		}
		n[j] = v
	}
	minUpd := t.Columns[1].Name // "≥ 100 updates"
	band := t.Columns[2].Name   // "|v − 1| ≤ 0.1"
	if n[1] == 0 {
		return fmt.Sprintf("Poisson screen: none of the %s has %s, so no page could be screened.", human.Count(n[0], "page", "pages"), minUpd)
	}
	pages := func(k int64) string { return human.Count(k, "page", "pages") }
	s := fmt.Sprintf("Poisson screen: of the %s with %s, %s %s in the band %s (v = standard deviation / mean of a page's intervals, 1 for a Poisson process)",
		pages(n[1]), minUpd, human.Comma(n[2]), map[bool]string{true: "lies", false: "lie"}[n[2] == 1], band)
	if n[2] > 0 {
		s += fmt.Sprintf("; of the %s in the band, %s exponential by KS (p ≥ 0.05)", human.Comma(n[2]), isAre(n[3]))
		if n[3] > 0 {
			s += fmt.Sprintf(", and of %s, %s also independent by Ljung–Box (p ≥ 0.05)", map[bool]string{true: "that one", false: "those " + human.Comma(n[3])}[n[3] == 1], isAre(n[4]))
		}
	}
	s += fmt.Sprintf(": %s %s the screen", human.Comma(n[4]), map[bool]string{true: "passes", false: "pass"}[n[4] == 1])
	all := [3]int{col(t, "all screened, KS p ≥ 0.05"), col(t, "all screened, Ljung–Box p ≥ 0.05"), col(t, "all screened, both p ≥ 0.05")}
	var a [3]int64
	ok := true
	for j, c := range all {
		v, okj := cellInt(r, c)
		a[j], ok = v, ok && okj
	}
	if ok {
		s += fmt.Sprintf(". Over all %s with %s, in the band or not: %s exponential by KS, %s independent by Ljung–Box, %s both", pages(n[1]), minUpd, human.Comma(a[0]), human.Comma(a[1]), human.Comma(a[2]))
	}
	return s + "."
}

// isAre is "1 is" or "3 are".
func isAre(n int64) string {
	if n == 1 {
		return "1 is"
	}
	return human.Comma(n) + " are"
}

// lrdFinding reads lrd_verdict (one row: screened pages, pages with both
// H, the counts of each verdict, trends, each estimator's own count) and
// hurst_screened (the medians and quartiles of H): where long memory is
// claimed, where it is undecided and why, where there is none, with
// each estimator's count; nothing is claimed of a page without both.
func lrdFinding(t, hs *tables.Table) string {
	c := sentence()(t, t.Rows[0])
	screened, with := c.n("screened pages"), c.n("with a verdict")
	if screened == 0 {
		return ""
	}
	pages := human.Count(screened, "page", "pages")
	if m := regexp.MustCompile(`≥ ([\d,]+) updates`).FindStringSubmatch(t.Title); m != nil {
		pages += " with ≥ " + m[1] + " updates"
	}
	if with == 0 {
		return fmt.Sprintf("Long memory: none of the %s has enough intervals for the Hurst estimators: undecided.", pages)
	}
	s := fmt.Sprintf("Long memory, over the %s: long memory is claimed on %s of the %s with enough intervals (local Whittle's 95%% interval above 0.5 and DFA-1 above its shuffled surrogates at p < 0.05; where the rate changes along the window, both again in each half once the intervals are time-rescaled: %s of them)",
		pages, human.Comma(c.n(lrdClaimedCol)), human.Comma(with), human.Comma(c.n(lrdRescaledCol)))
	if u := c.n("undecided"); u > 0 {
		var why []string
		trend := "where the rate changes along the window and long memory is not found in both halves once the change is removed"
		if short := c.n(lrdShortCol); short > 0 {
			few := "too short"
			if m := shortLimit.FindStringSubmatch(t.Columns[col(t, lrdShortCol)].Doc); m != nil {
				few = "with fewer than " + m[1] + " intervals: halves too short"
			}
			trend += fmt.Sprintf(" (%s of them %s to remove it)", human.Comma(short), few)
		}
		for _, w := range []struct{ col, text string }{
			{lrdTrendCol, trend},
			{lrdDisagreeCol, "where the two estimators disagree"},
			{lrdInvalidCol, "where an estimator's H lies outside [0, 1] (no stationary series has it)"},
		} {
			if n := c.n(w.col); n > 0 {
				why = append(why, human.Comma(n)+" "+w.text)
			}
		}
		s += fmt.Sprintf("; undecided on %s: %s", human.Comma(u), strings.Join(why, ", "))
	}
	s += fmt.Sprintf("; no long memory on %s", human.Comma(c.n(lrdNoneCol)))
	if n := screened - with; n > 0 {
		s += fmt.Sprintf("; %s %s fewer intervals than the estimators need", human.Comma(n), map[bool]string{true: "has", false: "have"}[n == 1])
	}
	s += fmt.Sprintf(". Each alone: local Whittle's interval lies above 0.5 on %s, DFA-1 lies above its surrogates on %s",
		human.Comma(c.n("local Whittle above 0.5")), human.Comma(c.n("DFA-1 above surrogates")))
	if hs != nil {
		var med []string
		for _, r := range hs.Rows {
			m, q1, q3 := cellFloat(r, col(hs, "median")), cellFloat(r, col(hs, "Q1")), cellFloat(r, col(hs, "Q3"))
			if finite(m) && finite(q1) && finite(q3) {
				med = append(med, fmt.Sprintf("%s %s (quartiles %s–%s)", cellString(r, col(hs, "estimator")), hurst2(m), hurst2(q1), hurst2(q3)))
			}
		}
		if len(med) > 0 {
			s += "; median H: " + strings.Join(med, ", ")
		}
	}
	return s + "."
}

// shortLimit reads, in the doc of lrd_verdict's column lrdShortCol,
// the number of intervals below which the halves are too short.
var shortLimit = regexp.MustCompile(`< ([\d,]+) intervals`)

// The verdict columns of lrd_verdict (analysis.LRDClaimed …).
const (
	lrdClaimedCol  = "long memory"
	lrdRescaledCol = "long memory, rate change removed"
	lrdShortCol    = "trend, too few intervals to remove it"
	lrdTrendCol    = "undecided: trend in the rate"
	lrdDisagreeCol = "undecided: estimators disagree"
	lrdNoneCol     = "no long memory"
	lrdInvalidCol  = "undecided: an H outside [0, 1]"
)

// hurstScreenedFinding reads hurst_screened (one row per estimator:
// screened pages, pages with H, Q1, median, Q3, 95% above / below 0.5,
// share above): the long-memory sentence over every screened page.
func hurstScreenedFinding(t *tables.Table) string {
	ei, si, ni := col(t, "estimator"), col(t, "screened pages"), col(t, "pages with H")
	q1, mi, q3 := col(t, "Q1"), col(t, "median"), col(t, "Q3")
	ai, bi, shi := col(t, "95% above 0.5"), col(t, "95% below 0.5"), col(t, "share above")
	if ei < 0 || si < 0 || ni < 0 || mi < 0 || ai < 0 || bi < 0 {
		return ""
	}
	screened, ok := cellInt(t.Rows[0], si)
	if !ok || screened == 0 {
		return ""
	}
	pages := human.Count(screened, "screened page", "screened pages")
	if m := regexp.MustCompile(`≥ ([\d,]+) updates`).FindStringSubmatch(t.Title); m != nil {
		pages = human.Count(screened, "page", "pages") + " with ≥ " + m[1] + " updates"
	}
	var parts []string
	for _, r := range t.Rows {
		n, _ := cellInt(r, ni)
		above, _ := cellInt(r, ai)
		below, _ := cellInt(r, bi)
		med := cellFloat(r, mi)
		if n == 0 || !finite(med) {
			continue
		}
		share := float64(above) / float64(n)
		if shi >= 0 && finite(cellFloat(r, shi)) {
			share = cellFloat(r, shi)
		}
		q := ""
		if finite(cellFloat(r, q1)) && finite(cellFloat(r, q3)) {
			q = fmt.Sprintf(" (quartiles %s–%s)", hurst2(cellFloat(r, q1)), hurst2(cellFloat(r, q3)))
		}
		if len(parts) == 0 {
			parts = append(parts, fmt.Sprintf("%s gives a Hurst exponent on %s of the %s: median H = %s%s, and its 95%% interval lies above 0.5, the value of a Poisson process, on %s of them (%s%%: long-range dependent intervals), below it on %s",
				cellString(r, ei), human.Comma(n), pages, hurst2(med), q, human.Comma(above), tables.Sig2(100*share), human.Comma(below)))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s on %s: median H = %s%s, above 0.5 on %s (%s%%), below on %s",
			cellString(r, ei), human.Comma(n), hurst2(med), q, human.Comma(above), tables.Sig2(100*share), human.Comma(below)))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("Long memory, over every screened page: none of the %s has enough intervals for a Hurst exponent.", pages)
	}
	return "Long memory, over every screened page: " + strings.Join(parts, "; ") + "."
}

// hurst2 prints H with two decimals of the value as the table prints it
// (0.8951 → "0.895" → 0.90, never 0.89 next to the table's 0.895).
func hurst2(f float64) string {
	if v, err := strconv.ParseFloat(strings.ReplaceAll(human.Float(f), ",", ""), 64); err == nil {
		f = v
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}

// hurstEst is one page's H by one estimator, with its 95 % interval.
type hurstEst struct {
	h, lo, hi float64
}

// hurstPage is one page's DFA-1 and local Whittle estimates.
type hurstPage struct {
	title   string
	dfa, lw hurstEst
}

func hurstFromLong(t *tables.Table) []hurstPage {
	ti, ei, hi, loi, upi := col(t, "title"), col(t, "estimator"), col(t, "H"), col(t, "95% low"), col(t, "95% high")
	idi := col(t, "page_id")
	if ei < 0 || hi < 0 {
		return nil
	}
	var pages []hurstPage
	index := map[string]int{}
	for _, r := range t.Rows {
		key := fmt.Sprint(tables.CellAt(r, idi), "\x00", cellString(r, ti))
		k, ok := index[key]
		if !ok {
			k = len(pages)
			index[key] = k
			nan := hurstEst{math.NaN(), math.NaN(), math.NaN()}
			pages = append(pages, hurstPage{title: cellString(r, ti), dfa: nan, lw: nan})
		}
		e := hurstEst{cellFloat(r, hi), cellFloat(r, loi), cellFloat(r, upi)}
		switch cellString(r, ei) {
		case "DFA-1":
			pages[k].dfa = e
		case "local Whittle":
			pages[k].lw = e
		}
	}
	return pages
}

// hurstFromWide reads screen_closest's "H (DFA)" and "H (local Whittle)"
// columns (no intervals).
func hurstFromWide(t *tables.Table) []hurstPage {
	ti, di, li := col(t, "title"), col(t, "H (DFA)"), col(t, "H (local Whittle)")
	if di < 0 || li < 0 {
		return nil
	}
	var pages []hurstPage
	for _, r := range t.Rows {
		pages = append(pages, hurstPage{title: cellString(r, ti),
			dfa: hurstEst{cellFloat(r, di), math.NaN(), math.NaN()},
			lw:  hurstEst{cellFloat(r, li), math.NaN(), math.NaN()}})
	}
	return pages
}

// side tells where a 95 % interval lies against 0.5: +1 above, −1 below,
// 0 around it, 2 unknown.
func (e hurstEst) side() int {
	switch {
	case !finite(e.lo) || !finite(e.hi):
		return 2
	case e.lo > 0.5:
		return 1
	case e.hi < 0.5:
		return -1
	}
	return 0
}

func hurstFinding(pages []hurstPage) string {
	var kept []hurstPage
	for _, p := range pages {
		if finite(p.dfa.h) || finite(p.lw.h) {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	h2 := hurst2
	if len(pages) == 1 {
		p := kept[0]
		var parts []string
		for _, e := range []struct {
			name string
			e    hurstEst
		}{{"DFA-1", p.dfa}, {"local Whittle", p.lw}} {
			if !finite(e.e.h) {
				continue
			}
			s := h2(e.e.h) + " by " + e.name
			if e.e.side() != 2 {
				s += " (95%: " + h2(e.e.lo) + "–" + h2(e.e.hi) + ")"
			}
			parts = append(parts, s)
		}
		s := fmt.Sprintf("Long memory: on %s, the page closest to Poisson (ranked by |v − 1| alone), the Hurst exponent is H = %s", quoteTitle(p.title), strings.Join(parts, " and "))
		ds, ls := p.dfa.side(), p.lw.side()
		switch {
		case ds == 2 || ls == 2:
		case ds == 1 && ls == 1:
			s += "; both intervals lie above 0.5, the value of a Poisson process: its intervals are long-range dependent"
		case ds == -1 && ls == -1:
			s += "; both intervals lie below 0.5, the value of a Poisson process: its intervals are anti-persistent"
		case ds == 0 && ls == 0:
			s += "; both intervals contain 0.5, the value of a Poisson process: no sign of long memory"
		default:
			s += "; the two estimators disagree on whether H differs from 0.5, the value of a Poisson process"
		}
		return s + "."
	}
	rangeOf := func(get func(hurstPage) float64) string {
		var v []float64
		for _, p := range kept {
			if f := get(p); finite(f) {
				v = append(v, f)
			}
		}
		if len(v) == 0 {
			return ""
		}
		sort.Float64s(v)
		med := v[len(v)/2]
		if len(v)%2 == 0 {
			med = (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		return fmt.Sprintf("%s–%s (median %s)", h2(v[0]), h2(v[len(v)-1]), h2(med))
	}
	var parts []string
	if s := rangeOf(func(p hurstPage) float64 { return p.dfa.h }); s != "" {
		parts = append(parts, "DFA-1 gives H = "+s)
	}
	if s := rangeOf(func(p hurstPage) float64 { return p.lw.h }); s != "" {
		parts = append(parts, "local Whittle "+s)
	}
	s := fmt.Sprintf("Long memory: of the %d pages closest to Poisson (%s), %d have a Hurst exponent: %s", len(pages), closestDef, len(kept), strings.Join(parts, ", "))
	var above, around, below, split, unknown int
	for _, p := range kept {
		ds, ls := p.dfa.side(), p.lw.side()
		switch {
		case ds == 2 || ls == 2:
			unknown++
		case ds == 1 && ls == 1:
			above++
		case ds == 0 && ls == 0:
			around++
		case ds == -1 && ls == -1:
			below++
		default:
			split++
		}
	}
	var cases []string
	for _, c := range []struct {
		n    int
		what string
	}{
		{above, "both 95% intervals lie above 0.5, the value of a Poisson process (long-range dependent intervals)"},
		{around, "both contain 0.5"},
		{below, "both lie below 0.5 (anti-persistent intervals)"},
		{split, "DFA-1 and local Whittle disagree on the side of 0.5"},
		{unknown, "an interval is missing"},
	} {
		if c.n > 0 {
			cases = append(cases, fmt.Sprintf("on %d %s", c.n, c.what))
		}
	}
	if len(cases) > 0 {
		s += "; " + strings.Join(cases, ", ")
	}
	if n := len(pages) - len(kept); n > 0 {
		s += fmt.Sprintf("; %d %s fewer intervals than the estimators need", n, map[bool]string{true: "has", false: "have"}[n == 1])
	}
	return s + "."
}

// closestDef says what "closest to Poisson" ranks by.
const closestDef = "ranked by |v − 1| alone, v = standard deviation / mean of the page's intervals"

func quoteTitle(s string) string {
	if s == "" {
		return "the page"
	}
	return "“" + s + "”"
}

// tailFinding reads a fit table (family, parameters, …, AIC, ΔAIC, KS):
// the family with the least AIC, the runner-up's ΔAIC and the
// exponential's. best is the winning family's name.
func tailFinding(t *tables.Table, what string) (s, best string) {
	fi, pi, ai := col(t, "family"), col(t, "parameters"), col(t, "AIC")
	if fi < 0 || ai < 0 {
		return "", ""
	}
	type fit struct {
		family, params string
		aic            float64
	}
	var fits []fit
	for _, r := range t.Rows {
		if a := cellFloat(r, ai); finite(a) {
			fits = append(fits, fit{cellString(r, fi), cellString(r, pi), a})
		}
	}
	if len(fits) == 0 {
		return "", ""
	}
	sort.SliceStable(fits, func(i, j int) bool { return fits[i].aic < fits[j].aic })
	b := fits[0]
	s = fmt.Sprintf("Tails: the %s family fits %s best by AIC", b.family, what)
	if b.params != "" {
		s += " (" + tables.HumanParams(b.params) + ")"
	}
	if len(fits) > 1 {
		s += fmt.Sprintf(", ahead of %s by ΔAIC = %s", fits[1].family, human.Float(fits[1].aic-b.aic))
	}
	for _, f := range fits[1:] {
		if strings.HasPrefix(f.family, "exponential") && f.family != fits[1].family {
			s += fmt.Sprintf("; the exponential, which a Poisson process implies, trails by ΔAIC = %s", human.Float(f.aic-b.aic))
		}
	}
	if strings.HasPrefix(b.family, "exponential") {
		s += "; the exponential is what a Poisson process implies"
	}
	return s + ".", b.family
}

// evidencePages is the number of pages method_evidence rests on (its
// largest "pages" cell), 0 when unknown.
func evidencePages(ev *tables.Table) int64 {
	if ev == nil {
		return 0
	}
	var n int64
	pi := col(ev, "pages")
	for _, r := range ev.Rows {
		if p, ok := cellInt(r, pi); ok && p > n {
			n = p
		}
	}
	return n
}

// wmrdRange is the range of x on which method_evidence's WMRD was taken,
// from its "mean WMRD" column's doc ("WMRD on 0 ≤ x ≤ …"), or "".
func wmrdRange(ev *tables.Table) string {
	if ev == nil {
		return ""
	}
	if j := col(ev, "mean WMRD"); j >= 0 {
		if d, ok := strings.CutPrefix(ev.Columns[j].Doc, "WMRD on "); ok {
			return d
		}
	}
	return ""
}

// onPages is "N pages with ≥ K intervals" for the evidence, K read from
// method_evidence's title (analysis.MinEvidenceIntervals).
func onPages(n int64, ev *tables.Table) string {
	if n <= 0 {
		return ""
	}
	s := human.Count(n, "page", "pages")
	if ev == nil {
		return s
	}
	// the replay's page set, as its Source line states it
	if m := sampleOf.FindStringSubmatch(ev.Source); m != nil {
		return s + ", " + m[0]
	}
	if m := evidenceK.FindStringSubmatch(ev.Title); m != nil {
		s += " with ≥ " + m[1] + " intervals"
	}
	return s
}

var (
	evidenceK = regexp.MustCompile(`with ≥ ([0-9,]+) intervals`)
	sampleOf  = regexp.MustCompile(`a random sample \(seed \d+\) of the [0-9,]+ pages with ≥ [0-9,]+ intervals`)
)

// recommendFindings gives one sentence per scenario and sampler of the
// recommendation table: the method (analysis' Choice: among the
// consistent methods the scenario allows, the scenario's rule, or the
// measured best when another consistent method beats it), its mean KS κ
// with its interval, how it compares with the other methods (the lowest
// mean, or the only consistent one; or measured better than the rule's
// method; or the rule kept, why, and what keeping it costs), the biased
// method or Poisson baseline with a lower mean κ, if any, with its κ and
// why it is not recommended, its mean WMRD on the range ev states, the
// second range, and the pages the errors rest on. A scenario whose
// evidence is too few gives no claim: its sentence, in tooFew, only says
// so (one sentence when every scenario is too few).
func recommendFindings(t *tables.Table, ev *tables.Table) (said, tooFew []string) {
	si, mi, spi, wi, ki, bi := col(t, "scenario"), col(t, "method"), col(t, "sampler"), col(t, "mean WMRD"), col(t, "mean KS"), col(t, "lowest WMRD consistent")
	bki, bkv, pgi := col(t, "lowest KS consistent"), col(t, "its mean KS"), col(t, "pages")
	if si < 0 || mi < 0 || (wi < 0 && ki < 0) {
		return nil, nil
	}
	var order []string
	rows := map[string][][]any{}
	for _, r := range t.Rows {
		sc := cellString(r, si)
		if _, ok := rows[sc]; !ok {
			order = append(order, sc)
		}
		rows[sc] = append(rows[sc], r)
	}
	rng := wmrdRange(ev)
	evPages := evidencePages(ev)
	var few []string
	var fewNote string
	for _, sc := range order {
		rs := rows[sc]
		var parts []string
		row := sentence()
		for _, r := range rs {
			method := cellString(r, mi)
			w, k := cellFloat(r, wi), cellFloat(r, ki)
			if method == "" || (!finite(w) && !finite(k)) {
				continue
			}
			c := row(t, r)
			var p []string
			mr := " (" + rangeMean + ")"
			if finite(k) {
				p = append(p, "mean KS κ = "+tables.ErrPercent(k)+c.interval("mean KS", "")+choiceText(c, method, cellString(r, bki), cellFloat(r, bkv), k))
			}
			if finite(w) {
				e := "mean WMRD " + tables.ErrPercent(w)
				if rng != "" {
					e += " on " + rng
				}
				p = append(p, e+c.interval("mean WMRD", ""))
			}
			if km := c.f("mean KS" + mr); finite(km) {
				e := fmt.Sprintf("on %s: mean KS κ = %s%s", rangeMean, tables.ErrPercent(km), c.interval("mean KS", mr))
				best, low := cellString(r, bki), c.s("lowest KS consistent"+mr)
				if low != "" && best != "" && low != best {
					e += fmt.Sprintf(", and the ranking by κ flips: on this range %s's is the lowest (%s), on the default range %s's", low, tables.ErrPercent(c.f("its mean KS"+mr)), best)
				}
				if pair, ok := c.pair(method, mr); ok {
					e += ": " + pair
				}
				p = append(p, e)
			}
			head := ""
			if sp := cellString(r, spi); sp != "" {
				head = "with sampler " + sp
			}
			n := evPages
			if pg, ok := cellInt(r, pgi); ok && pg > 0 {
				n = pg
			}
			if on := onPages(n, ev); on != "" {
				if head != "" {
					head += ", "
				}
				head += "on " + on
			}
			if head != "" {
				head += ": "
			}
			parts = append(parts, fmt.Sprintf("use %s (%s%s)", method, head, strings.Join(p, "; ")))
		}
		if len(parts) > 0 {
			said = append(said, fmt.Sprintf("Scenario “%s”: %s.", sc, strings.Join(parts, "; ")))
			continue
		}
		if note := cellString(rs[0], bi); strings.HasPrefix(note, "too few") {
			few = append(few, sc)
			fewNote = note
		} else if method := cellString(rs[0], mi); method != "" {
			said = append(said, fmt.Sprintf("Scenario “%s”: the method for it is %s; its error was not measured in these results.", sc, method))
		}
	}
	switch {
	case len(few) == 0:
	case len(few) == len(order) && len(said) == 0:
		tooFew = append(tooFew, fmt.Sprintf("Methods are not ranked and no recommendation is backed by these data: %s.", fewNote))
	default:
		for _, sc := range few {
			tooFew = append(tooFew, fmt.Sprintf("Scenario “%s”: no error measured to back a method: too few intervals on the pages replayed with its samplers.", sc))
		}
	}
	return said, tooFew
}

// choiceText says how the recommended method compares with the other
// methods the scenario allows (the row's "choice", "rule", paired
// comparison and "lower biased"): ", the lowest mean among the
// consistent methods …: M2 beats M6 (…)"; ", the only consistent method
// …"; for a measured best, that the scenario's rule names another method
// and this one beats it; for a rule kept, that another's mean is lower,
// why the rule is kept (the difference is unresolved or negligible) and
// what it costs; then lowerText. best and bk are the lowest mean κ of the
// consistent methods and its method.
func choiceText(c *rowCtx, method, best string, bk, k float64) string {
	pair, paired := c.pair(method, "")
	lower := c.s("lower biased")
	if paired && lower != "" && c.s("compared with") == lower {
		paired = false // the pair is lowerText's
	}
	var s string
	switch c.s("choice") {
	case "measured best":
		s = fmt.Sprintf(", the lowest mean among the consistent methods this scenario allows; its rule names %s (docs/methods.md#recommendation), but %s is measured better here", c.s("rule"), method)
		if paired {
			s += ": " + pair
		}
	case "rule kept":
		s = fmt.Sprintf(" (%s's mean κ is lower, %s)", best, tables.ErrPercent(bk))
		if paired {
			s += fmt.Sprintf(": %s; %s, the scenario's method (docs/methods.md#recommendation), is kept because the data do not show %s better, and keeping it costs %s of κ on average", pair, method, best, tables.ErrPercent(c.cost()))
		} else {
			s += fmt.Sprintf(": with no interval to tell them apart, %s, the scenario's method (docs/methods.md#recommendation), is kept", method)
		}
	case "only consistent":
		s = ", the only consistent method this scenario allows"
		if paired {
			s += ": " + pair
		}
	default:
		switch {
		case paired:
			s = ", the lowest mean among the consistent methods this scenario allows: " + pair
		case best == method || (best != "" && finite(bk) && bk >= k):
			s = ", the lowest among the consistent methods this scenario allows"
		case best != "" && finite(bk):
			s = fmt.Sprintf(" (the lowest among the consistent methods this scenario allows is %s's, %s)", best, tables.ErrPercent(bk))
		}
	}
	return s + lowerText(c, method, k)
}

// lowerText is the clause on the row's "lower biased" method, a biased
// method or Poisson baseline whose mean κ is below the recommended one's
// (k): what it is, its κ against k, its paired comparison when the row
// holds it, and why it is not recommended; "" without one.
func lowerText(c *rowCtx, method string, k float64) string {
	lower := c.s("lower biased")
	if lower == "" {
		return ""
	}
	what := "biased in general"
	if c.s("lower biased class") == "Poisson baseline" {
		what = "a Poisson baseline, exact only for Poisson updates"
	}
	s := fmt.Sprintf("; %s, %s (docs/methods.md#%s), has a lower mean κ here, %s against %s's %s", lower, what, strings.ToLower(lower), tables.ErrPercent(c.f("lower biased mean KS")), method, tables.ErrPercent(k))
	if c.s("compared with") == lower {
		if pair, ok := c.pair(method, ""); ok {
			s += ": " + pair
		}
	}
	return s + "; it is not recommended, because its bias depends on the update process and the revisit rate: a lower error on these pages does not carry to others"
}

// rankingFinding reads method_evidence: per sampler, its three methods
// of lowest mean KS κ on G_U with their intervals, and how often the
// first has the lowest mean κ in the bootstrap resamples of the pages
// (with the method that wins most of the others): how stable the
// ranking is with other pages. No sentence without the resamples.
func rankingFinding(t *tables.Table) string {
	spi, ki, mi, ksi := col(t, "sampler"), col(t, "kind"), col(t, "method"), col(t, "mean KS")
	if spi < 0 || mi < 0 || ksi < 0 || col(t, "lowest KS in resamples") < 0 {
		return ""
	}
	var samplers []string
	by := map[string][][]any{}
	for _, r := range t.Rows {
		if ki >= 0 && cellString(r, ki) != "G" || !finite(cellFloat(r, ksi)) {
			continue
		}
		sp := cellString(r, spi)
		if _, ok := by[sp]; !ok {
			samplers = append(samplers, sp)
		}
		by[sp] = append(by[sp], r)
	}
	row := sentence()
	var parts []string
	for _, sp := range samplers {
		rs := by[sp]
		sort.SliceStable(rs, func(i, j int) bool { return cellFloat(rs[i], ksi) < cellFloat(rs[j], ksi) })
		first := row(t, rs[0])
		if first.n("resamples") == 0 || first.n("pages") < 2 {
			continue
		}
		var ms []string
		for _, r := range rs[:min(3, len(rs))] {
			c := row(t, r)
			ms = append(ms, fmt.Sprintf("%s %s%s", cellString(r, mi), tables.ErrPercent(cellFloat(r, ksi)), c.interval("mean KS", "")))
		}
		p := fmt.Sprintf("with sampler %s, %s", sp, strings.Join(ms, ", "))
		if len(rs) > 3 {
			p += ", then the others"
		}
		p += fmt.Sprintf("; %s has %s", cellString(rs[0], mi), first.winShare(""))
		var next []any
		var won int64
		for _, r := range rs[1:] {
			if w, ok := cellInt(r, col(t, "lowest KS in resamples")); ok && w > won {
				next, won = r, w
			}
		}
		if next != nil {
			p += fmt.Sprintf(" (%s in %s)", cellString(next, mi), human.Comma(won))
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	s := "Ranking by mean KS κ of G_U"
	if on := onPages(evidencePages(t), t); on != "" {
		s += " on " + on
	}
	return s + ": " + strings.Join(parts, "; ") + "."
}

// baselineFinding compares, per sampler, the Poisson baseline with the
// lowest mean KS κ with the other method of lowest κ on G_U (kind G) in
// method_evidence (the pages long enough to rank methods), with the two
// methods' mean WMRD on the range the table states, and the paired
// difference written best method − baseline.
func baselineFinding(t *tables.Table) string {
	spi, ki, mi, wi, ksi, ci := col(t, "sampler"), col(t, "kind"), col(t, "method"), col(t, "mean WMRD"), col(t, "mean KS"), col(t, "class")
	if spi < 0 || mi < 0 || ksi < 0 || ci < 0 {
		return ""
	}
	type best struct {
		method string
		k, w   float64
		row    []any
	}
	var samplers []string
	base, other := map[string]best{}, map[string]best{}
	for _, r := range t.Rows {
		if ki >= 0 && cellString(r, ki) != "G" {
			continue
		}
		k := cellFloat(r, ksi)
		if !finite(k) {
			continue
		}
		sp := cellString(r, spi)
		if _, ok := base[sp]; !ok {
			if _, ok := other[sp]; !ok {
				samplers = append(samplers, sp)
			}
		}
		m := base
		if cellString(r, ci) != "Poisson baseline" {
			m = other
		}
		if b, ok := m[sp]; !ok || k < b.k {
			m[sp] = best{cellString(r, mi), k, cellFloat(r, wi), r}
		}
	}
	var parts []string
	row := sentence()
	for _, sp := range samplers {
		b, ok1 := base[sp]
		o, ok2 := other[sp]
		if !ok1 || !ok2 {
			continue
		}
		bc, oc := row(t, b.row), row(t, o.row)
		bi := bc.interval("mean KS", "")
		p := fmt.Sprintf("with sampler %s the best Poisson baseline (%s) has mean KS κ = %s%s against %s%s for %s", sp, b.method, tables.ErrPercent(b.k), bi, tables.ErrPercent(o.k), oc.interval("mean KS", ""), o.method)
		if o.k > 0 && b.k > o.k {
			p += fmt.Sprintf(", %s× larger", tables.Sig2(b.k/o.k))
		}
		// the paired comparison of the two, from the row compared with the other
		for _, c := range []struct {
			ctx    *rowCtx
			m, oth string
		}{{oc, o.method, b.method}, {bc, b.method, o.method}} {
			if c.ctx.s("compared with") == c.oth {
				if s, ok := c.ctx.pair(c.m, ""); ok {
					p += ": " + s
				}
				break
			}
		}
		if finite(b.w) && finite(o.w) {
			p += fmt.Sprintf(" (mean WMRD %s against %s)", tables.ErrPercent(b.w), tables.ErrPercent(o.w))
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	s := "Cost of assuming Poisson when estimating G_U"
	if on := onPages(evidencePages(t), t); on != "" {
		s += " (" + on + ")"
	}
	s += ": " + strings.Join(parts, "; ")
	if rng := wmrdRange(t); rng != "" {
		s += "; WMRD on " + rng
	}
	return s + "."
}

// fRecoveryFinding reads f_recovery (per sampler and method: pages, mean
// KS of the recovered F_U against the truth with its interval, the median
// bin width h of the derivative, the median share of intervals shorter
// than h, and "poor"): how well F_U is recovered from the estimates of
// G_U, and where it is poor, why — the intervals shorter than one bin.
func fRecoveryFinding(t *tables.Table) string {
	if col(t, "mean KS") < 0 || col(t, "quality") < 0 || len(t.Rows) == 0 {
		return ""
	}
	row := sentence()
	// Methods whose recovery reads the same (under constant delays M2,
	// M4, M5 and M6 often give one F_U) share one clause.
	type clause struct {
		methods []string
		key     string // the clause's numbers as printed
		c       *rowCtx
		i       int // its first row
	}
	var clauses []clause
	poor := false
	var pages int64
	cells := tables.HumanRows(t, tables.Report) // shares as the table prints them
	share := func(i int) string { return cells[i][col(t, "median share < h")] }
	for i, r := range t.Rows {
		c := row(t, r)
		k := c.f("mean KS")
		if !finite(k) {
			continue
		}
		pages = max(pages, c.n("pages"))
		key := fmt.Sprintf("%s|%s|%s|%s|%s|%s|%s|%s", tables.ErrPercent(k), c.s("sampler"), tables.ErrPercent(c.f("mean KS lo")), tables.ErrPercent(c.f("mean KS hi")), c.s("interval over"),
			durationIn(t, "median h", c.f("median h")), share(i), c.s("quality"))
		if n := len(clauses); n > 0 && clauses[n-1].key == key {
			clauses[n-1].methods = append(clauses[n-1].methods, c.s("method"))
			continue
		}
		clauses = append(clauses, clause{[]string{c.s("method")}, key, c, i})
	}
	if len(clauses) == 0 {
		return ""
	}
	var parts []string
	for _, cl := range clauses {
		c := cl.c
		p := fmt.Sprintf("%s %s with sampler %s", strings.Join(cl.methods, ", "), tables.ErrPercent(c.f("mean KS")), c.s("sampler"))
		if lo, hi, over := c.f("mean KS lo"), c.f("mean KS hi"), c.s("interval over"); finite(lo) && finite(hi) && over != "" {
			p += fmt.Sprintf(" (95%% interval %s to %s %s)", tables.ErrPercent(lo), tables.ErrPercent(hi), c.over(over))
		}
		if c.s("quality") == "poor" {
			poor = true
			p += fmt.Sprintf(", poor: the derivative's bins (median h = %s) are wider than %s of the median page's intervals", durationIn(t, "median h", c.f("median h")), share(cl.i))
		}
		parts = append(parts, p)
	}
	s := fmt.Sprintf("F_U recovered from the estimates of G_U (docs/methods.md#recover) has mean KS against the true F_U of %s", strings.Join(parts, "; "))
	if pages > 0 {
		s += " (on " + human.Count(pages, "page", "pages") + ")"
	}
	if poor {
		s += "; the density g_U = (1 − F_U)/E[U] falls steeply within one bin where many intervals are shorter than it, and a derivative on bins of width h averages that fall away: g_U(0), E[U] and the whole recovered F_U are biased"
	}
	return s + "."
}

// durationIn prints the value v of t's duration column name as the
// table prints it: in the column's display unit, with its name.
func durationIn(t *tables.Table, name string, v float64) string {
	if unit, f, ok := t.DisplayUnit(col(t, name)); ok && finite(v) {
		return human.Plain(v*f) + " " + unit
	}
	return human.Float(v)
}

// stalenessFinding reads the staleness summary: quantile rows (min, 10%,
// …, median, …, max) and a "pages" row of the two ratios.
func stalenessFinding(t *tables.Table) string {
	sti, si, di := col(t, "statistic"), col(t, "S exact / S Poisson"), col(t, "Δ_ε exact / Δ_ε Poisson")
	if sti < 0 || si < 0 || di < 0 {
		return ""
	}
	get := func(stat string, j int) float64 {
		for _, r := range t.Rows {
			if cellString(r, sti) == stat {
				return cellFloat(r, j)
			}
		}
		return math.NaN()
	}
	n := get("pages", si)
	ms, md := get("median", si), get("median", di)
	if !finite(n) || n < 1 || !finite(ms) || !finite(md) {
		return ""
	}
	rng := func(j int) string {
		lo, hi := get("10%", j), get("90%", j)
		if n < 2 || !finite(lo) || !finite(hi) {
			return ""
		}
		return fmt.Sprintf(" (10–90%% of pages: %s–%s×)", tables.Sig2(lo), tables.Sig2(hi))
	}
	where := "at the median page"
	if n == 1 {
		where = "on the one page measured"
	}
	s := fmt.Sprintf("Cost of assuming Poisson for a crawler (%s): %s the real staleness is %s× what the Poisson model predicts%s, and the longest revisit interval that keeps staleness within ε is %s× the Poisson model's%s",
		human.Count(int64(n), "page", "pages"), where, tables.Sig2(ms), rng(si), tables.Sig2(md), rng(di))
	// Within 5 % of 1 the direction is noise: say nothing about it.
	switch {
	case md > 1.05:
		s += ": a crawler planned for Poisson revisits more often than needed"
	case md < 0.95:
		s += ": a crawler planned for Poisson leaves pages staler than planned"
	}
	return s + "."
}
