package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/revisit-dev/revisit/series"
)

// EstimateRow is one replayed estimate (or truth row) as the error tables
// need it; it mirrors replay.Estimate so the tables can be computed from
// any source of estimates.
type EstimateRow struct {
	PageID  int64
	Title   string
	Sampler string // sampler spec, e.g. "const:1", "exp:2"
	Method  string // "truth", "M1"…"M6", "G-M4", "naive", "cho", "matloff", "age-mle"
	Kind    string // "G" (G_U) or "F" (F_U)
	CDF     series.CDF
	Rate    float64 // Poisson baselines: λ̂ per unit (NaN otherwise)
	Note    string
}

// PageError is the error of one method on one page under one sampler.
type PageError struct {
	PageID  int64
	Title   string
	Sampler string
	Method  string
	Kind    string
	Error
	Note string
}

// MethodSummary summarises one method under one sampler over pages:
// mean and median of WMRD and KS (SPEC §5), over the pages where the
// method produced an estimate.
type MethodSummary struct {
	Sampler, Method, Kind string
	Pages                 int
	MeanWMRD, MedianWMRD  float64
	MeanKS, MedianKS      float64
	Undefined             int // pages where the estimate was undefined (e.g. Matloff with X = n)
}

// baseline methods report a rate; their estimate is the implied
// exponential when they carry no tabulated CDF (SPEC §4.3).
var baselines = map[string]bool{"naive": true, "cho": true, "matloff": true, "age-mle": true}

// PageErrors compares every non-truth row with the truth row of the same
// page, sampler and kind on [0, xmax] (Compare; step methods interpolated
// with extra points per step). A Poisson baseline without a tabulated CDF
// is compared as the exponential with its rate (F = G = 1 − e^{−λ̂x}); an
// undefined rate (NaN, e.g. Matloff when every visit saw a change) is
// reported with NaN errors and its note, not dropped. A row without a
// truth row is an error.
func PageErrors(rows []EstimateRow, xmax float64, extra int) ([]PageError, error) {
	type key struct {
		page          int64
		sampler, kind string
	}
	truth := map[key]series.CDF{}
	for _, r := range rows {
		if r.Method == "truth" {
			truth[key{r.PageID, r.Sampler, r.Kind}] = r.CDF
		}
	}
	var out []PageError
	for _, r := range rows {
		if r.Method == "truth" {
			continue
		}
		tr, ok := truth[key{r.PageID, r.Sampler, r.Kind}]
		if !ok {
			return nil, fmt.Errorf("page %d (%s), sampler %s, %s: no truth %s row to compare with", r.PageID, r.Title, r.Sampler, r.Method, r.Kind)
		}
		pe := PageError{PageID: r.PageID, Title: r.Title, Sampler: r.Sampler, Method: r.Method, Kind: r.Kind, Note: r.Note}
		est := r.CDF
		if baselines[r.Method] && len(est.X) == 0 {
			if math.IsNaN(r.Rate) || r.Rate <= 0 || math.IsInf(r.Rate, 0) {
				pe.Error = Error{WMRD: math.NaN(), KS: math.NaN()}
				out = append(out, pe)
				continue
			}
			est = expCDF(r.Method, r.Rate, tr.X)
		}
		if len(est.X) == 0 {
			pe.Error = Error{WMRD: math.NaN(), KS: math.NaN()}
			out = append(out, pe)
			continue
		}
		e, err := Compare(est, tr, xmax, IsStepMethod(r.Method), extra, nil)
		if err != nil {
			return nil, fmt.Errorf("page %d (%s), sampler %s: %w", r.PageID, r.Title, r.Sampler, err)
		}
		pe.Error = e
		out = append(out, pe)
	}
	return out, nil
}

// expCDF tabulates 1 − e^{−λx} on grid.
func expCDF(method string, rate float64, grid []float64) series.CDF {
	p := make([]float64, len(grid))
	for i, x := range grid {
		p[i] = -math.Expm1(-rate * x)
	}
	return series.CDF{Method: method, X: slices.Clone(grid), P: p}
}

// Summarize groups page errors by sampler, method and kind, in that
// order, with the mean and median over pages of WMRD and KS (NaN errors
// are counted as Undefined and left out of the averages).
func Summarize(errs []PageError) []MethodSummary {
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
		return cmp.Or(cmp.Compare(a.s, b.s), cmp.Compare(a.k, b.k), cmp.Compare(methodRank(a.m), methodRank(b.m)), cmp.Compare(a.m, b.m))
	})
	out := make([]MethodSummary, 0, len(keys))
	for _, k := range keys {
		var w, ks []float64
		undef := 0
		for _, e := range groups[k] {
			if math.IsNaN(e.WMRD) {
				undef++
				continue
			}
			w = append(w, e.WMRD)
			ks = append(ks, e.KS)
		}
		out = append(out, MethodSummary{
			Sampler: k.s, Method: k.m, Kind: k.k, Pages: len(w), Undefined: undef,
			MeanWMRD: meanOf(w), MedianWMRD: median(w), MeanKS: meanOf(ks), MedianKS: median(ks),
		})
	}
	return out
}

// methodRank orders methods as SPEC §4 lists them.
func methodRank(m string) int {
	order := []string{"M1", "M2", "M3", "M4", "M5", "G-M4", "M6", "naive", "cho", "matloff", "age-mle"}
	if i := slices.Index(order, m); i >= 0 {
		return i
	}
	return len(order)
}

func meanOf(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return sum(x) / float64(len(x))
}
