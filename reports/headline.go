package reports

import (
	"fmt"
	"math"
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
//   - poisson_screen: how many pages pass the Poisson screen, and at which
//     step the others drop out;
//   - hurst_closest (else screen_closest): what the Hurst exponent H (DFA-1
//     and local Whittle) says about long memory, by whether the 95 %
//     intervals lie above, below or around 0.5 (Poisson's value);
//   - tail_fits_aggregate (and tail_fits_top when it disagrees): which tail
//     family fits best by AIC, its lead, and the exponential's ΔAIC;
//   - recommendation: the method for each scenario with its mean WMRD, and
//     the best method measured when it is another;
//   - method_errors: the error of the best Poisson baseline against the
//     best method on G_U, per sampler;
//   - staleness_summary: the cost of assuming Poisson for a crawler, as
//     the median (and 10–90 % range over pages) of S exact / S Poisson
//     and Δ_ε exact / Δ_ε Poisson.
//
// A table that is absent, empty or not shaped as expected gives no
// sentence: nothing is guessed. Errors are printed in % with two
// significant digits (see errPercent). When a results directory appears
// twice in a merged bundle, the first table with an ID is used.
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
	if t := findTable(b, "hurst_closest"); t != nil && len(t.Rows) > 0 {
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
	if t := findTable(b, "recommendation"); t != nil {
		add(t.ID, recommendFindings(t)...)
	}
	if t := findTable(b, "method_errors"); t != nil {
		add(t.ID, baselineFinding(t))
	}
	if t := findTable(b, "staleness_summary"); t != nil {
		add(t.ID, stalenessFinding(t))
	}
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
	if f, ok := asFloat(cell(r, j)); ok {
		return f
	}
	return math.NaN()
}

func cellInt(r []any, j int) (int64, bool) { return asInt(cell(r, j)) }

func cellString(r []any, j int) string {
	s, _ := cell(r, j).(string)
	return s
}

// sig2 prints f rounded to two significant digits, in plain decimals
// with thousands separators (0.62, 1.4, 12, 7,300); 0.9989 prints as 1.0.
func sig2(f float64) string {
	if !finite(f) {
		return human.Float(f)
	}
	if f == 0 {
		return "0"
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 2, 64), 64)
	a := math.Abs(r)
	if a >= 100 {
		return human.Float(r)
	}
	dec := max(0, 1-int(math.Floor(math.Log10(a))))
	return strings.Replace(strconv.FormatFloat(r, 'f', dec, 64), "-", "−", 1)
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
		s += fmt.Sprintf(", from %s to %s", Human(tables.Time, first)[:10], Human(tables.Time, last)[:10])
		if span := cellFloat(r, col(t, "span")); finite(span) {
			s += " (" + human.Seconds(span) + ")"
		}
	}
	return s + "."
}

// screenFinding reads the one-row screen table: pages, pages with ≥ K
// updates, in the CoV band, passing KS, passing KS and Ljung–Box (the
// column names carry K and the band).
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
	what := "page"
	if n[1] != 1 {
		what = "pages"
	}
	s := fmt.Sprintf("Poisson screen: %s of the %s %s with %s pass", human.Comma(n[4]), human.Comma(n[1]), what, minUpd)
	if n[4] == 1 {
		s += "es"
	}
	return s + fmt.Sprintf(" (coefficient of variation %s: %s; exponential by KS, p ≥ 0.05: %s; also independent by Ljung–Box, p ≥ 0.05: %s).",
		band, human.Comma(n[2]), human.Comma(n[3]), human.Comma(n[4]))
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
		key := fmt.Sprint(cell(r, idi), "\x00", cellString(r, ti))
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
	h2 := func(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }
	if len(kept) == 1 {
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
		s := fmt.Sprintf("Long memory: on %s, the page closest to Poisson, the Hurst exponent is H = %s", quoteTitle(p.title), strings.Join(parts, " and "))
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
	s := fmt.Sprintf("Long memory: over the %d pages closest to Poisson, %s", len(kept), strings.Join(parts, ", "))
	above, around, known := 0, 0, 0
	for _, p := range kept {
		ds, ls := p.dfa.side(), p.lw.side()
		if ds == 2 || ls == 2 {
			continue
		}
		known++
		if ds == 1 && ls == 1 {
			above++
		}
		if ds == 0 && ls == 0 {
			around++
		}
	}
	if known > 0 {
		s += fmt.Sprintf("; on %d of %d both 95%% intervals lie above 0.5, the value of a Poisson process (long-range dependent intervals), on %d both contain 0.5", above, known, around)
	}
	return s + "."
}

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
		s += " (" + b.params + ")"
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

// recommendFindings gives one sentence per scenario of the recommendation
// table (scenario, method, sampler, mean WMRD, mean KS, best method
// measured, its mean WMRD).
func recommendFindings(t *tables.Table) []string {
	si, mi, spi, wi, bi, bwi := col(t, "scenario"), col(t, "method"), col(t, "sampler"), col(t, "mean WMRD"), col(t, "best method measured"), col(t, "its mean WMRD")
	if si < 0 || mi < 0 || wi < 0 {
		return nil
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
	var out []string
	for _, sc := range order {
		rs := rows[sc]
		method := cellString(rs[0], mi)
		if method == "" {
			continue
		}
		var errs, better []string
		agree := true
		for _, r := range rs {
			w := cellFloat(r, wi)
			sp := cellString(r, spi)
			if finite(w) {
				e := "mean WMRD " + errPercent(w)
				if sp != "" {
					e += " with sampler " + sp
				}
				errs = append(errs, e)
			}
			best, bw := cellString(r, bi), cellFloat(r, bwi)
			if best != "" && best != method && finite(bw) && (!finite(w) || bw < w) {
				agree = false
				b := best + "'s, " + errPercent(bw)
				if sp != "" {
					b += " with " + sp
				}
				better = append(better, b)
			}
		}
		s := fmt.Sprintf("Scenario “%s”: use %s", sc, method)
		if len(errs) == 0 {
			if note := cellString(rs[0], bi); strings.HasPrefix(note, "too few") {
				// measured, but on pages too short to rank methods by
				s += " (no error to back it: " + note + ")"
			} else {
				s += " (its error was not measured in these results)"
			}
		} else {
			s += " (" + strings.Join(errs, ", ")
			if agree && bi >= 0 {
				s += ", the lowest measured"
			}
			s += ")"
		}
		if len(better) > 0 {
			s += "; the lowest error measured is " + strings.Join(better, ", ")
		}
		out = append(out, s+".")
	}
	return out
}

// baselineFinding compares, per sampler, the best Poisson baseline with
// the best other method on G_U (kind G) in the method_errors table.
func baselineFinding(t *tables.Table) string {
	spi, ki, mi, wi, ci := col(t, "sampler"), col(t, "kind"), col(t, "method"), col(t, "mean WMRD"), col(t, "class")
	if spi < 0 || mi < 0 || wi < 0 || ci < 0 {
		return ""
	}
	type best struct {
		method string
		w      float64
	}
	var samplers []string
	base, other := map[string]best{}, map[string]best{}
	for _, r := range t.Rows {
		if ki >= 0 && cellString(r, ki) != "G" {
			continue
		}
		w := cellFloat(r, wi)
		if !finite(w) {
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
		if b, ok := m[sp]; !ok || w < b.w {
			m[sp] = best{cellString(r, mi), w}
		}
	}
	var parts []string
	for _, sp := range samplers {
		b, ok1 := base[sp]
		o, ok2 := other[sp]
		if !ok1 || !ok2 {
			continue
		}
		p := fmt.Sprintf("with sampler %s the best Poisson baseline (%s) has mean WMRD %s against %s for %s", sp, b.method, errPercent(b.w), errPercent(o.w), o.method)
		if o.w > 0 && b.w > o.w {
			p += fmt.Sprintf(", %s× larger", sig2(b.w/o.w))
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Cost of assuming Poisson when estimating G_U: " + strings.Join(parts, "; ") + "."
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
		return fmt.Sprintf(" (10–90%% of pages: %s–%s×)", sig2(lo), sig2(hi))
	}
	where := "at the median page"
	if n == 1 {
		where = "on the one page measured"
	}
	s := fmt.Sprintf("Cost of assuming Poisson for a crawler (%s): %s the real staleness is %s× what the Poisson model predicts%s, and the longest revisit interval that keeps staleness within ε is %s× the Poisson model's%s",
		human.Count(int64(n), "page", "pages"), where, sig2(ms), rng(si), sig2(md), rng(di))
	// Within 5 % of 1 the direction is noise: say nothing about it.
	switch {
	case md > 1.05:
		s += ": a crawler planned for Poisson revisits more often than needed"
	case md < 0.95:
		s += ": a crawler planned for Poisson leaves pages staler than planned"
	}
	return s + "."
}
