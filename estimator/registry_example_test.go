package estimator_test

import (
	"fmt"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/replay"
	"github.com/revisit-dev/revisit/series"
)

// delayECDF is a toy estimator: the ECDF of the crawler's delays
// s_j − s_{j−1}. It estimates the sampler, not G_U (biased).
type delayECDF struct {
	x      []float64
	delays []float64
}

func (e *delayECDF) Observe(o *estimator.Obs) {
	if o.J > 0 {
		e.delays = append(e.delays, o.S-o.Prev)
	}
}

func (e *delayECDF) Estimate() (estimator.Result, error) {
	p := make([]float64, len(e.x))
	for i, x := range e.x {
		for _, d := range e.delays {
			if d <= x {
				p[i]++
			}
		}
		p[i] /= float64(len(e.delays))
	}
	return estimator.Result{CDF: series.CDF{X: e.x, P: p, Samples: len(e.delays)}}, nil
}

// A new estimator is one estimator.Method: registered here in a test with
// Registry.With (a built-in one is an entry of the table in methods.go
// plus the file with its code), it is parsed from --methods, run by
// replay on every crawl and classified, interpolated (or not) and ranked
// by analysis, all from its descriptor.
//
// The page is updated at 0, 1, 3, 4 and 8 h (intervals 1, 2, 1, 4 h) and
// visited every hour from 0.5 h. Its G_U(x) = Σ min(U_i, x)/Σ U_i is 0,
// 0.5, 0.75, 0.875, 1 at x = 0 … 4; every delay is 1 h, so M7 is 0, 1, 1,
// 1, 1 there: WMRD = (0.5 + 0.25 + 0.125)/((1.5 + 1.75 + 1.875 + 2)/2) =
// 0.875/3.5625 = 0.2456, KS = 0.5.
func ExampleRegistry_With() {
	reg, err := estimator.Registry{}.With(estimator.Method{
		Name:     "M7",
		Observes: estimator.Comparison,
		Class:    estimator.Biased,
		New: func(c *estimator.Crawl) estimator.Estimator {
			e := &delayECDF{x: c.X}
			c.Watch(e)
			return e
		},
	})
	if err != nil {
		panic(err)
	}
	names, _ := reg.Parse([]string{"m7,M4"})
	fmt.Println("parsed:", names)

	s, _ := estimator.ParseSampler("const:1")
	cfg := estimator.Config{Methods: []string{"M7"}, H: 1, XMax: 4, Registry: reg}
	rows, err := replay.ReplayVisits([]float64{0, 1, 3, 4, 8}, []float64{0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5}, s, cfg)
	if err != nil {
		panic(err)
	}
	for _, r := range rows {
		if r.Kind == "G" {
			fmt.Printf("%-5s %v constant=%v\n", r.Method, r.CDF.P, r.Constant)
		}
	}

	errs, err := analysis.PageErrorsFor(reg, rows, 0, analysis.DefaultExtra, nil)
	if err != nil {
		panic(err)
	}
	for _, m := range analysis.SummarizeFor(reg, errs, 1) {
		if m.Kind == "G" {
			fmt.Printf("%s: class %s, rank %d, WMRD %.4f, KS %.2f\n", m.Method, m.Class, reg.Rank(m.Method), m.MeanWMRD, m.MeanKS)
		}
	}
	// Output:
	// parsed: [M4 M7]
	// M7    [0 1 1 1 1] constant=true
	// truth [0 0.5 0.75 0.875 1] constant=true
	// M7: class biased, rank 12, WMRD 0.2456, KS 0.50
}
