package replay

import (
	"math"
	"slices"
)

// ErrorSummary is the one rule by which the errors of one method (and
// kind) under one sampler are summarised over pages, in replay.json
// (MethodSummary) and in analysis' method tables: a page whose WMRD or KS
// is NaN (an undefined estimate) counts as Undefined and is left out;
// the others give the mean and median of WMRD and KS (NaN when none).
type ErrorSummary struct {
	Pages, Undefined     int
	MeanWMRD, MedianWMRD float64
	MeanKS, MedianKS     float64
}

// SummarizeErrors applies the ErrorSummary rule to the pages' WMRD and KS
// (wmrd[i] and ks[i] of page i).
func SummarizeErrors(wmrd, ks []float64) ErrorSummary {
	var w, k []float64
	var s ErrorSummary
	for i := range wmrd {
		if math.IsNaN(wmrd[i]) || math.IsNaN(ks[i]) {
			s.Undefined++
			continue
		}
		w, k = append(w, wmrd[i]), append(k, ks[i])
	}
	s.Pages = len(w)
	s.MeanWMRD, s.MedianWMRD = meanOf(w), medianOf(w)
	s.MeanKS, s.MedianKS = meanOf(k), medianOf(k)
	return s
}

func meanOf(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func medianOf(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return medianSorted(s)
}

// medianSorted is the median of s, sorted ascending: the middle value, or
// the mean of the two middle ones; NaN for none.
func medianSorted(s []float64) float64 {
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// summary accumulates WMRD and KS per sampler, method and kind, as
// compared on the sampler's grid (the truth rows' points).
type summary struct {
	w, k map[[3]string][]float64
}

func newSummary() *summary {
	return &summary{w: map[[3]string][]float64{}, k: map[[3]string][]float64{}}
}

// add takes one page × sampler's rows (truth rows included).
func (s *summary) add(est []Estimate) {
	truth := map[string][]float64{}
	for _, e := range est {
		if e.Method == MethodTruth {
			truth[e.Kind] = e.CDF.P
		}
	}
	for _, e := range est {
		if e.Method == MethodTruth {
			continue
		}
		key := [3]string{e.Sampler, e.Method, e.Kind}
		s.w[key] = append(s.w[key], wmrd(e.CDF.P, truth[e.Kind]))
		s.k[key] = append(s.k[key], ks(e.CDF.P, truth[e.Kind]))
	}
}

// result is the MethodSummary of every sampler, method and kind seen, in
// that order (ErrorSummary's rule; the medians are not kept).
func (s *summary) result(smp []Sampler, methods []string) []MethodSummary {
	var out []MethodSummary
	for _, sm := range smp {
		for _, m := range methods {
			for _, kind := range []string{KindG, KindF} {
				key := [3]string{sm.Spec, m, kind}
				if len(s.w[key]) == 0 {
					continue
				}
				e := SummarizeErrors(s.w[key], s.k[key])
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
