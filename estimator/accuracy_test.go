package estimator

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// StoreErrors' second range: on x ≤ MeanRange·E[U] the error of a row is
// the comparison restricted to those grid points, computed here by hand
// for a non-step method (M2, compared at the grid points) on a grid
// 0, 1, …, 30 with E[U] = 1.5: x ≤ 15.
func TestStoreErrorsMeanRange(t *testing.T) {
	var xs, g, h []float64
	for i := 0; i <= 30; i++ {
		x := float64(i)
		xs = append(xs, x)
		g = append(g, math.Min(x/20, 1))
		h = append(h, math.Min(x/18, 1))
	}
	est := []Estimate{
		{Method: MethodTruth, Kind: KindG, CDF: series.CDF{Method: MethodTruth, X: xs, P: g}},
		{Method: MethodM2, Kind: KindG, CDF: series.CDF{Method: MethodM2, X: xs, P: h}},
	}
	if err := StoreErrors(Registry{}, est, nil, 1.5); err != nil {
		t.Fatal(err)
	}
	var num, den, ks float64
	for i := 0; i <= 15; i++ {
		d := math.Abs(h[i] - g[i])
		num += d
		den += (h[i] + g[i]) / 2
		ks = math.Max(ks, d)
	}
	e := est[1].ErrMean
	if e == nil || math.Abs(e.WMRD-num/den) > 1e-12 || math.Abs(e.KS-ks) > 1e-12 || e.XMax != 15 || e.Points != 16 {
		t.Fatalf("ErrMean = %+v, want WMRD %g KS %g on 16 points to 15", e, num/den, ks)
	}
	// on the whole grid the KS is at x = 18 (|1 − 0.9|), larger
	if full := est[1].Err; math.Abs(full.KS-0.1) > 1e-12 || full.XMax != 30 {
		t.Fatalf("Err = %+v, want KS 0.1 on the whole grid", full)
	}
	if em := est[0].ErrMean; em == nil || !math.IsNaN(em.KS) {
		t.Fatalf("truth row's ErrMean = %+v, want NoError", em)
	}
}

// StoreErrors computes each comparison's points and truth once for the
// rows that share them and walks the grids; its errors must be those of
// the definition, point for point: every row's estimate evaluated at each
// point by series.CDF.Linear (step rows, on the refined grid) or At, the
// truth by the exact G_U or the truth row's At, WMRD and KS over them.
// Checked bit for bit on crawls of random paths with every method, for
// random and constant delays, on both ranges.
func TestStoreErrorsPointwise(t *testing.T) {
	upd := model.Pareto{Alpha: 1.8, Beta: 2}
	for _, spec := range []string{"exp:4", "const:0.3", "uniform:2"} {
		smp, err := ParseSampler(spec)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 5; seed++ {
			tt, ss := randomPath(seed, 300, upd, smp)
			cfg := Config{H: 0.1, XMax: 15}
			est, err := estimate(tt, ss, smp, cfg)
			if err != nil {
				t.Fatal(err)
			}
			var u []float64
			for i := 1; i < len(tt); i++ {
				u = append(u, tt[i]-tt[i-1])
			}
			g := newGrid(smp.Step(cfg.H), cfg.XMax)
			age := exactAge(u)
			est = append(est, Estimate{Method: MethodTruth, Kind: KindG, CDF: series.CDF{X: g.x, P: age(g.x)}},
				Estimate{Method: MethodTruth, Kind: KindF, CDF: series.CDF{X: g.x, P: intervalECDF(u, g.x)}})
			meanU := tt[len(tt)-1] / float64(len(u))
			if err := StoreErrors(Registry{}, est, age, meanU); err != nil {
				t.Fatal(err)
			}
			truth := map[string]series.CDF{}
			for _, r := range est {
				if r.Method == MethodTruth {
					truth[r.Kind] = r.CDF
				}
			}
			for _, r := range est {
				if r.Method == MethodTruth {
					continue
				}
				for k, xmax := range []float64{0, MeanRange * meanU} {
					want := pointwiseError(&r, truth[r.Kind], xmax, age)
					got := *r.Err
					if k == 1 {
						got = *r.ErrMean
					}
					same := func(a, b float64) bool { return a == b || a != a && b != b }
					if !same(got.WMRD, want.WMRD) || !same(got.KS, want.KS) || got.Points != want.Points || got.XMax != want.XMax {
						t.Fatalf("%s seed %d: %s %s range %d: stored %+v, pointwise %+v", spec, seed, r.Method, r.Kind, k, got, want)
					}
				}
			}
		}
	}
}

// pointwiseError is RowError by its definition, one point at a time.
func pointwiseError(r *Estimate, truth series.CDF, xmax float64, exact TruthFunc) Error {
	m, _ := Registry{}.Lookup(r.Method)
	est := r.CDF
	if m.Class == Baseline && len(est.X) == 0 {
		if math.IsNaN(r.Rate) || r.Rate <= 0 || math.IsInf(r.Rate, 0) {
			return NoError()
		}
		est = series.CDF{X: truth.X, P: make([]float64, len(truth.X))}
		for i, x := range truth.X {
			est.P[i] = -math.Expm1(-r.Rate * x)
		}
	}
	if len(est.X) == 0 {
		return NoError()
	}
	step := m.Step && r.Kind == KindG
	var xs []float64
	for _, x := range truth.X {
		if xmax > 0 && x > xmax*(1+1e-12) {
			break
		}
		if n := len(xs); step && n > 0 {
			for k := 1; k <= DefaultExtra; k++ {
				xs = append(xs, xs[n-1]+(x-xs[n-1])*float64(k)/float64(DefaultExtra+1))
			}
		}
		xs = append(xs, x)
	}
	var h, g []float64
	for _, x := range xs {
		if step {
			h = append(h, est.Linear(x))
		} else {
			h = append(h, est.At(x))
		}
		if r.Kind == KindG {
			g = append(g, exact([]float64{x})[0])
		} else {
			g = append(g, truth.At(x))
		}
	}
	return Error{WMRD: series.WMRD(h, g), KS: series.KS(h, g), Points: len(xs), XMax: xs[len(xs)-1]}
}

// exactAge is G_U(x) = Σ min(U_i, x)/Σ U_i at each point, summed directly.
func exactAge(u []float64) TruthFunc {
	return func(xs []float64) []float64 {
		tot := 0.0
		for _, v := range u {
			tot += v
		}
		g := make([]float64, len(xs))
		for i, x := range xs {
			s := 0.0
			for _, v := range u {
				s += math.Min(v, x)
			}
			g[i] = s / tot
		}
		return g
	}
}

// intervalECDF is #{U_i ≤ x}/n at each point.
func intervalECDF(u, xs []float64) []float64 {
	p := make([]float64, len(xs))
	for i, x := range xs {
		for _, v := range u {
			if v <= x {
				p[i]++
			}
		}
		p[i] /= float64(len(u))
	}
	return p
}
