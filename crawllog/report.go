package crawllog

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
)

// The estimate report: the tables and figures an estimate output holds
// for `revisit report`, in sections of their own (there is no truth, and
// the items are URLs): Inputs, Top URLs, Poisson verdict, Estimated G_U
// and F_U. As in every report, the values are in the estimate's unit
// (--unit): durations in columns and axes of kind tables.Duration, which
// `revisit report` shows in a unit chosen per column (and per axis) from
// their values while its CSVs keep them as they are; rates stay in the
// estimate's unit.

// estimateBundleOf is the tables and figures of an estimate output, with
// the URLs of the table, tops (keepTop: the first by visits, stably), and
// drawn those in the figures (keepDrawn).
func estimateBundleOf(m *EstimateMeta, tops []URLSummary, drawn []topURL) *tables.Bundle {
	u := m.UnitName
	var names []string
	for _, in := range m.Inputs {
		names = append(names, filepath.Base(in.Name))
	}
	src := fmt.Sprintf("visit logs %v; unit %s; h %s, x_max %s; constant delays within %d s", names, u,
		perURL(m.H, u), perURL(m.XMax, u), m.ConstTol)
	var b tables.Bundle
	b.Tables = append(b.Tables, inputsTable(m, src))
	// the top URLs by visits
	n := len(tops)
	t := tables.Table{ID: "estimate_urls", Title: fmt.Sprintf("Observed URLs: the %s with the most visits", human.Count(int64(n), "URL", "URLs")), Source: src, Section: tables.SectionTopURLs, Order: 1,
		Notes: []string{
			"No ground truth: what the crawler saw. G_U is estimated by M2 with Last-Modified, M4 for constant delays, M6 otherwise (docs/methods.md#observed); median age and KS on its monotone projection (docs/methods.md#monotone).",
			fmt.Sprintf("Grids: h and x_max per URL from the capture delays unless given; empty bins are those without a pair of visits, %s of all the URLs' bins (per URL in %s; docs/methods.md#observed-grid).", pct(m.EmptyShare), URLsFile),
			fmt.Sprintf("Verdict: KS distance between that estimate and the exponential of the poisson-mle rate; Poisson when ≤ %.2g, on %d or more changes seen (docs/methods.md#poisson-verdict).", PoissonVerdictKS, m.MinChanges),
		},
		Columns: []tables.Column{{Name: "URL", Kind: tables.String}, {Name: "visits", Kind: tables.Int}, {Name: "changes seen", Kind: tables.Int},
			{Name: "delays", Kind: tables.String}, {Name: "Δ", Unit: u, Kind: tables.Duration}, {Name: "span", Unit: u, Kind: tables.Duration},
			{Name: "poisson-mle λ̂", Unit: "1/" + u, Kind: tables.Float}, {Name: "G_U by", Kind: tables.String},
			{Name: "median age", Unit: u, Kind: tables.Duration, Doc: "smallest grid x with Ĝ_U(x) ≥ 1/2"},
			{Name: "KS to exponential", Kind: tables.Percent}, {Name: "verdict", Kind: tables.String},
			{Name: "empty bins", Kind: tables.Percent, Doc: "share of the grid's bins without a pair of visits (M6's W = 0)"}},
	}
	for _, s := range tops {
		d := math.NaN()
		if s.Delays == "constant" {
			d = s.Delta
		}
		t.Rows = append(t.Rows, []any{s.URL, tables.I(s.Visits), tables.I(s.Detections), s.Delays, tables.F(d), tables.F(s.Span),
			tables.F(s.Rate), s.Reference, tables.F(s.MedianAge), tables.F(s.KS), s.VerdictText(), tables.F(emptyShareOf(s))})
	}
	b.Tables = append(b.Tables, t)
	v := tables.Table{ID: "estimate_verdict", Title: "Poisson verdict over the observed URLs", Source: src, Section: tables.SectionVerdict, Order: 10,
		Notes: []string{fmt.Sprintf("A URL is Poisson when the KS distance between its estimated G_U and the exponential of its poisson-mle rate is at most %.2g; "+
			"undecided when it saw fewer than %d changes (--min-changes: below that a KS distance of %.2g cannot be told from 0 at the 5%% level, docs/methods.md#poisson-verdict) or either is undefined (e.g. every visit saw a change).",
			PoissonVerdictKS, m.MinChanges, PoissonVerdictKS)},
		Columns: []tables.Column{{Name: "verdict", Kind: tables.String}, {Name: "URLs", Kind: tables.Int}, {Name: "share", Kind: tables.Percent}}}
	share := func(n int) any { return tables.F(float64(n) / float64(max(m.Estimated, 1))) }
	for _, k := range []string{VerdictPoisson, VerdictNotPoisson, VerdictUndecided} {
		v.Rows = append(v.Rows, []any{k, tables.I(m.Verdicts[k]), share(m.Verdicts[k])})
	}
	v.Rows = append(v.Rows, []any{fmt.Sprintf("of which fewer than %d changes", m.MinChanges), tables.I(m.FewChanges), share(m.FewChanges)})
	b.Tables = append(b.Tables, v)
	for i, tu := range drawn {
		for _, kind := range []string{estimator.KindG, estimator.KindF} {
			b.Figures = append(b.Figures, curveFigure(m, src, i, tu, kind))
		}
	}
	return &b
}

// curveFigure is the figure of G_U or F_U (kind) of the i-th URL drawn:
// its reference estimate's, G-M4's and poisson-mle's projected curves, on
// [0, 1], the caption saying why any of them is not drawn.
func curveFigure(m *EstimateMeta, src string, i int, tu topURL, kind string) tables.Figure {
	u := m.UnitName
	fig := tables.Figure{ID: fmt.Sprintf("estimate_%s_%d", kind, i+1), Section: tables.SectionObservedCurve, Order: 10 + 2*i, Source: src,
		XLabel: "x", XUnit: u, YLabel: kind + "_U(x)", YKind: tables.YProbability}
	if kind == estimator.KindG {
		fig.Title = fmt.Sprintf("Estimated G_U of %s (%s)", tu.sum.URL, human.Count(int64(tu.sum.Visits), "visit", "visits"))
		fig.Caption = "Shown: each estimate's monotone projection onto a distribution function (least-squares non-decreasing fit, M6 weighted by its pairs per bin, clipped to [0, 1]; docs/methods.md#monotone); estimates.parquet holds the raw values."
	} else {
		fig.Title = fmt.Sprintf("Recovered F_U of %s (%s)", tu.sum.URL, human.Count(int64(tu.sum.Visits), "visit", "visits"))
		fig.Caption = "Shown: F_U recovered from the monotone projection of the estimated G_U, then projected itself (docs/methods.md#monotone); estimates.parquet holds F_U recovered from the raw G_U."
	}
	var absent []string
	for _, meth := range []string{tu.sum.Reference, estimator.MethodGM4, estimator.MethodPoissonMLE} {
		if meth == "" {
			continue
		}
		r := findRow(tu.est, meth, kind)
		if why := notDrawn(m, meth, kind, r, tu.est); why != "" {
			absent = append(absent, meth+" ("+why+")")
			continue
		}
		c := tables.Curve{Name: meth, X: r.CDF.X, Y: r.CDF.P, Dashed: meth == estimator.MethodPoissonMLE}
		if meth == estimator.MethodPoissonMLE {
			c.Name = fmt.Sprintf("poisson-mle (λ̂ = %.3g/%s)", r.Rate, u)
		}
		fig.Curves = append(fig.Curves, c)
	}
	if tu.sum.Reference == "" {
		absent = append([]string{"the consistent estimate of G_U (M2 with Last-Modified, M4 for constant delays, M6 otherwise: not among --methods)"}, absent...)
	}
	if len(absent) > 0 {
		fig.Caption += " Not drawn: " + strings.Join(absent, "; ") + "."
	}
	return fig
}

// notDrawn is why the row r of method meth and kind, among a URL's rows
// est, is not drawn ("" when it is): the method was not asked for, its
// F_U is not recovered, it does not apply to the URL's visits, or its
// curve is undefined (its note says why).
func notDrawn(m *EstimateMeta, meth, kind string, r *estimator.Estimate, est []estimator.Estimate) string {
	if r == nil {
		switch d, _ := (estimator.Registry{}).Lookup(meth); {
		case !slices.Contains(m.Methods, meth):
			return "not among --methods"
		case kind == estimator.KindF && findRow(est, meth, estimator.KindG) != nil && d.Recoverable:
			return "F_U not recovered: --no-recover"
		case kind == estimator.KindF && findRow(est, meth, estimator.KindG) != nil:
			return "no F_U: it is recovered from the consistent estimates of G_U only"
		}
		return "does not apply to these visits"
	}
	for _, p := range r.CDF.P {
		if !math.IsNaN(p) {
			return ""
		}
	}
	if r.Note != "" {
		return "undefined: " + r.Note
	}
	return "undefined"
}

// inputsTable is what the logs held and what became of it: per input its
// records and bad lines, then the captures read, those skipped by reason,
// merged (same second), the revisit records resolved and skipped, the
// resume keys passed over, the keys that merged several original URLs,
// and the URLs the estimate left out.
func inputsTable(m *EstimateMeta, src string) tables.Table {
	t := tables.Table{ID: "estimate_inputs", Title: "What the logs held and what was used", Source: src, Section: tables.SectionInputs, Order: 1,
		Notes:   []string{"Captures are visits with content; a capture is skipped, merged into another of the same second, or resolved (a revisit record) as counted here (docs/methods.md#observation-formats)."},
		Columns: []tables.Column{{Name: "what", Kind: tables.String}, {Name: "count", Kind: tables.Int}}}
	row := func(what string, n int64) { t.Rows = append(t.Rows, []any{what, n}) }
	var resume int64
	for _, in := range m.Inputs {
		row(fmt.Sprintf("input %s (%s, %s): records", filepath.Base(in.Name), in.Format, human.Bytes(in.Size)), in.Records)
		for _, k := range slices.Sorted(maps.Keys(in.Bad)) {
			row(fmt.Sprintf("input %s: bad lines skipped, %s", filepath.Base(in.Name), k), in.Bad[k])
		}
		resume += in.ResumeKeys
	}
	row("captures read", m.Captures)
	row("bad lines skipped (--skip-bad)", m.Bad)
	row("resume keys passed over (CDX server pagination)", resume)
	row("revisit records resolved (payload found earlier)", m.RevisitsResolved)
	label := map[string]string{
		"same_second":           "duplicates merged (another capture in the same second)",
		"status_3xx":            "skipped: status 3xx (redirect)",
		"status_4xx":            "skipped: status 4xx other than an absent page",
		"status_5xx":            "skipped: status 5xx",
		"status_other":          "skipped: other status",
		"absent_after_first":    "skipped: page absent after its first capture with content",
		"absent_unused":         "skipped: absent-page captures before the one used",
		"no_content":            "URLs without a capture with content",
		"revisit_unresolved":    "revisit records skipped: payload not found",
		"revisit_empty_payload": "revisit records skipped: empty payload",
		"fewer_than_2_visits":   "URLs left out: fewer than 2 visits",
		SkipNoMethod:            "URLs left out: no method their observations allow",
	}
	for _, k := range slices.Sorted(maps.Keys(m.Skipped)) {
		what, ok := label[k]
		switch {
		case ok:
		case strings.HasPrefix(k, "revisit_"):
			what = "revisit records skipped: of a capture skipped, " + strings.ReplaceAll(strings.TrimPrefix(k, "revisit_"), "_", " ")
		default:
			what = "skipped: " + strings.ReplaceAll(k, "_", " ")
		}
		row(what, m.Skipped[k])
	}
	row("keys grouping captures of several original URLs (SURT key)", m.MergedKeys)
	row("original URLs in those keys", m.MergedOriginals)
	row("URLs with a capture with content", m.URLs)
	row("URLs estimated", int64(m.Estimated))
	return t
}

// perURL prints a grid option: its value in the estimate's unit, or "per
// URL" when chosen per URL (0).
func perURL(v float64, unit string) string {
	if v == 0 {
		return "per URL"
	}
	return fmt.Sprintf("%g %s", v, unit)
}

// emptyShareOf is a URL's share of empty bins (NaN without bins).
func emptyShareOf(s URLSummary) float64 {
	if s.Bins == 0 {
		return math.NaN()
	}
	return float64(s.EmptyBins) / float64(s.Bins)
}

// pct prints a share as a percentage with one decimal.
func pct(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }
