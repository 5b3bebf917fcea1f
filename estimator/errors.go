package estimator

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
	return MedianSorted(s)
}

// MedianSorted is the median of s, sorted ascending: the middle value, or
// the mean of the two middle ones; NaN for none.
func MedianSorted(s []float64) float64 {
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
