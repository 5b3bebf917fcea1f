package replay

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/ingest/visits"
	"github.com/revisit-dev/revisit/transform"
)

func sameFloat(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// For every format, the visit logs replay writes, read back and estimated
// (what `revisit estimate` does), give exactly the rows replay computed
// in-process.
func TestWriteObservationsRoundTrip(t *testing.T) {
	ds, _ := writeDataset(t, 4)
	for _, format := range visits.Formats {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "rep")
			opt := Options{Dataset: ds, Out: out, Samplers: []string{"exp:2", "const:0.5"}, H: 0.1, XMax: 20,
				Seed: 3, Workers: 2, Recover: true, WriteObservations: format}
			meta, err := Run(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			_, est, err := ReadEstimates(out)
			if err != nil {
				t.Fatal(err)
			}
			want := map[[2]string][]Estimate{} // (sampler, page URL) → rows without truth
			for _, e := range est {
				if e.Method != MethodTruth {
					k := [2]string{e.Sampler, ObservedID(e.PageID)}
					want[k] = append(want[k], e)
				}
			}
			compared := 0
			methods := map[[2]string]bool{} // (sampler, method) compared
			for _, spec := range meta.Samplers {
				file := filepath.Join(out, meta.Observations.Files[spec])
				_, err := visits.Read(context.Background(), []string{file}, visits.Options{Format: "auto"}, func(o *visits.Observed) error {
					got, _, err := EstimateObserved(context.Background(), o, ObservedConfig{Config: Config{H: 0.1, XMax: 20, Recover: true}, Unit: transform.Hour, Sampler: spec})
					if err != nil {
						t.Fatalf("%s %s: %v", spec, o.ID, err)
					}
					w := want[[2]string{spec, o.ID}]
					if len(got) != len(w) || len(got) == 0 {
						t.Fatalf("%s %s: %d rows, replay wrote %d", spec, o.ID, len(got), len(w))
					}
					for i := range got {
						g, r := got[i], w[i]
						if g.Method != r.Method || g.Kind != r.Kind || !sameFloats(g.CDF.X, r.CDF.X) || !sameFloats(g.CDF.P, r.CDF.P) ||
							g.CDF.Samples != r.CDF.Samples || !sameFloat(g.Rate, r.Rate) || g.H != r.H || g.Note != r.Note || g.Visits != r.Visits {
							t.Fatalf("%s %s row %d: estimate %s %s samples %d rate %g note %q, replay %s %s samples %d rate %g note %q",
								spec, o.ID, i, g.Method, g.Kind, g.CDF.Samples, g.Rate, g.Note, r.Method, r.Kind, r.CDF.Samples, r.Rate, r.Note)
						}
						compared++
						methods[[2]string{spec, g.Method}] = true
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			if compared < 3*2*10 {
				t.Errorf("only %d rows compared", compared)
			}
			// what each crawler's log allows: M4 for constant delays, M6 and
			// poisson-mle always, M2 with Last-Modified only
			for _, c := range []struct {
				spec, method string
				want         bool
			}{{"const:0.5", MethodM4, true}, {"const:0.5", MethodMatloff, true}, {"exp:2", MethodM4, false},
				{"exp:2", MethodM6, true}, {"exp:2", MethodPoissonMLE, true}, {"exp:2", MethodGM4, true},
				{"exp:2", MethodM2, visits.HasAges(format)}, {"const:0.5", MethodM1, visits.HasAges(format)}} {
				if methods[[2]string{c.spec, c.method}] != c.want {
					t.Errorf("%s on %s compared: %v, want %v", c.method, c.spec, !c.want, c.want)
				}
			}
		})
	}
}
