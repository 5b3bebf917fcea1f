package replay

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// On generated Pareto pages (Lomax α = 3, β = 2 h: E[U] = 1 h, not
// exponential), what estimate computes from the written logs converges to
// the page's exact G_U as the page grows: M6 (irregular visits), M4
// (constant delays) from CDX digests, M2 from Last-Modified, with KS
// distances shrinking from 200 to 20,000 updates.
func TestObservedParetoConverges(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := dataset.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	sizes := []int{200, 20000}
	for i, n := range sizes {
		r := model.NewRand(9, uint64(i))
		d := model.Pareto{Alpha: 3, Beta: 2}
		ups := []int64{1_600_000_000}
		for len(ups) <= n {
			ups = append(ups, ups[len(ups)-1]+1+int64(d.Rand(r)*3600))
		}
		if err := w.Write(&series.Page{ID: int64(i + 1), Source: "test", Title: "pareto", Resolution: 1, Updates: ups}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(&dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		format, sampler, method string
		small, large            float64 // KS bounds at 200 and 20,000 updates
	}{
		{logs.CDX, "exp:20x", estimator.MethodM6, 0.15, 0.03},
		{logs.CDX, "const:0.05x", estimator.MethodM4, 0.15, 0.03},
		{logs.LogLastMod, "exp:20x", estimator.MethodM2, 0.15, 0.03},
	} {
		out := filepath.Join(t.TempDir(), "rep")
		meta, err := Run(context.Background(), Options{Dataset: dir, Out: out, Samplers: []string{c.sampler}, H: 0.02, XMax: 6,
			Methods: []string{c.method}, Seed: 1, Workers: 1, WriteObservations: c.format})
		if err != nil {
			t.Fatal(err)
		}
		_, rows, err := ReadEstimates(out)
		if err != nil {
			t.Fatal(err)
		}
		truth := map[string][]float64{} // by URL
		for _, e := range rows {
			if e.Method == estimator.MethodTruth && e.Kind == estimator.KindG {
				truth[ObservedID(e.PageID)] = e.CDF.P
			}
		}
		ksBy := map[string]float64{}
		_, err = logs.Read(context.Background(), []string{filepath.Join(out, meta.Observations.Files[c.sampler])}, logs.Options{},
			func(o *series.Observed) error {
				est, _, err := estimator.EstimateObserved(context.Background(), o, estimator.ObservedConfig{Config: estimator.Config{Methods: []string{c.method}, H: 0.02, XMax: 6},
					Unit: transform.Hour, Sampler: c.sampler})
				if err != nil {
					return err
				}
				g := findRow(est, c.method, estimator.KindG)
				ksBy[o.ID] = ks(g.CDF.P, truth[o.ID])
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		small, large := ksBy[ObservedID(1)], ksBy[ObservedID(2)]
		t.Logf("%s %s %s: KS %.4f at 200 updates, %.4f at 20,000", c.format, c.sampler, c.method, small, large)
		if !(small < c.small && large < c.large && large < small) {
			t.Errorf("%s %s %s: KS %.4f at 200 updates, %.4f at 20,000; want < %g, < %g and shrinking", c.format, c.sampler, c.method, small, large, c.small, c.large)
		}
	}
}
