package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/replay"
	"github.com/revisit-dev/revisit/transform"
)

// EstimateRow is one replayed estimate (or truth row): a row of the
// replay's estimates file, whose type replay owns (estimator.Estimate, read
// by replay.ReadEstimates).
type EstimateRow = estimator.Estimate

// ReadReplay reads a replay output directory (replay.ReadEstimates) into
// its rows and a provenance line for the tables' Source: the directory and
// the replay's samplers, x_max and h with how they were chosen, seed and
// unit (replay.Meta.Describe).
func ReadReplay(dir string) ([]EstimateRow, string, error) {
	meta, est, err := replay.ReadEstimates(dir)
	if err != nil {
		return nil, "", err
	}
	return est, fmt.Sprintf("replay %s: %s", dir, meta.Describe()), nil
}

// PageError is the error of one method on one page under one sampler.
type PageError struct {
	PageID  int64
	Title   string
	Sampler string
	Method  string
	Kind    string
	Seed    int // the replay's seed index r (0 with one seed)
	Error
	// Mean is the error on the second range x ≤ 10·E[U]
	// (estimator.MeanRange; NaN when the replay did not store it and the
	// curve is compact).
	Mean Error
	Note string
	// Constant says the sampler has constant delays (from the estimates
	// file, not from parsing the sampler spec).
	Constant bool
	// Intervals is the page's number of intervals (the truth row's
	// Samples; 0 when unknown).
	Intervals int
	// H is the row's bin width (estimator.Estimate.H): for a recovered
	// F_U the bin of its numerical derivative. Short is then the share of
	// the page's intervals shorter than H (NaN for G_U rows and when
	// unknown): the part of F_U below one bin, which no derivative on
	// bins of width H resolves.
	H, Short float64
	// PageXMax is the page's x_max as the replay chose it
	// (replay.DefaultsOf: the given x_max, or the 0.99 quantile of its
	// G_U): the value the Source line states; the errors are computed on
	// the grid up to the first grid point at or above it (Error.XMax).
	// 0 when unknown.
	PageXMax float64
}

// MethodSummary summarises one method under one sampler over pages:
// mean and median of WMRD and KS (SPEC §5), over the pages where the
// method produced an estimate. With several seeds (replay --seeds R) the
// means are the mean over seeds r of E_{m,r}, the mean over pages in seed
// r, with a 95% interval over the R values (seeds.go); the medians are
// over every page × seed.
type MethodSummary struct {
	Sampler, Method, Kind string
	Pages                 int // pages with a defined error (in some seed)
	MeanWMRD, MedianWMRD  float64
	MeanKS, MedianKS      float64
	Undefined             int // pages where the estimate was undefined (e.g. Matloff with X = n) in some seed
	// Seeds is R; WMRD and KS are the means over seeds with their
	// intervals (Mean = MeanWMRD, MeanKS), and WMRDMean and KSMean the
	// same on the second range x ≤ 10·E[U]. SeedWMRD, SeedKS,
	// SeedWMRDMean and SeedKSMean are E_{m,r} for r = 0 … R−1 (NaN where
	// undefined on every page), for paired comparisons (PairedDiff).
	Seeds                                      int
	WMRD, KS, WMRDMean, KSMean                 Interval
	SeedWMRD, SeedKS, SeedWMRDMean, SeedKSMean []float64
	// From the estimates file and the method registry (estimator.Registry):
	Constant bool            // the sampler has constant delays
	Class    estimator.Class // unbiased, biased or Poisson baseline ("" for an unknown method)
	Age      bool            // the method observes ages (Last-Modified)

	// Over pages (bootstrap.go, docs/methods.md#seeds): PageWMRD, PageKS,
	// PageWMRDMean and PageKSMean are each page's error averaged over its
	// seeds, one value per page of the sampler and kind (the same pages,
	// in page-id order, for every method of that sampler and kind; NaN
	// where the method has no value); ByPageWMRD … their mean over pages
	// with the percentile interval of Boot, which resamples those pages
	// (the same resamples for every method of the sampler and kind, so
	// that differences are paired). WinKS and WinKSMean are the shares of
	// resamples in which the method has the lowest mean κ of its sampler
	// and kind (on each range).
	Boot                                               Bootstrap
	PageWMRD, PageKS, PageWMRDMean, PageKSMean         []float64
	ByPageWMRD, ByPageKS, ByPageWMRDMean, ByPageKSMean Interval
	WinKS, WinKSMean                                   float64
}

// PageErrors compares every non-truth row with the truth of the same
// page, sampler and kind on [0, xmax] (Compare). A Poisson baseline
// without a tabulated CDF is compared as the exponential with its rate
// (F = G = 1 − e^{−λ̂x}); an undefined rate (NaN, e.g. Matloff when every
// visit saw a change) is reported with NaN errors and its note, not
// dropped. A row without a truth row is an error.
//
// intervals maps a page id to its inter-update intervals U_i in the unit
// of the rows; from them G_U is exact (SPEC §3: G_U(x) = Σ min(U_i, x) /
// Σ U_i) wherever an estimate is evaluated, and the G_U rows of step
// methods are compared by SPEC §4.2's protocol: interpolated linearly with
// extra points per step against the exact G_U at every point (Compare).
// The other G_U rows, and every F_U row (F_U recovered from G_U is not a
// step function), are compared at the grid points, where the replay's
// truth rows are exact. (F_U = #{U_i ≤ x}/n jumps, so it is taken from the
// truth row rather than recomputed: intervals rounded differently could
// land on the other side of a grid point.) Each G_U truth row is checked
// against the intervals first: a page missing from intervals, or a truth
// row that the intervals do not reproduce within truthTol (a replay of
// another dataset, or in another unit), is an error.
//
// With intervals nil the truth is known only at its grid points, and so
// every estimate is compared there only (see Compare).
func PageErrors(rows []EstimateRow, xmax float64, extra int, intervals map[int64][]float64) ([]PageError, error) {
	return PageErrorsFor(estimator.Registry{}, rows, xmax, extra, intervals)
}

// PageErrorsFor is PageErrors with the methods of reg: its Baseline
// methods are compared as exponentials, its Step methods interpolated.
func PageErrorsFor(reg estimator.Registry, rows []EstimateRow, xmax float64, extra int, intervals map[int64][]float64) ([]PageError, error) {
	type key struct {
		page          int64
		sampler, kind string
		seed          int
	}
	truth := map[key]*EstimateRow{}
	exact := map[int64]*transform.Age{} // per page, prepared once
	for i, r := range rows {
		if r.Method != "truth" {
			continue
		}
		truth[key{r.PageID, r.Sampler, r.Kind, r.Seed}] = &rows[i]
		if intervals == nil || r.Kind != "G" {
			continue
		}
		g, ok := exact[r.PageID]
		if !ok {
			u, ok := intervals[r.PageID]
			if !ok {
				return nil, fmt.Errorf("page %d (%s): in the replay output but not in the dataset (a replay of another dataset?)", r.PageID, r.Title)
			}
			g = transform.NewAge(u)
			exact[r.PageID] = g
		}
		if err := checkTruth(r, g.At); err != nil {
			return nil, err
		}
	}
	var out []PageError
	for _, r := range rows {
		if r.Method == "truth" {
			continue
		}
		tr, ok := truth[key{r.PageID, r.Sampler, r.Kind, r.Seed}]
		if !ok {
			return nil, fmt.Errorf("page %d (%s), sampler %s, seed %d, %s: no truth %s row to compare with", r.PageID, r.Title, r.Sampler, r.Seed, r.Method, r.Kind)
		}
		pe := PageError{PageID: r.PageID, Title: r.Title, Sampler: r.Sampler, Method: r.Method, Kind: r.Kind, Seed: r.Seed, Note: r.Note, Constant: r.Constant, Intervals: tr.CDF.Samples,
			H: r.H, Short: math.NaN()}
		if r.Kind == "F" {
			pe.Short = shorterThan(intervals[r.PageID], r.H)
		}
		pe.Mean = estimator.NoError()
		if r.ErrMean != nil {
			pe.Mean = *r.ErrMean
		}
		if r.Compact || tr.Compact {
			// The curve was compacted after replay computed its error at
			// full resolution by this same rule (estimator.StoreErrors):
			// take that, which holds for the default comparison only.
			if r.Err == nil {
				return nil, fmt.Errorf("page %d (%s), sampler %s, %s %s: a compact curve without its stored error", r.PageID, r.Title, r.Sampler, r.Method, r.Kind)
			}
			if xmax > 0 || extra != DefaultExtra {
				return nil, fmt.Errorf("page %d (%s), sampler %s: the replay stored compact curves, whose errors hold for the default comparison only (each page's own x_max, %d extra points per step): replay with --curves full to compare on x_max = %g with %d extra points", r.PageID, r.Title, r.Sampler, DefaultExtra, xmax, extra)
			}
			pe.Error = *r.Err
			out = append(out, pe)
			continue
		}
		var truthAt TruthFunc
		if g := exact[r.PageID]; g != nil {
			truthAt = g.At
		}
		e, err := estimator.RowError(reg, &r, tr.CDF, xmax, extra, truthAt)
		if err != nil {
			return nil, fmt.Errorf("page %d (%s), sampler %s: %w", r.PageID, r.Title, r.Sampler, err)
		}
		pe.Error = e
		// The second range from the full curve, as replay stored it
		// (the page's E[U] from its intervals, as replay's).
		if u := intervals[r.PageID]; len(u) > 0 {
			if meanU := transform.MeanInterval(u); meanU > 0 {
				if pe.Mean, err = estimator.RowError(reg, &r, tr.CDF, estimator.MeanRange*meanU, extra, truthAt); err != nil {
					return nil, fmt.Errorf("page %d (%s), sampler %s, x ≤ %d·E[U]: %w", r.PageID, r.Title, r.Sampler, estimator.MeanRange, err)
				}
			}
		}
		out = append(out, pe)
	}
	return out, nil
}

// truthTol is how far a replay's tabulated truth may be from the exact
// one recomputed from the dataset (both are the same sums: only rounding).
const truthTol = 1e-9

// checkTruth verifies that the G_U truth row r is the exact G_U on its
// grid (a compact row: at its knots, within the rounding of its values,
// estimates.Quantum).
func checkTruth(r EstimateRow, exact TruthFunc) error {
	tol := truthTol
	if r.Compact {
		tol += estimates.Quantum / 2
	}
	g := exact(r.CDF.X)
	for i, x := range r.CDF.X {
		if math.Abs(g[i]-r.CDF.P[i]) > tol || math.IsNaN(r.CDF.P[i]) {
			return fmt.Errorf("page %d (%s), sampler %s: the replay's true G_U(%g) = %.9g, but the dataset's intervals give %.9g: the replay was made from another dataset or in another unit (give analyze the replay's --unit)",
				r.PageID, r.Title, r.Sampler, x, r.CDF.P[i], g[i])
		}
	}
	return nil
}

// Summarize groups page errors by sampler, method and kind, in that
// order, with the mean and median over pages of WMRD and KS by replay's
// one rule (estimator.SummarizeErrors: NaN errors are counted as Undefined
// and left out of the averages), their intervals over seeds, and their
// intervals over pages from a bootstrap of the pages drawn from seed.
func Summarize(errs []PageError, seed uint64) []MethodSummary {
	return SummarizeFor(estimator.Registry{}, errs, seed)
}

// SummarizeFor is Summarize with the methods of reg: their output order
// ranks them, their class and observations label the summaries.
func SummarizeFor(reg estimator.Registry, errs []PageError, seed uint64) []MethodSummary {
	type key struct{ s, m, k string }
	groups := map[key][]PageError{}
	var keys []key
	for _, e := range errs {
		k := key{e.Sampler, e.Method, e.Kind}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], e)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.s, b.s), cmp.Compare(a.k, b.k), cmp.Compare(reg.Rank(a.m), reg.Rank(b.m)), cmp.Compare(a.m, b.m))
	})
	out := make([]MethodSummary, 0, len(keys))
	for _, k := range keys {
		g := groups[k]
		var w, ks []float64
		seeds := 0
		for _, e := range g {
			w, ks = append(w, e.WMRD), append(ks, e.KS)
			seeds = max(seeds, e.Seed+1)
		}
		// per seed r: E_{m,r}, the means over the pages of seed r by
		// SummarizeErrors' rule (a page whose WMRD or KS is NaN is left out)
		perSeed := func(of func(PageError) Error) (wr, kr []float64) {
			w, k := make([][]float64, seeds), make([][]float64, seeds)
			for _, e := range g {
				x := of(e)
				w[e.Seed], k[e.Seed] = append(w[e.Seed], x.WMRD), append(k[e.Seed], x.KS)
			}
			for r := range seeds {
				e := estimator.SummarizeErrors(w[r], k[r])
				wr, kr = append(wr, e.MeanWMRD), append(kr, e.MeanKS)
			}
			return wr, kr
		}
		defined, undefined := map[int64]bool{}, map[int64]bool{}
		for _, e := range g {
			if math.IsNaN(e.WMRD) || math.IsNaN(e.KS) {
				undefined[e.PageID] = true
			} else {
				defined[e.PageID] = true
			}
		}
		m, _ := reg.Lookup(k.m)
		e := estimator.SummarizeErrors(w, ks) // medians over page × seed
		ms := MethodSummary{
			Sampler: k.s, Method: k.m, Kind: k.k, Pages: len(defined), Undefined: len(undefined),
			MedianWMRD: e.MedianWMRD, MedianKS: e.MedianKS,
			Constant: g[0].Constant, Class: m.Class, Age: m.Observes == estimator.Age, Seeds: seeds,
		}
		ms.SeedWMRD, ms.SeedKS = perSeed(func(e PageError) Error { return e.Error })
		ms.SeedWMRDMean, ms.SeedKSMean = perSeed(func(e PageError) Error { return e.Mean })
		ms.WMRD, ms.KS = TInterval(ms.SeedWMRD), TInterval(ms.SeedKS)
		ms.WMRDMean, ms.KSMean = TInterval(ms.SeedWMRDMean), TInterval(ms.SeedKSMean)
		ms.MeanWMRD, ms.MeanKS = ms.WMRD.Mean, ms.KS.Mean
		out = append(out, ms)
	}
	byPages(out, func(m MethodSummary) []PageError { return groups[key{m.Sampler, m.Method, m.Kind}] }, seed)
	return out
}

// byPages fills the intervals over pages of the summaries (one per
// sampler, method and kind; errsOf gives each one's page errors): per
// sampler and kind, the pages of all its methods in page-id order, each
// method's per-page means over seeds on them, and one bootstrap of those
// pages (NewBootstrap with seed, keyed by sampler and kind) for all.
func byPages(out []MethodSummary, errsOf func(MethodSummary) []PageError, seed uint64) {
	type sk struct{ sampler, kind string }
	var order []sk
	members := map[sk][]int{}
	for i, m := range out {
		k := sk{m.Sampler, m.Kind}
		if _, ok := members[k]; !ok {
			order = append(order, k)
		}
		members[k] = append(members[k], i)
	}
	for _, k := range order {
		idx := members[k]
		var ids []int64
		seen := map[int64]bool{}
		for _, i := range idx {
			for _, e := range errsOf(out[i]) {
				if !seen[e.PageID] {
					seen[e.PageID] = true
					ids = append(ids, e.PageID)
				}
			}
		}
		slices.Sort(ids)
		pos := make(map[int64]int, len(ids))
		for j, id := range ids {
			pos[id] = j
		}
		boot := NewBootstrap(len(ids), seed, k.sampler+"/"+k.kind)
		var ks, ksMean [][]float64
		for _, i := range idx {
			m := &out[i]
			m.Boot = boot
			m.PageWMRD, m.PageKS, m.PageWMRDMean, m.PageKSMean = pageMeans(errsOf(*m), pos)
			series := boot.Means(m.PageWMRD, m.PageKS, m.PageWMRDMean, m.PageKSMean)
			m.ByPageWMRD = boot.intervalOf(m.PageWMRD, series[0])
			m.ByPageKS = boot.intervalOf(m.PageKS, series[1])
			m.ByPageWMRDMean = boot.intervalOf(m.PageWMRDMean, series[2])
			m.ByPageKSMean = boot.intervalOf(m.PageKSMean, series[3])
			ks, ksMean = append(ks, m.PageKS), append(ksMean, m.PageKSMean)
		}
		w, wm := boot.WinShares(ks...), boot.WinShares(ksMean...)
		for j, i := range idx {
			out[i].WinKS, out[i].WinKSMean = w[j], wm[j]
		}
	}
}

// pageMeans are the per-page means over seeds of a method's errors
// (WMRD, KS, and the two on the second range) at the positions pos of
// their pages; NaN for a page without a finite value.
func pageMeans(errs []PageError, pos map[int64]int) (wmrd, ks, wmrdMean, ksMean []float64) {
	n := len(pos)
	sums := make([][4]float64, n)
	cnts := make([][4]int, n)
	for _, e := range errs {
		j := pos[e.PageID]
		for c, v := range [4]float64{e.WMRD, e.KS, e.Mean.WMRD, e.Mean.KS} {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				sums[j][c] += v
				cnts[j][c]++
			}
		}
	}
	cols := [4][]float64{make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)}
	for j := range n {
		for c := range cols {
			cols[c][j] = math.NaN()
			if cnts[j][c] > 0 {
				cols[c][j] = sums[j][c] / float64(cnts[j][c])
			}
		}
	}
	return cols[0], cols[1], cols[2], cols[3]
}

// EvidenceSummary is Summarize over the pages with at least
// MinEvidenceIntervals intervals: the measured errors a recommendation
// may cite. Errors of shorter pages (or of unknown length) are left out;
// with none left, a recommendation has no evidence ("too few").
func EvidenceSummary(errs []PageError, seed uint64) []MethodSummary {
	return EvidenceSummaryFor(estimator.Registry{}, errs, seed)
}

// EvidenceSummaryFor is EvidenceSummary with the methods of reg.
func EvidenceSummaryFor(reg estimator.Registry, errs []PageError, seed uint64) []MethodSummary {
	var keep []PageError
	for _, e := range errs {
		if e.Intervals >= MinEvidenceIntervals {
			keep = append(keep, e)
		}
	}
	return SummarizeFor(reg, keep, seed)
}

// shorterThan is the share of the intervals u shorter than h (NaN
// without intervals or without a positive h).
func shorterThan(u []float64, h float64) float64 {
	if len(u) == 0 || !(h > 0) {
		return math.NaN()
	}
	n := 0
	for _, x := range u {
		if x < h {
			n++
		}
	}
	return float64(n) / float64(len(u))
}
