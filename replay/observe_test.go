package replay

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

func sameFloat(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// For every format, the visit logs replay writes, read back and estimated
// (what `revisit estimate` does), give exactly the rows replay computed
// in-process.
func TestWriteObservationsRoundTrip(t *testing.T) {
	ds, _ := writeDataset(t, 4)
	for _, format := range logs.Formats {
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
			want := map[[2]string][]estimator.Estimate{} // (sampler, page URL) → rows without truth
			for _, e := range est {
				if e.Method != estimator.MethodTruth {
					k := [2]string{e.Sampler, ObservedID(e.PageID)}
					want[k] = append(want[k], e)
				}
			}
			compared := 0
			methods := map[[2]string]bool{} // (sampler, method) compared
			for _, spec := range meta.Samplers {
				file := filepath.Join(out, meta.Observations.Files[spec])
				_, err := logs.Read(context.Background(), []string{file}, logs.Options{Format: "auto"}, func(o *series.Observed) error {
					got, _, err := estimator.EstimateObserved(context.Background(), o, estimator.ObservedConfig{Config: estimator.Config{H: 0.1, XMax: 20, Recover: true}, Unit: transform.Hour, Sampler: spec})
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
			}{{"const:0.5", estimator.MethodM4, true}, {"const:0.5", estimator.MethodMatloff, true}, {"exp:2", estimator.MethodM4, false},
				{"exp:2", estimator.MethodM6, true}, {"exp:2", estimator.MethodPoissonMLE, true}, {"exp:2", estimator.MethodGM4, true},
				{"exp:2", estimator.MethodM2, logs.HasAges(format)}, {"const:0.5", estimator.MethodM1, logs.HasAges(format)}} {
				if methods[[2]string{c.spec, c.method}] != c.want {
					t.Errorf("%s on %s compared: %v, want %v", c.method, c.spec, !c.want, c.want)
				}
			}
		})
	}
}

// The first capture of a real log is a reference (the URL existed before
// it); with a capture of the absent page before it, it detects the
// creation. Hourly visits, one change seen at the fifth visit (j = 4):
//
//	reference: M4's a_j start there: a_4 = 1 h, a_5 = 2 h → G(1) = 1/2, G(2) = 1
//	creation:  a = 1, 2, 3, 4, then 1, 2 h → G(1) = 2/6, G(2) = 4/6, G(3) = 5/6
//
// and in both poisson-mle = matloff = −ln(1 − 1/5) per hour over the 5 pairs.
func TestEstimateObservedFirstCapture(t *testing.T) {
	base := series.Observed{ID: "u"}
	for j := range 6 {
		base.Visits = append(base.Visits, series.Visit{T: 1_600_000_000 + int64(j)*3600, Changed: j == 4})
	}
	created := base
	created.HasPrev, created.Prev, created.FirstChanged = true, 1_600_000_000-3600, true
	for _, c := range []struct {
		name string
		o    series.Observed
		m4   []float64
	}{{"reference", base, []float64{0, 0.5, 1, 1}}, {"creation", created, []float64{0, 2.0 / 6, 4.0 / 6, 5.0 / 6}}} {
		est, info, err := estimator.EstimateObserved(context.Background(), &c.o, estimator.ObservedConfig{Config: estimator.Config{XMax: 3, H: 0.5}, Unit: transform.Hour})
		if err != nil {
			t.Fatal(err)
		}
		if !info.Constant || info.Delta != 1 || info.Sampler != "observed const:1" {
			t.Fatalf("%s: %+v, want constant delays of 1 h", c.name, info)
		}
		m4 := findRow(est, estimator.MethodM4, estimator.KindG)
		for i, want := range c.m4 {
			if math.Abs(m4.CDF.P[i]-want) > 1e-15 {
				t.Errorf("%s: M4 at %g h = %g, want %g", c.name, m4.CDF.X[i], m4.CDF.P[i], want)
			}
		}
		want := -math.Log(1 - 1.0/5)
		for _, m := range []string{estimator.MethodPoissonMLE, estimator.MethodMatloff} {
			if r := findRow(est, m, estimator.KindG).Rate; math.Abs(r-want) > 1e-14 {
				t.Errorf("%s: %s = %g, want %g", c.name, m, r, want)
			}
		}
		if findRow(est, estimator.MethodM2, estimator.KindG) != nil {
			t.Errorf("%s: M2 without Last-Modified", c.name)
		}
	}
}

// A page absent 100 h before hourly visits: the first visit detects the
// creation somewhere in those 100 h, so its delay is 100 h, not Δ = 1 h,
// and the delays are not constant. M4 took a_1 = Δ all the same (an age
// of at most 1 h where it may be 100 h). Irregular delays: G-M4's first
// sample is s_1 − Prev = 100 h, and no M4.
func TestEstimateObservedFirstDelayCounts(t *testing.T) {
	o := series.Observed{ID: "u", HasPrev: true, Prev: 1_600_000_000 - 100*3600, FirstChanged: true}
	for j := range 6 {
		o.Visits = append(o.Visits, series.Visit{T: 1_600_000_000 + int64(j)*3600, Changed: j == 4})
	}
	est, info, err := estimator.EstimateObserved(context.Background(), &o, estimator.ObservedConfig{Config: estimator.Config{XMax: 200, H: 1}, Unit: transform.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if info.Constant || findRow(est, estimator.MethodM4, estimator.KindG) != nil {
		t.Fatalf("constant %v, M4 run: the first delay of 100 h is not Δ = 1 h", info.Constant)
	}
	// G-M4: s* = Prev for j = 0…3 (samples 100…103 h), then s_3 for j = 4, 5 (1, 2 h)
	g := findRow(est, estimator.MethodGM4, estimator.KindG)
	for _, c := range []struct{ x, p float64 }{{2, 2.0 / 6}, {99, 2.0 / 6}, {100, 3.0 / 6}, {103, 1}} {
		if p := g.CDF.P[int(c.x)]; math.Abs(p-c.p) > 1e-15 {
			t.Errorf("G-M4 at %g h = %g, want %g", c.x, p, c.p)
		}
	}
}

// A crawler that makes no visit in a page's window (first visit U·S_0
// after the last update: likely with exp:0.003x, mean delay 333·E[U])
// failed the whole replay with --write-observations ("no visit"). The
// page gets its truth rows and no observations, as a crawl with one visit
// does, and the replay without observations agrees on the visits made.
func TestWriteObservationsNoVisit(t *testing.T) {
	ds, _ := writeDataset(t, 3)
	for _, format := range []string{"", "cdx"} {
		out := filepath.Join(t.TempDir(), "rep")
		opt := Options{Dataset: ds, Out: out, Samplers: []string{"exp:0.003x"}, Seed: 1, Workers: 1, WriteObservations: format}
		if _, err := Run(context.Background(), opt); err != nil {
			t.Fatalf("format %q: %v", format, err)
		}
		_, est, err := ReadEstimates(out)
		if err != nil {
			t.Fatal(err)
		}
		zero := 0
		for _, e := range est {
			if e.Method == estimator.MethodTruth && e.Kind == estimator.KindG && e.Visits == 0 {
				zero++
			}
		}
		if zero == 0 {
			t.Errorf("format %q: no page without a visit: the case tests nothing", format)
		}
	}
}

// findRow is the row of method and kind in est (nil if absent).
func findRow(est []estimator.Estimate, method, kind string) *estimator.Estimate {
	for i := range est {
		if est[i].Method == method && est[i].Kind == kind {
			return &est[i]
		}
	}
	return nil
}
