package replay

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/series"
)

// The streaming summary gives, bit for bit, the pages, undefined counts
// and means of estimator.SummarizeErrors over the per-page WMRD and KS
// values computed here, in the same order, with undefined (NaN) ones.
func TestSummaryMatchesSummarizeErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s := newSummary()
	var w, k []float64
	for range 500 {
		truth := []float64{r.Float64() * 0.3, 0.3 + r.Float64()*0.3, 1}
		p := []float64{r.Float64() * 0.3, 0.3 + r.Float64()*0.3, 1}
		if r.IntN(10) == 0 {
			p[0] = math.NaN()
		}
		s.add([]estimator.Estimate{
			{Sampler: "exp:1", Method: estimator.MethodTruth, Kind: estimator.KindG, CDF: series.CDF{P: truth}},
			{Sampler: "exp:1", Method: "M2", Kind: estimator.KindG, CDF: series.CDF{P: p}},
		})
		w, k = append(w, series.WMRD(p, truth)), append(k, series.KS(p, truth))
	}
	want := estimator.SummarizeErrors(w, k)
	got := s.result([]estimator.Sampler{{Spec: "exp:1"}}, []string{"M2"})
	if len(got) != 1 {
		t.Fatalf("%d summaries, want 1", len(got))
	}
	g := got[0]
	if want.Undefined == 0 || g.Pages != want.Pages || g.Undefined != want.Undefined || g.WMRD == nil || *g.WMRD != want.MeanWMRD || *g.KS != want.MeanKS {
		t.Errorf("summary %d pages, %d undefined, WMRD %v, KS %v; want %d, %d, %v, %v", g.Pages, g.Undefined, *g.WMRD, *g.KS, want.Pages, want.Undefined, want.MeanWMRD, want.MeanKS)
	}
}
