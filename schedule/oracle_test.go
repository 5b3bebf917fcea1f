package schedule

import (
	"math"
	"math/rand/v2"
	"testing"
)

// oracleOn plans gu on the exact age distributions of the window [t0, t1)
// (WindowCurve), as Validate's oracle, and returns its rates and what it
// predicts.
func oracleOn(t *testing.T, all [][]float64, t0, t1, budget float64, w []float64) ([]float64, float64) {
	t.Helper()
	in := &Input{Unit: 1, Exact: true}
	b := newCurveBuilder()
	for i, ts := range all {
		x, g, l := WindowCurve(ts, t0, t1)
		in.IDs = append(in.IDs, int64(i))
		in.Titles = append(in.Titles, "p")
		in.Lambda = append(in.Lambda, l)
		in.Note = append(in.Note, "")
		b.add(x, g)
	}
	in.Curves = b.curves()
	opt := Options{Budget: budget, Plans: []string{PlanGU}, Sweep: []float64{}}
	if w != nil {
		opt.weights = w
	}
	res, err := Plan(in, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res.Plans[0].F, res.Plans[0].MeanG
}

// randomPages are n pages of random updates (bursts, quiet stretches,
// pages created inside the window, pages with no update in it) around
// the window [0, 100).
func randomPages(r *rand.Rand, n int) [][]float64 {
	all := make([][]float64, n)
	for i := range all {
		var ts []float64
		start := r.Float64()*160 - 60
		rate := math.Exp(r.NormFloat64() * 1.5)
		for u := start; u < 130 && len(ts) < 400; u += r.ExpFloat64() / rate {
			ts = append(ts, u)
			if r.IntN(10) == 0 { // a quiet stretch
				u += r.Float64() * 60
			}
		}
		all[i] = ts
	}
	return all
}

// The oracle is the optimum of every constant-rate plan (SPEC §4.6): on
// random update sets its prediction is its realised freshness (the same
// quantity, to rounding), and no constant-rate plan at the same budget
// realises more — not uniform, not proportional, not random feasible
// splits of the budget (some leaving pages unvisited), not any plan of
// this package planned on the same window.
func TestOracleIsOptimum(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 7))
	for trial := range 30 {
		all := randomPages(r, 3+r.IntN(25))
		budget := math.Exp(r.Float64()*6 - 3)
		var w []float64
		if trial%3 == 0 {
			for range all {
				w = append(w, r.Float64()*2)
			}
		}
		f, pred := oracleOn(t, all, 0, 100, budget, w)
		real := PlanFreshness(all, f, w, 0, 100)
		if math.Abs(pred-real) > 1e-9 {
			t.Fatalf("trial %d: oracle predicts %.12f, realises %.12f", trial, pred, real)
		}
		if used := sumOf(f); math.Abs(used-budget) > 1e-9*budget {
			t.Errorf("trial %d: oracle spends %g of %g", trial, used, budget)
		}
		try := func(name string, g []float64) {
			if v := PlanFreshness(all, g, w, 0, 100); v > real+1e-9 {
				t.Errorf("trial %d: %s realises %.6f, the oracle %.6f", trial, name, v, real)
			}
		}
		uni := make([]float64, len(all))
		prop := make([]float64, len(all))
		tot := 0.0
		for i, ts := range all {
			uni[i] = budget / float64(len(all))
			prop[i] = float64(len(ts)) + 0.5
			tot += prop[i]
		}
		for i := range prop {
			prop[i] *= budget / tot
		}
		try("uniform", uni)
		try("proportional", prop)
		for k := range 100 {
			g := make([]float64, len(all))
			tot := 0.0
			for i := range g {
				if k%2 == 0 || r.IntN(3) == 0 || i == k%len(g) {
					g[i] = r.ExpFloat64()
				}
				tot += g[i]
			}
			for i := range g {
				g[i] *= budget / tot
			}
			try("a random split", g)
		}
	}
}

func sumOf(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// An independent brute force on small inputs agrees with the oracle: on
// three pages it searches every split of the budget on a grid of 1/400
// of it (refined around the best) for the largest realised freshness
// (Realized on the updates, no curve involved); the oracle's realised
// freshness is at least the grid's best and within 10⁻⁵ of it.
func TestOracleBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 31))
	for trial := range 12 {
		all := randomPages(r, 3)
		budget := math.Exp(r.Float64()*4 - 2)
		_, pred := oracleOn(t, all, 0, 100, budget, nil)
		value := func(a, b float64) float64 {
			return PlanFreshness(all, []float64{a, b, math.Max(budget-a-b, 0)}, nil, 0, 100)
		}
		best, ba, bb := math.Inf(-1), 0.0, 0.0
		const n = 400
		for i := 0; i <= n; i++ {
			for j := 0; i+j <= n; j++ {
				if v := value(budget*float64(i)/n, budget*float64(j)/n); v > best {
					best, ba, bb = v, budget*float64(i)/n, budget*float64(j)/n
				}
			}
		}
		for step := budget / n; step > budget*1e-7; step /= 2 { // coordinate refinement
			for _, d := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}} {
				a, b := ba+d[0]*step, bb+d[1]*step
				if a < 0 || b < 0 || a+b > budget {
					continue
				}
				if v := value(a, b); v > best {
					best, ba, bb = v, a, b
				}
			}
		}
		if pred < best-1e-9 || pred > best+1e-5 {
			t.Errorf("trial %d: oracle %.8f, brute force %.8f at (%.4g, %.4g, %.4g)", trial, pred, best, ba, bb, budget-ba-bb)
		}
	}
}
