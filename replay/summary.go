package replay

import (
	"math"

	"github.com/revisit-dev/revisit/estimator"
)

// summary accumulates WMRD and KS per sampler, method and kind: each
// row's stored error (estimator.StoreErrors, analysis' default protocol,
// computed at full resolution before the curve was compacted, so that a
// merge of shards with compact curves sums the same numbers), or for rows
// without one (outputs written before errors were stored) as compared on
// the sampler's grid (the truth rows' points). It keeps their sums in row
// order and counts, so that its memory does not grow with the pages (the
// means are those of estimator.SummarizeErrors, summed in the same order).
type summary struct {
	acc map[[3]string]*errSums
}

// errSums are the sums of the defined WMRD and KS values, their number,
// and the number of pages where either is undefined (NaN).
type errSums struct {
	w, k             float64
	pages, undefined int
}

func newSummary() *summary {
	return &summary{acc: map[[3]string]*errSums{}}
}

// add takes one page × sampler's rows (truth rows included).
func (s *summary) add(est []estimator.Estimate) {
	truth := map[string][]float64{}
	for _, e := range est {
		if e.Method == estimator.MethodTruth {
			truth[e.Kind] = e.CDF.P
		}
	}
	for _, e := range est {
		if e.Method == estimator.MethodTruth {
			continue
		}
		key := [3]string{e.Sampler, e.Method, e.Kind}
		a := s.acc[key]
		if a == nil {
			a = &errSums{}
			s.acc[key] = a
		}
		var w, k float64
		if e.Err != nil {
			w, k = e.Err.WMRD, e.Err.KS
		} else {
			w, k = wmrd(e.CDF.P, truth[e.Kind]), ks(e.CDF.P, truth[e.Kind])
		}
		if math.IsNaN(w) || math.IsNaN(k) {
			a.undefined++
			continue
		}
		a.w += w
		a.k += k
		a.pages++
	}
}

// result is the MethodSummary of every sampler, method and kind seen, in
// that order (ErrorSummary's rule; the medians are not kept).
func (s *summary) result(smp []estimator.Sampler, methods []string) []MethodSummary {
	var out []MethodSummary
	for _, sm := range smp {
		for _, m := range methods {
			for _, kind := range []string{estimator.KindG, estimator.KindF} {
				a := s.acc[[3]string{sm.Spec, m, kind}]
				if a == nil {
					continue
				}
				ms := MethodSummary{Sampler: sm.Spec, Method: m, Kind: kind, Pages: a.pages, Undefined: a.undefined}
				if a.pages > 0 {
					w, k := a.w/float64(a.pages), a.k/float64(a.pages)
					ms.WMRD, ms.KS = &w, &k
				}
				out = append(out, ms)
			}
		}
	}
	return out
}
