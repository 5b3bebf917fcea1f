package replay

import "github.com/revisit-dev/revisit/estimator"

// summary accumulates WMRD and KS per sampler, method and kind: each
// row's stored error (estimator.StoreErrors, analysis' default protocol,
// computed at full resolution before the curve was compacted, so that a
// merge of shards with compact curves sums the same numbers), or for rows
// without one (outputs written before errors were stored) as compared on
// the sampler's grid (the truth rows' points).
type summary struct {
	w, k map[[3]string][]float64
}

func newSummary() *summary {
	return &summary{w: map[[3]string][]float64{}, k: map[[3]string][]float64{}}
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
		if e.Err != nil {
			s.w[key] = append(s.w[key], e.Err.WMRD)
			s.k[key] = append(s.k[key], e.Err.KS)
			continue
		}
		s.w[key] = append(s.w[key], wmrd(e.CDF.P, truth[e.Kind]))
		s.k[key] = append(s.k[key], ks(e.CDF.P, truth[e.Kind]))
	}
}

// result is the MethodSummary of every sampler, method and kind seen, in
// that order (ErrorSummary's rule; the medians are not kept).
func (s *summary) result(smp []estimator.Sampler, methods []string) []MethodSummary {
	var out []MethodSummary
	for _, sm := range smp {
		for _, m := range methods {
			for _, kind := range []string{estimator.KindG, estimator.KindF} {
				key := [3]string{sm.Spec, m, kind}
				if len(s.w[key]) == 0 {
					continue
				}
				e := estimator.SummarizeErrors(s.w[key], s.k[key])
				ms := MethodSummary{Sampler: sm.Spec, Method: m, Kind: kind, Pages: e.Pages, Undefined: e.Undefined}
				if e.Pages > 0 {
					ms.WMRD, ms.KS = &e.MeanWMRD, &e.MeanKS
				}
				out = append(out, ms)
			}
		}
	}
	return out
}
