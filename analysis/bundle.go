package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/replay"
	"github.com/revisit-dev/revisit/series"
)

// pageStatsColumns are the columns of page_stats: the statistics of
// every page (Stats), then the screen's checks of every screened page
// (PageScreen; null for the pages not screened, and for a statistic with
// too few intervals or an H outside [0, 1], as screen_note says).
func pageStatsColumns(unit string) []tables.Column {
	return []tables.Column{
		{Name: "page_id", Kind: tables.Int},
		{Name: "source", Kind: tables.String},
		{Name: "source_id", Kind: tables.String, Doc: "the page's id in its source (MediaWiki page id, Yelp business id, a generic log's id values joined by /), to join back to it; empty for datasets written without it"},
		{Name: "title", Kind: tables.String},
		{Name: "group", Kind: tables.String},
		{Name: "n_updates", Kind: tables.Int, Doc: "n"},
		{Name: "mean_interval", Unit: unit, Kind: tables.Duration, Doc: "E[U]"},
		{Name: "var_interval", Unit: unit + "²", Kind: tables.Duration, Doc: varianceConvention},
		{Name: "cov", Kind: tables.Float, Doc: "v = sd(U)/E[U]"},
		{Name: "lifetime", Unit: unit, Kind: tables.Duration, Doc: "T = u_last − u_first"},
		{Name: "first", Kind: tables.Time},
		{Name: "last", Kind: tables.Time},
		{Name: "ks_d", Kind: tables.Float, Doc: "screened pages (≥ K updates): KS distance D to the exponential with fitted rate"},
		{Name: "ks_p", Kind: tables.Float, Doc: "Lilliefors Monte-Carlo p-value of D"},
		{Name: "rho1", Kind: tables.Float, Doc: "ρ(1), lag-1 autocorrelation of the intervals"},
		{Name: "ljung_box_q", Kind: tables.Float, Doc: "Ljung–Box Q on ρ(1…min(20, max lag))"},
		{Name: "ljung_box_p", Kind: tables.Float},
		{Name: "h_dfa", Kind: tables.Float, Doc: "Hurst exponent by DFA-1 (≥ 128 intervals, in [0, 1])"},
		{Name: "h_dfa_se", Kind: tables.Float},
		{Name: "h_dfa_lo", Kind: tables.Float, Doc: "95% interval H ± 1.96·SE"},
		{Name: "h_dfa_hi", Kind: tables.Float},
		{Name: "h_lw", Kind: tables.Float, Doc: "Hurst exponent by local Whittle (≥ 128 intervals, in [0, 1])"},
		{Name: "h_lw_se", Kind: tables.Float},
		{Name: "h_lw_lo", Kind: tables.Float, Doc: "95% interval H ± 1.96·SE"},
		{Name: "h_lw_hi", Kind: tables.Float},
		{Name: "h_dfa_p", Kind: tables.Float, Doc: "p-value of DFA-1's H against its shuffled surrogates (docs/methods.md#lrd)"},
		{Name: "trend_p", Kind: tables.Float, Doc: "p-value of the test of a change in the rate along the window (CUSUMs of the intervals' ranks and of the update times, Bonferroni), tested where both estimators find long memory (docs/methods.md#lrd)"},
		{Name: "lrd_halves", Kind: tables.Float, Doc: fmt.Sprintf("where trend_p < 0.05: in how many halves of the window (0, 1, 2) both estimators find long memory once the intervals are time-rescaled by their running median (null below %s intervals: halves too short)", human.Comma(2*lrdHalfMin))},
		{Name: "lrd", Kind: tables.String, Doc: "long memory, no long memory, undecided: trend in the rate, undecided: estimators disagree, undecided: an H outside [0, 1] (docs/methods.md#lrd)"},
		{Name: "screen_note", Kind: tables.String, Doc: "screened statistics left without a number, and why"},
	}
}

// varianceConvention states how Var[U] and v are computed.
const varianceConvention = "Var[U] is the sample variance of the page's n_U = updates − 1 intervals with divisor n_U − 1 (Bessel); v = sd(U)/E[U] with sd = √Var[U]"

// pageStatsRow is the page_stats row of a page; sc is its screen (nil:
// not screened, the screen's cells are null).
func pageStatsRow(s PageStats, sc *PageScreen) []any {
	row := []any{s.PageID, s.Source, s.SourceID, s.Title, s.Group, int64(s.Updates), s.Mean, s.Var, s.CoV, s.Lifetime, s.First, s.Last}
	if sc == nil {
		nan := math.NaN()
		return append(row, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, "", "")
	}
	halves := math.NaN()
	if sc.LRD.Halves >= 0 {
		halves = float64(sc.LRD.Halves)
	}
	return append(row, sc.KS, sc.KSP, sc.Rho1, sc.LjungQ, sc.LjungP,
		sc.DFA.H, sc.DFA.SE, sc.DFA.Lo, sc.DFA.Hi, sc.LW.H, sc.LW.SE, sc.LW.Lo, sc.LW.Hi, sc.LRD.DFAP, sc.LRD.TrendP, halves, sc.LRD.Verdict, sc.Note)
}

func (o *Options) source(res *Result) string {
	src := fmt.Sprintf("dataset %s (%d pages), unit %s, K = %d, CoV band ±%g, ACF lags 1…%d, seed %d, Monte-Carlo reps %d",
		o.Dataset, res.Pages, res.UnitName, o.MinUpdates, o.Band, o.MaxLag, o.Seed, o.Reps)
	if res.Selection != nil {
		src += "; " + res.Selection.Describe()
	}
	return src
}

func buildBundle(res *Result, o *Options, rows []EstimateRow) *tables.Bundle {
	b := &tables.Bundle{}
	src := o.source(res)
	u := res.UnitName

	// 1. corpus summary (what analysis saw).
	span := math.NaN()
	if res.Last > res.First {
		span = float64(res.Last-res.First) / res.Unit
	}
	b.Tables = append(b.Tables, tables.Table{
		ID: "analysis_corpus", Title: "Corpus as analysed", Source: src, Section: tables.SectionCorpus, Order: 5,
		Columns: []tables.Column{{Name: "pages", Kind: tables.Int}, {Name: "updates", Kind: tables.Int}, {Name: "intervals", Kind: tables.Int},
			{Name: "first", Kind: tables.Time}, {Name: "last", Kind: tables.Time}, {Name: "span", Unit: u, Kind: tables.Duration}},
		Rows: [][]any{{int64(res.Pages), res.Updates, res.Intervals, res.First, res.Last, span}},
	})

	// 2. top-N pages.
	top := tables.Table{
		ID: "top_pages", Title: fmt.Sprintf("Top-%d pages by number of updates", len(res.Top)), Source: src, Section: tables.SectionTopPages,
		Columns: []tables.Column{{Name: "rank", Kind: tables.Int}, {Name: "page_id", Kind: tables.Int}, {Name: "title", Kind: tables.String},
			{Name: "updates", Kind: tables.Int}, {Name: "E[U]", Unit: u, Kind: tables.Duration}, {Name: "v", Kind: tables.Float, Doc: "CoV sd/E"},
			{Name: "T", Unit: u, Kind: tables.Duration, Doc: "lifetime"}},
		Notes: []string{varianceConvention},
	}
	for i, s := range res.Top {
		top.Rows = append(top.Rows, []any{int64(i + 1), s.PageID, s.Title, int64(s.Updates), s.Mean, s.CoV, s.Lifetime})
	}
	b.Tables = append(b.Tables, top)

	// 3. tails.
	aggNote := fmt.Sprintf("aggregate: every interval of every page counts once; fits on a uniform sample of %s of %s intervals", human.Comma(int64(res.AggregateN)), human.Comma(res.Intervals))
	if len(res.Aggregate) > 0 || res.AggregateN > 0 {
		b.Tables = append(b.Tables, fitTable("tail_fits_aggregate", "Tail fits (MLE) to the aggregate of all intervals", src, res.UnitName, 1, res.Aggregate, res.AggregateFitN, []string{aggNote}))
		b.Figures = append(b.Figures, tailFigure("tail_aggregate", "Aggregate inter-update survival with fitted tails", src, 1, u, res.Survival, res.Aggregate, aggNote))
	}
	if len(res.Top) > 0 && res.Top[0].Intervals > 0 {
		t0 := res.Top[0]
		b.Tables = append(b.Tables, fitTable("tail_fits_top", fmt.Sprintf("Tail fits (MLE) to the top page, %s", human.Path(t0.Title)), src, res.UnitName, 2, res.TopFits, res.TopFitN, nil))
		b.Figures = append(b.Figures, tailFigure("tail_top", fmt.Sprintf("Inter-update survival of %s with fitted tails", human.Path(t0.Title)), src, 2, u, res.TopSurvival, res.TopFits, ""))
	}

	// 4. Poisson screen.
	b.Tables = append(b.Tables, tables.Table{
		ID: "poisson_screen", Title: "Poisson screen", Source: src, Section: tables.SectionScreen, Order: 1,
		Columns: []tables.Column{{Name: "pages", Kind: tables.Int}, {Name: fmt.Sprintf("≥ %d updates", o.MinUpdates), Kind: tables.Int, Doc: "the screened pages"},
			{Name: fmt.Sprintf("|v − 1| ≤ %g", o.Band), Kind: tables.Int, Doc: "of the screened pages: in the CoV band"},
			{Name: "in the band, KS p ≥ 0.05", Kind: tables.Int, Doc: "of those in the band: exponential by KS"},
			{Name: "in the band, KS and Ljung–Box p ≥ 0.05", Kind: tables.Int, Doc: "of those: also independent by Ljung–Box (the pages that pass the screen)"},
			{Name: "all screened, KS p ≥ 0.05", Kind: tables.Int, Doc: "of every screened page, in the band or not"},
			{Name: "all screened, Ljung–Box p ≥ 0.05", Kind: tables.Int, Doc: "of every screened page, in the band or not"},
			{Name: "all screened, both p ≥ 0.05", Kind: tables.Int, Doc: "of every screened page, in the band or not"}},
		Rows: [][]any{{int64(res.Pages), int64(res.Screened), int64(res.InBand), int64(countCands(res.Candidates, false)), int64(countCands(res.Candidates, true)),
			res.ScreenAll.KS, res.ScreenAll.LjungBox, res.ScreenAll.Both}},
		Notes: []string{"the screen is a sequence: the pages with ≥ K updates, of those the ones in the CoV band, of those the ones exponential by KS, of those the ones also independent by Ljung–Box; the columns 'all screened' count each test over every screened page instead (page_stats.csv has every p-value)",
			"KS: Lilliefors-style test against the exponential with fitted rate, Monte-Carlo p-value; Ljung–Box on ρ(1…20)",
			fmt.Sprintf("only pages with ≥ K = %d updates are screened (KS on ≥ %d intervals); Hurst exponents need ≥ %d intervals, and estimates outside [0, 1] are flagged, not reported", o.MinUpdates, max(o.MinUpdates-1, 3), MinHurstLen),
			varianceConvention},
	})
	b.Figures = append(b.Figures, covHistogram(res, src, o))
	b.Tables = append(b.Tables, hurstScreenedTable(res, src, o), lrdTable(res, src, o))
	b.Tables = append(b.Tables, candidateTable("screen_candidates", fmt.Sprintf("Pages with |v − 1| ≤ %g: goodness of fit and dependence", o.Band), src, 2, res.Candidates))
	closest := make([]CandidateRow, len(res.Closest))
	for i := range res.Closest {
		closest[i] = res.Closest[i].Row()
	}
	b.Tables = append(b.Tables, candidateTable("screen_closest", "The closest-to-Poisson pages", src, 3, closest))
	b.Tables = append(b.Tables, hurstTable(res.Closest, src))
	if len(res.Closest) > 0 {
		b.Figures = append(b.Figures, acfFigure(res.Closest, src, o))
	}

	// 5. method comparison.
	if len(res.PageErrors) > 0 {
		rsrc := src + "; " + res.ReplaySource
		b.Tables = append(b.Tables, summaryTable(res.Summary, rsrc, o, res.Unit))
		b.Tables = append(b.Tables, pageErrorsTable(res, o, true))
		b.Tables = append(b.Tables, evidenceTable(res, o, rsrc))
		b.Tables = append(b.Tables, recommendTable(res.Evidence, res.Summary, rsrc))
		if t, ok := fRecoveryTable(res, rsrc); ok {
			b.Tables = append(b.Tables, t)
		}
		b.Figures = append(b.Figures, methodFigures(res, rows, rsrc)...)
	} else if o.Replay != "" {
		// A replay of no page (a sample with no page long enough): the
		// evidence table alone, empty, says that methods cannot be ranked.
		b.Tables = append(b.Tables, evidenceTable(res, o, src+"; "+res.ReplaySource))
	}
	return b
}

func countCands(cs []CandidateRow, indep bool) int {
	n := 0
	for _, c := range cs {
		if c.KSP >= Significance && (!indep || c.LjungP >= Significance) {
			n++
		}
	}
	return n
}

// fitTable lists fits best AIC first; with no fits because the sample
// (n positive intervals) has fewer than MinFitIntervals, one row per
// family says "too few" and holds no number.
func fitTable(id, title, src, unit string, order int, fits []Fit, n int, notes []string) tables.Table {
	t := tables.Table{
		ID: id, Title: title, Source: src, Section: tables.SectionTails, Order: order,
		Notes: append(notes, "sorted by AIC = 2k − 2ℓ; ΔAIC against the best; KS = sup |F̂_n − F|", fmt.Sprintf("fits need at least %d positive intervals", MinFitIntervals)),
		Columns: []tables.Column{{Name: "family", Kind: tables.String}, {Name: "parameters", Kind: tables.String}, {Name: "log-likelihood", Kind: tables.Float},
			{Name: "AIC", Kind: tables.Float}, {Name: "ΔAIC", Kind: tables.Float}, {Name: "KS", Kind: tables.Float}, {Name: "n", Kind: tables.Int}},
	}
	if len(fits) == 0 && n < MinFitIntervals {
		nan := math.NaN()
		for _, f := range []string{FamilyExponential, FamilyPareto, FamilyWeibull, FamilyLognormal} {
			t.Rows = append(t.Rows, []any{f, tooFew(n, MinFitIntervals), nan, nan, nan, nan, int64(n)})
		}
		return t
	}
	for _, f := range fits {
		name := f.Family
		if f.Boundary {
			name += " (boundary)"
		}
		t.Rows = append(t.Rows, []any{name, f.ParamStringIn(unit), f.LogLik, f.AIC, f.AIC - fits[0].AIC, f.KS, int64(f.N)})
	}
	return t
}

func tailFigure(id, title, src string, order int, unit string, surv [][2]float64, fits []Fit, caption string) tables.Figure {
	f := tables.Figure{ID: id, Title: title, Source: src, Section: tables.SectionTails, Order: order,
		XLabel: "interval x", XUnit: unit, YLabel: "survival P(U ≥ x)", LogX: true, LogY: true, YKind: tables.YProbability, Caption: caption}
	var xs, ys []float64
	for _, p := range surv {
		xs = append(xs, p[0])
		ys = append(ys, p[1])
	}
	f.Curves = append(f.Curves, tables.Curve{Name: "empirical", X: xs, Y: ys, Points: true})
	if len(xs) > 0 {
		grid := logGrid(xs[0], xs[len(xs)-1], 100)
		for _, fit := range fits {
			c := tables.Curve{Name: fit.Family + " fit", Dashed: true, X: grid}
			for _, x := range grid {
				c.Y = append(c.Y, 1-fit.Dist.CDF(x))
			}
			f.Curves = append(f.Curves, c)
		}
	}
	return f
}

func logGrid(lo, hi float64, n int) []float64 {
	if lo <= 0 || hi <= lo {
		return []float64{lo}
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = lo * math.Pow(hi/lo, float64(i)/float64(n-1))
	}
	return out
}

// covBinWidth and covBins are the bins of the CoV histogram: width 0.1
// on [0, 5), the last bin holding every v ≥ 4.9.
const (
	covBinWidth = 0.1
	covBins     = 50
)

// covBin is the histogram bin of a screened page's v.
func covBin(v float64) int {
	i := int(v / covBinWidth)
	if i >= covBins {
		i = covBins - 1
	}
	return i
}

func covHistogram(res *Result, src string, o *Options) tables.Figure {
	const width, maxV = covBinWidth, covBinWidth * covBins
	nb := covBins
	counts := make([]float64, nb)
	edges := make([]float64, nb)
	for i := range edges {
		edges[i] = float64(i) * width
	}
	for i, c := range res.CoVCounts {
		counts[i] = float64(c)
	}
	return tables.Figure{ID: "cov_histogram", Title: fmt.Sprintf("Coefficient of variation of the pages with ≥ %d updates", o.MinUpdates), Source: src,
		Section: tables.SectionScreen, Order: 1, XLabel: "v = sd(U)/E[U]", YLabel: "pages", Bars: true,
		Curves:  []tables.Curve{{Name: "pages", X: edges, Y: counts, OpenLast: true}},
		Caption: fmt.Sprintf("bins of width %g; the last bin holds every v ≥ %g; exponential intervals have v = 1", width, maxV-width)}
}

func candidateTable(id, title, src string, order int, cs []CandidateRow) tables.Table {
	t := tables.Table{ID: id, Title: title, Source: src, Section: tables.SectionScreen, Order: order,
		Columns: []tables.Column{{Name: "page_id", Kind: tables.Int}, {Name: "title", Kind: tables.String}, {Name: "updates", Kind: tables.Int},
			{Name: "v", Kind: tables.Float}, {Name: "KS D", Kind: tables.Float}, {Name: "KS p", Kind: tables.Float},
			{Name: "ρ(1)", Kind: tables.Float}, {Name: "Ljung–Box p", Kind: tables.Float},
			{Name: "H (ACF)", Kind: tables.Float}, {Name: "H (DFA)", Kind: tables.Float}, {Name: "H (local Whittle)", Kind: tables.Float},
			{Name: "note", Kind: tables.String, Doc: "statistics left without a number, and why"}},
		Notes: []string{"KS p: Lilliefors-style Monte-Carlo p-value against the fitted exponential; H (ACF) = 1 − γ/2 from ρ(k) ≈ c k^{−γ} on the positive lags",
			fmt.Sprintf("— : no number, see the note: too few intervals (H needs ≥ %d), or an H outside [0, 1] (no valid Hurst exponent)", MinHurstLen)},
	}
	for _, c := range cs {
		t.Rows = append(t.Rows, []any{c.PageID, c.Title, int64(c.Updates), c.CoV, c.KS, c.KSP, c.Rho1, c.LjungP,
			c.HACF, c.HDFA, c.HLW, c.Note})
	}
	return t
}

// hurstScreenedTable summarizes the relied Hurst estimators over every
// screened page (HurstSummary, from page_stats): one row per estimator,
// with how often its own test finds long memory.
func hurstScreenedTable(res *Result, src string, o *Options) tables.Table {
	t := tables.Table{ID: "hurst_screened", Title: fmt.Sprintf("Hurst exponent over every screened page (≥ %d updates)", o.MinUpdates), Source: src, Section: tables.SectionScreen, Order: 2,
		Columns: []tables.Column{{Name: "estimator", Kind: tables.String}, {Name: "screened pages", Kind: tables.Int},
			{Name: "pages with H", Kind: tables.Int, Doc: fmt.Sprintf("≥ %d intervals and H in [0, 1]", MinHurstLen)},
			{Name: "Q1", Kind: tables.Float, Doc: "first quartile of H over the pages with H"}, {Name: "median", Kind: tables.Float}, {Name: "Q3", Kind: tables.Float},
			{Name: "long memory by its test", Kind: tables.Int, Doc: "local Whittle: the 95% interval H ± 1.96/(2√m) lies above 0.5; DFA-1: H above its shuffled surrogates, p < 0.05 (docs/methods.md#lrd)"},
			{Name: "share", Kind: tables.Percent, Doc: "of the pages with H"},
			{Name: "95% contains 0.5", Kind: tables.Int, Doc: "local Whittle only"}, {Name: "95% below 0.5", Kind: tables.Int, Doc: "local Whittle only: anti-persistent intervals"}},
		Notes: []string{"every screened page's H, its local Whittle interval, its DFA-1 surrogate p-value, the rate-change test, the rescaled halves and the verdict are in page_stats.parquet/.csv (columns h_dfa…, h_lw…, h_dfa_p, trend_p, lrd_halves, lrd); quartiles are exact (type 7: linear interpolation between order statistics)",
			"0.5 is the Hurst exponent of a Poisson process (independent intervals); the OLS error of the DFA-1 slope understates its uncertainty, so DFA-1 is tested against 99 shuffles of the page's intervals instead; alone, neither count is a claim of long memory: lrd_verdict combines them with the test of a change in the rate"},
	}
	for _, h := range res.HurstScreened {
		share := math.NaN()
		if h.N > 0 {
			share = float64(h.Above) / float64(h.N)
		}
		var around, below any = h.Around, h.Below
		if h.OneSided {
			around, below = nil, nil
		}
		t.Rows = append(t.Rows, []any{h.Method, int64(res.Screened), h.N, h.Q1, h.Median, h.Q3, h.Above, share, around, below})
	}
	return t
}

// lrdTable counts the long-memory verdicts over every screened page
// (LRDSummary), with each estimator's own count beside them.
func lrdTable(res *Result, src string, o *Options) tables.Table {
	l := res.LRD
	var lw, dfa int64
	for _, h := range res.HurstScreened {
		switch h.Method {
		case HurstLW:
			lw = h.Above
		case HurstDFA:
			dfa = h.Above
		}
	}
	n := func(name, doc string) tables.Column { return tables.Column{Name: name, Kind: tables.Int, Doc: doc} }
	return tables.Table{ID: "lrd_verdict", Title: fmt.Sprintf("Long memory over every screened page (≥ %d updates): the verdicts", o.MinUpdates), Source: src, Section: tables.SectionScreen, Order: 3,
		Columns: []tables.Column{n("screened pages", ""), n("with a verdict", fmt.Sprintf("≥ %d intervals", MinHurstLen)),
			n(LRDClaimed, "both tests find long memory, and where the rate changes along the window, both find it again in each half once the change is removed"),
			n(lrdRescaledCol, "of those, the pages whose rate changes: claimed on the time-rescaled halves"),
			n("undecided", "the three below (trend, disagree, H outside [0, 1])"),
			n(LRDTrend, "both tests find long memory, but the rate changes along the window, and they do not both find it in both time-rescaled halves"),
			n(lrdShortCol, fmt.Sprintf("of those, the pages with < %s intervals: halves too short to remove the change", human.Comma(2*lrdHalfMin))),
			n(LRDDisagree, "one test finds long memory, the other not"),
			n(LRDInvalid, "an estimator's H is no Hurst exponent of a stationary series"),
			n(LRDNone, "neither test finds long memory"),
			n("local Whittle above 0.5", "its 95% interval lies above 0.5"), n("DFA-1 above surrogates", "p < 0.05 against 99 shuffles")},
		Rows: [][]any{{l.Screened, l.Pages, l.Claimed, l.Rescaled, l.Trend + l.Disagree + l.Invalid, l.Trend, l.TrendShort, l.Disagree, l.Invalid, l.None, lw, dfa}},
		Notes: []string{"long memory is claimed only where local Whittle's 95% interval lies above 0.5 and DFA-1's H lies above its shuffled surrogates (p < 0.05), and, where the rate changes along the window, only where both still find it in each half of the window once the intervals are time-rescaled (docs/methods.md#lrd)",
			fmt.Sprintf("change of the rate, tested where both estimators find long memory (elsewhere it could not change the verdict): the CUSUM of the intervals' ranks, p < 0.05 against a Brownian bridge; then each half (≥ %d intervals) is divided by the running median of max(%d, a tenth of the half) intervals, and judged on its normal scores by local Whittle above the smoothed frequencies and by DFA-1 on box sizes below half the smoothing window", lrdHalfMin, lrdSmoothMin)},
	}
}

// lrd_verdict's counts of the pages claimed on their time-rescaled
// halves, and of the pages left undecided by a change of the rate that
// are too short to remove it.
const (
	lrdRescaledCol = "long memory, rate change removed"
	lrdShortCol    = "trend, too few intervals to remove it"
)

func hurstTable(cs []Candidate, src string) tables.Table {
	t := tables.Table{ID: "hurst_closest", Title: "Hurst exponent of the closest-to-Poisson pages, every estimator", Source: src, Section: tables.SectionScreen, Order: 4,
		Columns: []tables.Column{{Name: "page_id", Kind: tables.Int}, {Name: "title", Kind: tables.String}, {Name: "estimator", Kind: tables.String},
			{Name: "H", Kind: tables.Float}, {Name: "SE", Kind: tables.Float}, {Name: "95% low", Kind: tables.Float}, {Name: "95% high", Kind: tables.Float}, {Name: "points", Kind: tables.Int},
			{Name: "note", Kind: tables.String}},
		Notes: []string{"the report relies on DFA-1 and local Whittle (validated on exact FGN, n = 2¹⁶: within ±0.05 for H = 0.5, 0.7, 0.9); SEs of the regression estimators are OLS slope errors and understate the uncertainty",
			fmt.Sprintf("no number (see the note) below %d intervals, or for an estimate outside [0, 1]", MinHurstLen)},
	}
	for _, c := range cs {
		for _, h := range c.Hurst {
			t.Rows = append(t.Rows, []any{c.PageID, c.Title, h.Method, h.H, h.SE, h.Lo, h.Hi, int64(h.Points), h.Note})
		}
	}
	return t
}

func acfFigure(cs []Candidate, src string, o *Options) tables.Figure {
	f := tables.Figure{ID: "acf_closest", Title: "Autocorrelation of the intervals of the closest-to-Poisson pages, with power-law fits", Source: src,
		Section: tables.SectionScreen, Order: 2, XLabel: "lag k", YLabel: "ρ(k)", LogX: true, LogY: true, YKind: tables.YCorrelation,
		Caption: "points: ρ(k) > 0 (negative lags cannot be drawn on log axes and are left out of the fit); dashed: c·k^{−γ}, H = 1 − γ/2, drawn over the lags it was fitted on and only where it is at most 1"}
	for _, c := range cs {
		var xs, ys []float64
		for k := 1; k < len(c.ACF); k++ {
			if c.ACF[k] > 0 {
				xs = append(xs, float64(k))
				ys = append(ys, c.ACF[k])
			}
		}
		f.Curves = append(f.Curves, tables.Curve{Name: fmt.Sprintf("%s (v = %.2f)", c.Title, c.CoV), X: xs, Y: ys, Points: true})
		if !math.IsNaN(c.PowerLaw.Gamma) && len(xs) > 0 {
			f.Curves = append(f.Curves, acfFitCurve(c, xs[0], xs[len(xs)-1]))
		}
	}
	return f
}

// acfFitCurve is the power-law fit c·k^{−γ} of a candidate's ACF over the
// lags from k0 to k1 (those of the points it was fitted on), cut where it
// exceeds 1, which no correlation does: from the crossing k = c^{1/γ}
// when that lies inside. Its name gives H, or γ and why there is no H.
func acfFitCurve(c Candidate, k0, k1 float64) tables.Curve {
	pl := c.PowerLaw
	name := fmt.Sprintf("%s fit, γ = %.2f", c.Title, pl.Gamma)
	if h := c.HurstOf(HurstACF); !math.IsNaN(h.H) {
		name = fmt.Sprintf("%s fit, H = %.2f", c.Title, h.H)
	} else if strings.HasPrefix(h.Note, "H ") {
		name += " (" + h.Note + ")" // "H = 1.01 outside [0, 1]: …"
	} else if h.Note != "" {
		name += " (H: " + h.Note + ")" // "too few (…)"
	}
	fit := tables.Curve{Name: name, Dashed: true}
	kc := math.Pow(pl.C, 1/pl.Gamma) // c·k^{−γ} = 1
	for k := math.Ceil(k0); k <= k1; k++ {
		if k > kc && k-1 < kc && k-1 >= k0 {
			fit.X, fit.Y = append(fit.X, kc), append(fit.Y, 1)
		}
		if y := pl.C * math.Pow(k, -pl.Gamma); y <= 1 {
			fit.X, fit.Y = append(fit.X, k), append(fit.Y, y)
		}
	}
	return fit
}

func summaryTable(sum []MethodSummary, src string, o *Options, unit float64) tables.Table {
	t := tables.Table{ID: "method_errors", Title: "Method comparison: WMRD and KS against the true G_U (and F_U)", Source: src, Section: tables.SectionMethods, Order: 1,
		Columns: []tables.Column{{Name: "sampler", Kind: tables.String}, {Name: "kind", Kind: tables.String}, {Name: "method", Kind: tables.String},
			{Name: "pages", Kind: tables.Int}, {Name: "mean WMRD", Kind: tables.Float}, {Name: "median WMRD", Kind: tables.Float},
			{Name: "mean KS", Kind: tables.Float}, {Name: "median KS", Kind: tables.Float}, {Name: "undefined", Kind: tables.Int}, {Name: "class", Kind: tables.String}},
		Notes: []string{
			fmt.Sprintf("errors on [0, %s] against the exact G_U = Σ min(U_i, x)/Σ U_i of each page's intervals; WMRD = Σ|H − G|/Σ(H + G)/2, KS = max|H − G|", xmaxTextIn(o.XMax, unit)),
			meanRangeNote, seedsNote, pagesNote,
			fmt.Sprintf("G_U of the step estimates (M3, M4, M5, M6, G-M4): interpolated linearly between their grid points x_n and compared at %d extra points per step as well (docs/methods.md#errors), so their interpolation error counts; M1, M2, the Poisson baselines and every F_U: at the grid points x_n", max(o.Extra, 0)),
		},
	}
	t.Columns = append(t.Columns, seedColumns("mean WMRD", "mean KS", rangeMean)...)
	t.Columns = append(t.Columns, pageColumns("mean WMRD", "mean KS", rangeMean)...)
	for _, m := range sum {
		row := []any{m.Sampler, m.Kind, m.Method, int64(m.Pages), m.MeanWMRD, m.MedianWMRD, m.MeanKS, m.MedianKS, int64(m.Undefined), string(m.Class)}
		row = append(row, seedCells(m)...)
		t.Rows = append(t.Rows, append(row, pageCells(m)...))
	}
	return t
}

// rangeMean names the second range of the errors in column names.
var rangeMean = fmt.Sprintf("x ≤ %d·E[U]", estimator.MeanRange)

// meanRangeNote, seedsNote and pagesNote say what the columns of the
// second range and of the intervals hold.
var (
	meanRangeNote = fmt.Sprintf("columns marked (%s): the same errors on 0 ≤ x ≤ %d·E[U] of each page (or its x_max when smaller), where G_U still rises; the default range ends at x_max, the 0.99 quantile of G_U, whose long flat tail dilutes the errors (docs/methods.md#errors)", rangeMean, estimator.MeanRange)
	seedsNote     = "seeds: the replay's independent crawls R (--seeds); a mean is the mean over seeds r of E_r, the mean over pages in seed r, and lo–hi its 95% Student-t interval over the R values (none with one seed: --seeds R gives one; docs/methods.md#seeds): the crawl's randomness on these pages only"
	pagesNote     = fmt.Sprintf("over pages: the 95%% percentile interval of the mean over %s bootstrap resamples of the pages (seeded by --seed), each page's error its mean over the seeds: how the value would vary with other pages and other crawls (none with one page; docs/methods.md#seeds)", human.Comma(BootstrapResamples))
	versusNote    = "compared with, Δ KS: the paired difference κ_method − κ_compared (negative: the method's error is lower) with the method of lowest mean KS of its sampler and kind (for that method, the runner-up), over seeds and over pages; interval over: the interval the verdict is judged by (pages with two pages or more, else seeds); verdict: better or worse when that interval excludes 0 by more than 0.01 percentage points of κ, negligible when it excludes 0 by less, indistinguishable when it contains 0"
)

// seedColumns are the columns seedCells fills: R, the intervals of the
// two errors on the default range, then the errors and κ's interval on
// the second range.
func seedColumns(wmrd, ks, rng string) []tables.Column {
	f := func(name string) tables.Column { return tables.Column{Name: name, Kind: tables.Float} }
	return []tables.Column{{Name: "seeds", Kind: tables.Int, Doc: "R, independent crawls of every page"},
		f(wmrd + " lo"), f(wmrd + " hi"), f(ks + " lo"), f(ks + " hi"),
		f(wmrd + " (" + rng + ")"), f(ks + " (" + rng + ")"), f(ks + " lo (" + rng + ")"), f(ks + " hi (" + rng + ")")}
}

func seedCells(m MethodSummary) []any {
	return []any{int64(m.Seeds), m.WMRD.Lo, m.WMRD.Hi, m.KS.Lo, m.KS.Hi, m.WMRDMean.Mean, m.KSMean.Mean, m.KSMean.Lo, m.KSMean.Hi}
}

// pageColumns are the columns pageCells fills: the resamples of the page
// bootstrap, the intervals over pages of the two errors on the default
// range and of κ on the second, and the shares of resamples in which the
// method has the lowest mean κ of its sampler and kind.
func pageColumns(wmrd, ks, rng string) []tables.Column {
	f := func(name string) tables.Column { return tables.Column{Name: name, Kind: tables.Float} }
	won := "bootstrap resamples of the pages in which this method has the lowest mean KS of its sampler and kind"
	return []tables.Column{{Name: "resamples", Kind: tables.Int, Doc: "bootstrap resamples of the pages"},
		f(wmrd + " lo over pages"), f(wmrd + " hi over pages"), f(ks + " lo over pages"), f(ks + " hi over pages"),
		f(ks + " lo over pages (" + rng + ")"), f(ks + " hi over pages (" + rng + ")"),
		{Name: "lowest KS in resamples", Kind: tables.Int, Doc: won}, {Name: "lowest KS in resamples (" + rng + ")", Kind: tables.Int, Doc: won}}
}

func pageCells(m MethodSummary) []any {
	won := func(share float64) any {
		if math.IsNaN(share) {
			return nil
		}
		return int64(math.Round(share * float64(m.Boot.Resamples)))
	}
	return []any{int64(m.Boot.Resamples), m.ByPageWMRD.Lo, m.ByPageWMRD.Hi, m.ByPageKS.Lo, m.ByPageKS.Hi, m.ByPageKSMean.Lo, m.ByPageKSMean.Hi, won(m.WinKS), won(m.WinKSMean)}
}

// versusColumns are the columns versusCells fills for one range (suffix
// "" or " (x ≤ 10·E[U])"): the rival a method is compared with, the
// paired difference of their κ over seeds and over pages with its 95%
// intervals, the interval judged and the verdict.
func versusColumns(suffix string) []tables.Column {
	f := func(name string) tables.Column { return tables.Column{Name: name + suffix, Kind: tables.Float} }
	return []tables.Column{{Name: "compared with" + suffix, Kind: tables.String, Doc: "the method of lowest mean KS, or for that method the runner-up"},
		{Name: "Δ KS" + suffix, Kind: tables.Float, Doc: "mean over seeds of κ_method − κ_compared, paired by seed"},
		f("Δ KS lo"), f("Δ KS hi"),
		{Name: "Δ KS over pages" + suffix, Kind: tables.Float, Doc: "mean over pages of κ_method − κ_compared, paired by page (each page's mean over seeds)"},
		f("Δ KS lo over pages"), f("Δ KS hi over pages"),
		{Name: "interval over" + suffix, Kind: tables.String, Doc: "pages or seeds: the interval the verdict is judged by"},
		{Name: "verdict" + suffix, Kind: tables.String, Doc: "better, worse, indistinguishable or negligible (docs/methods.md#seeds)"}}
}

func versusCells(c comparison) []any {
	iv, over := c.decisive()
	verdict := ""
	if c.rival != "" {
		verdict = iv.Verdict()
	}
	return []any{c.rival, c.seeds.Mean, c.seeds.Lo, c.seeds.Hi, c.pages.Mean, c.pages.Lo, c.pages.Hi, over, verdict}
}

// xmaxTextIn is xmaxText for people: a given x_max (in units of unit
// seconds) in its display unit ("1,000 h" reads "41.67 d").
func xmaxTextIn(x, unit float64) string {
	if x <= 0 || !(unit > 0) {
		return xmaxText(x)
	}
	return human.Duration(x * unit)
}

func xmaxText(x float64) string {
	if x <= 0 {
		return "x_max of each page's replay grid"
	}
	return fmt.Sprintf("%g", x)
}

func pageErrorsTable(res *Result, o *Options, topOnly bool) tables.Table {
	t := tables.Table{ID: "page_errors", Title: "Errors per page, method and sampler", Source: o.source(res) + "; " + res.ReplaySource, Section: tables.SectionMethods, Order: 2,
		Columns: []tables.Column{{Name: "page_id", Kind: tables.Int}, {Name: "title", Kind: tables.String}, {Name: "sampler", Kind: tables.String},
			{Name: "kind", Kind: tables.String}, {Name: "method", Kind: tables.String},
			{Name: "seed", Kind: tables.Int, Doc: "the replay's seed index r (0 … R−1 with --seeds R; 0 with one seed), as in estimates.parquet"},
			{Name: "WMRD", Kind: tables.Float}, {Name: "KS", Kind: tables.Float},
			{Name: "points", Kind: tables.Int}, {Name: "x_max", Unit: res.UnitName, Kind: tables.Duration, Doc: "the last grid point compared: the page's x_max (the Source line's) rounded up to the sampler's grid step"}, {Name: "note", Kind: tables.String}}}
	for _, e := range res.PageErrors {
		t.Rows = append(t.Rows, []any{e.PageID, e.Title, e.Sampler, e.Kind, e.Method, int64(e.Seed), e.WMRD, e.KS, int64(e.Points), e.XMax, e.Note})
	}
	if topOnly && len(t.Rows) > 200 {
		t.Notes = append(t.Notes, fmt.Sprintf("first 200 of %d rows; all in page_errors.parquet/.csv", len(t.Rows)))
		t.Rows = t.Rows[:200]
	}
	return t
}

// evidenceTable is method_errors restricted to the evidence (the replayed
// pages with ≥ MinEvidenceIntervals intervals, EvidenceSummary), ranked
// as the paper ranks methods: by mean KS κ = max|H − G| inside each
// sampler and kind, then by mean WMRD. Its title says how many pages it
// rests on; the WMRD column's doc says on which range of x the WMRD was
// taken: x_max as the replay chose it over the evidence pages, written
// as the replay's Source line writes it (replay.XMaxText: one value, one
// unit). With no page long enough it has no rows.
func evidenceTable(res *Result, o *Options, src string) tables.Table {
	pages := map[int64]bool{}
	var xmax []float64
	for _, e := range res.PageErrors {
		if e.Intervals >= MinEvidenceIntervals && !pages[e.PageID] {
			pages[e.PageID] = true
			if e.PageXMax > 0 {
				xmax = append(xmax, e.PageXMax)
			}
		}
	}
	rng := "x_max, each page's replay grid"
	if len(xmax) > 0 {
		rule := replay.RuleXMaxAuto
		if o.XMax > 0 {
			rule = replay.RuleGiven
		}
		rng = "x_max, " + replay.XMaxText(rule, replay.SpreadOf(xmax), res.UnitName)
	}
	t := tables.Table{ID: "method_evidence", Source: src, Section: tables.SectionMethods, Order: 1,
		Title: fmt.Sprintf("Method ranking by KS (κ) on the %s with ≥ %d intervals", human.Count(int64(len(pages)), "replayed page", "replayed pages"), MinEvidenceIntervals),
		Columns: []tables.Column{{Name: "sampler", Kind: tables.String}, {Name: "kind", Kind: tables.String}, {Name: "method", Kind: tables.String},
			{Name: "pages", Kind: tables.Int}, {Name: "mean KS", Kind: tables.Float, Doc: "κ = max_x |H(x) − G(x)|, the paper's ranking (Table V)"},
			{Name: "median KS", Kind: tables.Float}, {Name: "mean WMRD", Kind: tables.Float, Doc: "WMRD on 0 ≤ x ≤ " + rng},
			{Name: "median WMRD", Kind: tables.Float}, {Name: "undefined", Kind: tables.Int}, {Name: "class", Kind: tables.String}, {Name: "observes", Kind: tables.String}},
		Notes: []string{fmt.Sprintf("only the replayed pages with ≥ %d intervals (shorter pages are no evidence for a ranking of methods); the method comparison above averages all replayed pages", MinEvidenceIntervals),
			meanRangeNote, seedsNote, pagesNote, versusNote},
	}
	t.Columns = append(t.Columns, seedColumns("mean WMRD", "mean KS", rangeMean)...)
	t.Columns = append(t.Columns, pageColumns("mean WMRD", "mean KS", rangeMean)...)
	t.Columns = append(t.Columns, versusColumns("")...)
	t.Columns = append(t.Columns, versusColumns(" ("+rangeMean+")")...)
	if len(pages) == 0 {
		t.Title = fmt.Sprintf("Method ranking by KS (κ): no replayed page has ≥ %d intervals, too few to rank methods", MinEvidenceIntervals)
	}
	ev := slices.Clone(res.Evidence)
	slices.SortStableFunc(ev, func(a, b MethodSummary) int {
		return cmp.Or(cmp.Compare(a.Sampler, b.Sampler), cmp.Compare(a.Kind, b.Kind), cmpNaNLast(a.MeanKS, b.MeanKS), cmpNaNLast(a.MeanWMRD, b.MeanWMRD))
	})
	for _, m := range ev {
		obs := "comparison"
		if m.Age {
			obs = "age"
		}
		var same []MethodSummary
		for _, o := range ev {
			if o.Sampler == m.Sampler && o.Kind == m.Kind {
				same = append(same, o)
			}
		}
		row := []any{m.Sampler, m.Kind, m.Method, int64(m.Pages), m.MeanKS, m.MedianKS, m.MeanWMRD, m.MedianWMRD, int64(m.Undefined), string(m.Class), obs}
		row = append(row, seedCells(m)...)
		row = append(row, pageCells(m)...)
		row = append(row, versusCells(versus(same, m.Method, defaultKS))...)
		t.Rows = append(t.Rows, append(row, versusCells(versus(same, m.Method, meanKS))...))
	}
	return t
}

// Scenarios are the four situations of SPEC §5's recommendation.
var Scenarios = []Scenario{
	{Age: true, Sampler: "random"},
	{Sampler: "constant"},
	{Sampler: "constant", OldM3: true},
	{Sampler: "random"},
}

// Describe is a short description of a scenario.
func (s Scenario) Describe() string {
	switch {
	case s.Age:
		return "age available"
	case s.OldM3:
		return "constant S, old M3 traces"
	case s.Sampler == "constant":
		return "constant S, new measurement"
	}
	return "random S, no age"
}

// recommendTable shows, per scenario and sampler, the recommended method
// (Choice: among the consistent methods the scenario allows, the
// scenario's rule unless another consistent method beats it) with the
// errors measured on the pages long enough to count (evidence, see
// EvidenceSummary): its mean WMRD and KS with their intervals over seeds
// and over pages, the consistent method with the lowest mean WMRD among
// those the scenario allows (Scenario.Allows) and its WMRD, the pages
// the errors rest on, the consistent method with the lowest mean KS κ
// and its κ, the paired comparison of Choice.Versus, and the method not
// consistent (biased, or a Poisson baseline) whose mean κ is below the
// recommended one's, with its class and κ (Choice.Lower). A scenario
// whose samplers were replayed only on shorter pages (all in all) says
// "too few" instead of a number.
func recommendTable(evidence, all []MethodSummary, src string) tables.Table {
	mr := " (" + rangeMean + ")"
	t := tables.Table{ID: "recommendation", Title: "Recommended method per scenario, with its measured error", Source: src, Section: tables.SectionMethods, Order: 3,
		Columns: []tables.Column{{Name: "scenario", Kind: tables.String}, {Name: "method", Kind: tables.String, Doc: "the recommended method: always consistent for G_U (docs/methods.md#recommendation)"}, {Name: "sampler", Kind: tables.String},
			{Name: "mean WMRD", Kind: tables.Float}, {Name: "mean KS", Kind: tables.Float}, {Name: "lowest WMRD consistent", Kind: tables.String}, {Name: "its mean WMRD", Kind: tables.Float},
			{Name: "pages", Kind: tables.Int}, {Name: "lowest KS consistent", Kind: tables.String}, {Name: "its mean KS", Kind: tables.Float},
			{Name: "rule", Kind: tables.String, Doc: "the scenario's method (docs/methods.md#recommendation)"},
			{Name: "choice", Kind: tables.String, Doc: "lowest: the rule's method has the lowest mean KS of the consistent methods allowed; only consistent: it is the only consistent method measured; measured best: another consistent method beats it and is recommended; rule kept: another consistent method has a lower mean KS, by a difference the interval does not resolve, or resolves as negligible"}},
		Notes: []string{fmt.Sprintf("errors averaged over the replayed pages with ≥ %d intervals; shorter pages are no evidence for a ranking of methods", MinEvidenceIntervals),
			"allowed: G_U estimates under a sampler of the scenario's kind, methods observing ages only when ages are available, and with old M3 traces only what M3's samples feed (M3, M5); only consistent methods (M2, M4, M5, M6) are recommended; lowest WMRD consistent, lowest KS consistent: the lowest mean WMRD, and the lowest mean KS, among the consistent methods allowed",
			"lower biased: the biased method or Poisson baseline allowed with the lowest mean KS, when that is below the recommended method's; it is not recommended, because its bias depends on the update process and the revisit rate: a lower error on these pages does not carry to others",
			meanRangeNote, seedsNote, pagesNote,
			"compared with, Δ KS: the recommended method against the rule's when they differ; the rule's against the lowest consistent method when the rule is kept with another lower (Δ KS ≥ 0: what keeping the rule costs); else the recommended method against the consistent runner-up, or, when it is the only consistent method, against the lowest of the others. Negative Δ KS: the recommended (or the rule's) method has the lower error; verdict as in method_evidence"}}
	t.Columns = append(t.Columns, tables.Column{Name: "seeds", Kind: tables.Int}, tables.Column{Name: "mean KS lo", Kind: tables.Float}, tables.Column{Name: "mean KS hi", Kind: tables.Float},
		tables.Column{Name: "mean WMRD lo", Kind: tables.Float}, tables.Column{Name: "mean WMRD hi", Kind: tables.Float},
		tables.Column{Name: "resamples", Kind: tables.Int}, tables.Column{Name: "mean KS lo over pages", Kind: tables.Float}, tables.Column{Name: "mean KS hi over pages", Kind: tables.Float},
		tables.Column{Name: "mean WMRD lo over pages", Kind: tables.Float}, tables.Column{Name: "mean WMRD hi over pages", Kind: tables.Float})
	t.Columns = append(t.Columns, versusColumns("")...)
	t.Columns = append(t.Columns, tables.Column{Name: "mean KS" + mr, Kind: tables.Float}, tables.Column{Name: "mean KS lo" + mr, Kind: tables.Float}, tables.Column{Name: "mean KS hi" + mr, Kind: tables.Float},
		tables.Column{Name: "mean KS lo over pages" + mr, Kind: tables.Float}, tables.Column{Name: "mean KS hi over pages" + mr, Kind: tables.Float},
		tables.Column{Name: "lowest KS consistent" + mr, Kind: tables.String}, tables.Column{Name: "its mean KS" + mr, Kind: tables.Float})
	t.Columns = append(t.Columns, versusColumns(mr)...)
	t.Columns = append(t.Columns, tables.Column{Name: "lower biased", Kind: tables.String, Doc: "a method not consistent for G_U (biased, or a Poisson baseline) the scenario allows, of lowest mean KS, when that is below the recommended method's: not recommended"},
		tables.Column{Name: "lower biased class", Kind: tables.String, Doc: "biased or Poisson baseline"},
		tables.Column{Name: "lower biased mean KS", Kind: tables.Float})
	nan := math.NaN()
	empty := func(s Scenario, method, best string) []any {
		row := []any{s.Describe(), method, "", nan, nan, best, nan, int64(0), "", nan, method, ""}
		for range len(t.Columns) - len(row) {
			row = append(row, nil)
		}
		return row
	}
	for _, s := range Scenarios {
		rec, err := Recommend(s, evidence)
		if err != nil {
			continue
		}
		if len(rec.Evidence) == 0 {
			if r, _ := Recommend(s, all); len(r.Evidence) > 0 {
				t.Rows = append(t.Rows, empty(s, rec.Method, fmt.Sprintf("too few (every replayed page < %d intervals)", MinEvidenceIntervals)))
				continue
			}
		}
		samplers := map[string]bool{}
		for _, e := range rec.Evidence {
			samplers[e.Sampler] = true
		}
		keys := make([]string, 0, len(samplers))
		for k := range samplers {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if len(keys) == 0 {
			t.Rows = append(t.Rows, empty(s, rec.Method, ""))
		}
		for _, sp := range keys {
			var same []MethodSummary
			for _, e := range rec.Evidence {
				if e.Sampler == sp {
					same = append(same, e)
				}
			}
			ch := choose(same, rec.Method, defaultKS)
			best, bw := "", nan
			bestKS, bk := "", nan
			self := MethodSummary{WMRD: Interval{nan, nan, nan, 0}, KS: Interval{nan, nan, nan, 0}, KSMean: Interval{nan, nan, nan, 0},
				ByPageWMRD: Interval{nan, nan, nan, 0}, ByPageKS: Interval{nan, nan, nan, 0}, ByPageKSMean: Interval{nan, nan, nan, 0}, MeanWMRD: nan, MeanKS: nan}
			cons, _ := splitConsistent(same)
			for _, e := range same {
				if e.Method == ch.Method {
					self = e
				}
			}
			for _, e := range cons { // best mean WMRD first (Recommend's order)
				if best == "" && !math.IsNaN(e.MeanWMRD) {
					best, bw = e.Method, e.MeanWMRD
				}
				if !math.IsNaN(e.MeanKS) && (bestKS == "" || e.MeanKS < bk) {
					bestKS, bk = e.Method, e.MeanKS
				}
			}
			row := []any{s.Describe(), ch.Method, sp, self.MeanWMRD, self.MeanKS, best, bw, int64(self.Pages), bestKS, bk, ch.Rule, ch.Why,
				int64(self.Seeds), self.KS.Lo, self.KS.Hi, self.WMRD.Lo, self.WMRD.Hi,
				int64(self.Boot.Resamples), self.ByPageKS.Lo, self.ByPageKS.Hi, self.ByPageWMRD.Lo, self.ByPageWMRD.Hi}
			row = append(row, versusCells(ch.Versus)...)
			v := versusConsistent(same, ch.Method, meanKS)
			lowKS := nan
			for _, e := range cons {
				if e.Method == v.lowest {
					lowKS = e.KSMean.Mean
				}
			}
			row = append(row, self.KSMean.Mean, self.KSMean.Lo, self.KSMean.Hi, self.ByPageKSMean.Lo, self.ByPageKSMean.Hi, v.lowest, lowKS)
			row = append(row, versusCells(v)...)
			t.Rows = append(t.Rows, append(row, ch.Lower, string(ch.LowerClass), ch.LowerKS))
		}
	}
	return t
}

// PoorRecoveryKS is the mean KS distance of a recovered F_U against the
// truth above which the Findings call the recovery poor and give the
// reason (10 %: the distance at which a Poisson verdict is drawn, too).
const PoorRecoveryKS = 0.1

// fRecoveryTable is the quality of F_U recovered from the estimates of
// G_U (docs/methods.md#recover) on the evidence pages: per sampler and
// method, the mean KS against the true F_U with its intervals, the
// median over pages of the derivative's bin width h and of the share of
// the page's intervals shorter than h (F_U below one bin is what a
// derivative on bins of width h cannot resolve). ok is false without a
// recovered F_U.
func fRecoveryTable(res *Result, src string) (tables.Table, bool) {
	type key struct{ sampler, method string }
	type page struct{ h, short float64 }
	per := map[key]map[int64][]page{}
	for _, e := range res.PageErrors {
		if e.Kind != "F" || e.Intervals < MinEvidenceIntervals || math.IsNaN(e.Short) {
			continue
		}
		k := key{e.Sampler, e.Method}
		if per[k] == nil {
			per[k] = map[int64][]page{}
		}
		per[k][e.PageID] = append(per[k][e.PageID], page{e.H, e.Short})
	}
	u := res.UnitName
	t := tables.Table{ID: "f_recovery", Title: "F_U recovered from the estimates of G_U: error and resolution", Source: src, Section: tables.SectionMethods, Order: 4,
		Columns: []tables.Column{{Name: "sampler", Kind: tables.String}, {Name: "method", Kind: tables.String}, {Name: "pages", Kind: tables.Int},
			{Name: "mean KS", Kind: tables.Float, Doc: "KS distance of the recovered F_U to the true F_U, averaged over pages"},
			{Name: "mean KS lo", Kind: tables.Float}, {Name: "mean KS hi", Kind: tables.Float},
			{Name: "interval over", Kind: tables.String, Doc: "pages (bootstrap) or seeds (one page)"},
			{Name: "seeds", Kind: tables.Int}, {Name: "resamples", Kind: tables.Int},
			{Name: "median h", Unit: u, Kind: tables.Duration, Doc: "bin width of the numerical derivative, median over pages"},
			{Name: "median share < h", Kind: tables.Percent, Doc: "share of a page's intervals shorter than its h, median over pages"},
			{Name: "quality", Kind: tables.String, Doc: fmt.Sprintf("poor: a mean KS above %g%%", 100*PoorRecoveryKS)}},
		Notes: []string{fmt.Sprintf("F_U = 1 − g_U/g_U(0) with g_U the derivative of the estimated G_U on bins of width h (docs/methods.md#recover), on the pages with ≥ %d intervals; g_U = (1 − F_U)/E[U] falls by the share of intervals shorter than x between 0 and x, so where many intervals are shorter than one bin the derivative averages g_U over its steep start: g_U(0), hence E[U] and the whole recovered F_U, are biased", MinEvidenceIntervals),
			seedsNote, pagesNote}}
	for _, m := range res.Evidence {
		if m.Kind != "F" {
			continue
		}
		ps := per[key{m.Sampler, m.Method}]
		if len(ps) == 0 {
			continue
		}
		var hs, shorts []float64
		for _, p := range ps {
			var h, sh float64
			for _, x := range p {
				h, sh = h+x.h, sh+x.short
			}
			hs, shorts = append(hs, h/float64(len(p))), append(shorts, sh/float64(len(p)))
		}
		slices.Sort(hs)
		slices.Sort(shorts)
		iv, over := decisive(m.ByPageKS, m.KS)
		quality := ""
		if m.MeanKS > PoorRecoveryKS {
			quality = "poor"
		}
		t.Rows = append(t.Rows, []any{m.Sampler, m.Method, int64(m.Pages), m.MeanKS, iv.Lo, iv.Hi, over, int64(m.Seeds), int64(m.Boot.Resamples), estimator.MedianSorted(hs), estimator.MedianSorted(shorts), quality})
	}
	return t, len(t.Rows) > 0
}

// methodFigures are SPEC §7 item 6 for the top page of the replay: the
// true G_U against M3 and M4 under a constant sampler, plotted as tails
// 1 − G on log-log axes, and the F_U recovered from M2 against the truth.
func methodFigures(res *Result, rows []EstimateRow, src string) []tables.Figure {
	if len(rows) == 0 {
		return nil
	}
	page := rows[0].PageID
	if len(res.Top) > 0 {
		for _, r := range rows {
			if r.PageID == res.Top[0].PageID {
				page = r.PageID
				break
			}
		}
	}
	var title string
	find := func(method, kind string, constant bool) (EstimateRow, bool) {
		for _, r := range rows {
			if r.PageID == page && r.Method == method && r.Kind == kind && (!constant || r.Constant) {
				title = r.Title
				return r, true
			}
		}
		return EstimateRow{}, false
	}
	// The rows of one method on the figure's page and sampler: one per
	// seed.
	of := func(method, kind, sampler string) []EstimateRow {
		var out []EstimateRow
		for _, r := range rows {
			if r.PageID == page && r.Method == method && r.Kind == kind && r.Sampler == sampler {
				out = append(out, r)
			}
		}
		return out
	}
	var figs []tables.Figure
	if m4, ok := find("M4", "G", true); ok {
		f := tables.Figure{ID: "top_g_m3_m4", Section: tables.SectionEstimates, Order: 1, Source: src, LogX: true, LogY: true,
			XLabel: "age x", XUnit: res.UnitName, YLabel: "1 − G(x)", YKind: tables.YProbability,
			Title: fmt.Sprintf("True G_U against M3 and M4 for %s (sampler %s)", title, m4.Sampler), Caption: monotoneCaption}
		seeds := 0
		for _, m := range []string{"truth", "M3", "M4"} {
			if rs := of(m, "G", m4.Sampler); len(rs) > 0 {
				f.Curves = append(f.Curves, methodCurve(rs, m != "truth", true))
				seeds = max(seeds, len(rs))
			}
		}
		f.Caption += seedsCaption(seeds, "M3 and M4")
		figs = append(figs, f)
	}
	if m2, ok := find("M2", "F", false); ok {
		// Log x: intervals span decades and F rises near 0 (x = 0 is dropped).
		f := tables.Figure{ID: "top_f_from_m2", Section: tables.SectionEstimates, Order: 2, Source: src, LogX: true,
			XLabel: "interval x", XUnit: res.UnitName, YLabel: "F(x)", YKind: tables.YProbability,
			Title: fmt.Sprintf("F_U recovered from M2 against the truth for %s (sampler %s)", title, m2.Sampler), Caption: monotoneCaption}
		seeds := 0
		for _, m := range []string{"M2", "truth"} {
			if rs := of(m, "F", m2.Sampler); len(rs) > 0 {
				f.Curves = append(f.Curves, methodCurve(rs, m == "truth", false))
				seeds = max(seeds, len(rs))
			}
		}
		f.Caption += seedsCaption(seeds, "M2")
		figs = append(figs, f)
	}
	return figs
}

// monotoneCaption says what the estimate figures of a replay draw.
const monotoneCaption = "Estimates shown as their monotone projection onto a distribution function (least-squares non-decreasing fit clipped to [0, 1], docs/methods.md#monotone); the raw values are in estimates.parquet, and the error tables are computed on them."

// drawnCDF is the curve a replay figure draws of row r: the truth as it
// is, an estimate as its monotone projection (estimator.MonotoneCDF,
// weighted by its evidence when it has one): a recovered F_U may
// otherwise rise and fall back to 0.
func drawnCDF(r EstimateRow) series.CDF {
	if r.Method == "truth" {
		return r.CDF
	}
	return estimator.MonotoneCDF(r.CDF, r.Evidence)
}

// tailCurve is 1 − P on the positive grid points (log axes).
func tailCurve(c series.CDF, name string, step bool) tables.Curve {
	out := tables.Curve{Name: name, Step: step}
	for i, x := range c.X {
		if x > 0 && c.P[i] < 1 {
			out.X = append(out.X, x)
			out.Y = append(out.Y, 1-c.P[i])
		}
	}
	return out
}
