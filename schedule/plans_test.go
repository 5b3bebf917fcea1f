package schedule

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/model"
)

// Least concave majorants worked out by hand (upper hull of the origin
// and the points, then flat after the maximum, then clipped to 1).
func TestConcaveHand(t *testing.T) {
	for _, c := range []struct {
		name    string
		x, g, w []float64
	}{
		{"dent filled", []float64{1, 2, 3}, []float64{0.2, 0.6, 0.7}, []float64{0.3, 0.6, 0.7}},
		{"decrease flattened", []float64{1, 2, 3}, []float64{0.5, 0.9, 0.8}, []float64{0.5, 0.9, 0.9}},
		{"clipped at 1", []float64{1, 2}, []float64{0.8, 1.3}, []float64{0.8, 1}},
		{"already concave", []float64{1, 2, 3}, []float64{0.5, 0.75, 0.875}, []float64{0.5, 0.75, 0.875}},
		// Steps (0,0),(1,.4),(2,.4),(3,.9),(4,.9): hull vertices 0, 1, 3,
		// 4 with slopes .4, .25, 0, so x=2 gets .4 + .25.
		{"steps", []float64{1, 2, 3, 4}, []float64{0.4, 0.4, 0.9, 0.9}, []float64{0.4, 0.65, 0.9, 0.9}},
		{"uneven grid", []float64{0.5, 1, 4}, []float64{0.1, 0.5, 0.8}, []float64{0.25, 0.5, 0.8}},
	} {
		g := slices.Clone(c.g)
		Concave(c.x, g)
		for k := range g {
			if math.Abs(g[k]-c.w[k]) > 1e-15 {
				t.Errorf("%s: got %v, want %v", c.name, g, c.w)
				break
			}
		}
	}
}

// expProblem builds pages with exponential G_U (rate λ_i), each on its
// own grid of n knots up to 40/λ_i.
func expProblem(lambdas, w []float64, budget float64, n int) *Problem {
	c := &Curves{Off: []int{0}}
	for _, l := range lambdas {
		x, g := expCurve(l, 40/l, n)
		c.X = append(c.X, x...)
		c.G = append(c.G, g...)
		c.Off = append(c.Off, len(c.G))
	}
	return &Problem{Curves: c, Lambda: slices.Clone(lambdas), W: w, Budget: budget}
}

// On Poisson pages the G_U plan is Cho and Garcia-Molina's plan: their
// optimum is the special case G_U(x) = 1 − e^{−λx}. Rates within 1 %
// (plus a small absolute slack for pages near the cut-off, where both
// are near 0).
func TestGUEqualsChoGMOnPoisson(t *testing.T) {
	var lambdas, w []float64
	for i := range 30 {
		lambdas = append(lambdas, 0.01*math.Pow(1000, float64(i)/29))
		w = append(w, 1+float64(i%3))
	}
	const budget = 4.0
	p := expProblem(lambdas, w, budget, 4000)
	if err := p.Prepare(); err != nil {
		t.Fatal(err)
	}
	gu, err := p.Solve(PlanGU)
	if err != nil {
		t.Fatal(err)
	}
	cho, err := p.Solve(PlanChoGM)
	if err != nil {
		t.Fatal(err)
	}
	zeros := 0
	for i := range lambdas {
		a, b := gu.F[i], cho.F[i]
		if b == 0 {
			zeros++
		}
		if math.Abs(a-b) > 0.01*b+1e-4*budget/float64(len(lambdas)) {
			t.Errorf("page %d λ=%.4g w=%g: gu %.6g, cho-gm %.6g", i, lambdas[i], w[i], a, b)
		}
	}
	if zeros == 0 || zeros == len(lambdas) {
		t.Errorf("%d of %d pages unvisited by cho-gm: the test should cover both cases", zeros, len(lambdas))
	}
	for _, s := range []*Solution{gu, cho} {
		if math.Abs(s.Used-budget) > 1e-9*budget {
			t.Errorf("budget used %g, want %g", s.Used, budget)
		}
	}
}

// fOf is F(f) = f·∫₀^{1/f}(1 − G) = φ(1/f) from Freshness, and dF its
// derivative by a central difference: independent of ToD and invD.
func fOf(x, g []float64, f float64) float64 { return Freshness(x, g, 1/f) }

func dF(x, g []float64, f float64) float64 {
	h := 1e-5 * f
	return (fOf(x, g, f+h) - fOf(x, g, f-h)) / (2 * h)
}

// concavePages builds n pages with age distributions of several families
// on a shared grid, with multiplicative noise on some (projected by
// Prepare), and returns the problem and a projected copy of each Ĝ.
func concavePages(n int, grid []float64, seed uint64) (*Problem, [][]float64) {
	r := model.NewRand(seed, 0)
	dists := []model.Dist{
		model.Exponential{Rate: 0.3}, model.Pareto{Alpha: 1.7, Beta: 2}, model.Weibull{K: 0.5, Scale: 1},
		model.Lognormal{Mu: 1, Sigma: 1.5}, model.Uniform{A: 2, B: 6}, model.Exponential{Rate: 4},
	}
	c := &Curves{Grid: grid, Off: []int{0}}
	var lambdas, w []float64
	var proj [][]float64
	for i := range n {
		d := dists[i%len(dists)]
		g := make([]float64, len(grid))
		for k, x := range grid {
			g[k] = d.AgeCDF(x)
			if i%4 == 3 {
				g[k] *= 1 + 0.2*(r.Float64()-0.5)
			}
		}
		c.G = append(c.G, g...)
		c.Off = append(c.Off, len(c.G))
		pg := slices.Clone(g)
		Concave(grid, pg)
		proj = append(proj, pg)
		lambdas = append(lambdas, 1/d.Mean())
		w = append(w, 0.5+r.Float64()*3)
	}
	return &Problem{Curves: c, Lambda: lambdas, W: w}, proj
}

func logGrid(a, b float64, n int) []float64 {
	g := make([]float64, n)
	for k := range g {
		g[k] = a * math.Pow(b/a, float64(k)/float64(n-1))
	}
	return g
}

// KKT conditions of the G_U plan: the budget is spent, w_i F_i'(f_i) is
// the same μ on every visited page, and w_i F_i'(0⁺) ≤ μ on the others;
// F' by finite differences of Freshness on the projected Ĝ.
func TestKKT(t *testing.T) {
	grid := logGrid(0.01, 200, 300)
	p, proj := concavePages(60, grid, 3)
	p.Budget = 6
	if err := p.Prepare(); err != nil {
		t.Fatal(err)
	}
	s, err := p.Solve(PlanGU)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.Used-p.Budget) > 1e-9*p.Budget {
		t.Errorf("budget used %g, want %g", s.Used, p.Budget)
	}
	active := 0
	for i, f := range s.F {
		if f > 0 {
			active++
			if m := p.W[i] * dF(grid, proj[i], f); math.Abs(m-s.Mu) > 1e-4*s.Mu {
				t.Errorf("page %d f=%g: w F'(f) = %g, μ = %g", i, f, m, s.Mu)
			}
		} else if m := p.W[i] * dF(grid, proj[i], 1e-7); m > s.Mu*(1+1e-6) {
			t.Errorf("page %d unvisited: w F'(0⁺) = %g > μ = %g", i, m, s.Mu)
		}
	}
	if active == 0 || active == len(s.F) {
		t.Errorf("%d of %d pages visited: the test should cover both cases", active, len(s.F))
	}
}

// With host limits: a host whose pages would take more than its limit
// gets exactly its limit and its visited pages share a multiplier λ_h >
// μ; all other pages satisfy the plain KKT conditions at μ; the budget
// is spent.
func TestKKTHostLimits(t *testing.T) {
	grid := logGrid(0.01, 200, 300)
	p, proj := concavePages(60, grid, 5)
	p.Budget = 6
	host := make([]int32, 60)
	for i := range host {
		host[i] = int32(i%4) - 1 // −1: no host; hosts 0, 1, 2
	}
	p.Limits = &Limits{Host: host, Limit: []float64{0.5, 100, 0.8}}
	if err := p.Prepare(); err != nil {
		t.Fatal(err)
	}
	s, err := p.Solve(PlanGU)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.Used-p.Budget) > 1e-9*p.Budget {
		t.Errorf("budget used %g, want %g", s.Used, p.Budget)
	}
	load := make([]float64, 3)
	for i, f := range s.F {
		if h := host[i]; h >= 0 {
			load[h] += f
		}
	}
	for h, l := range p.Limits.Limit {
		if load[h] > l*(1+1e-9) {
			t.Errorf("host %d: load %g over its limit %g", h, load[h], l)
		}
	}
	binding := 0
	for h := range 3 {
		nu := s.Mu
		if s.HostMu[h] > s.Mu {
			binding++
			nu = s.HostMu[h]
			if math.Abs(load[h]-p.Limits.Limit[h]) > 1e-9 {
				t.Errorf("host %d binds (λ_h %g > μ %g) but its load is %g, limit %g", h, s.HostMu[h], s.Mu, load[h], p.Limits.Limit[h])
			}
		}
		for i, f := range s.F {
			if host[i] != int32(h) || f == 0 {
				continue
			}
			if m := p.W[i] * dF(grid, proj[i], f); math.Abs(m-nu) > 1e-4*nu {
				t.Errorf("host %d page %d: w F'(f) = %g, want %g", h, i, m, nu)
			}
		}
	}
	if binding != 2 {
		t.Errorf("%d hosts bind, want 2 (hosts 0 and 2)", binding)
	}
	for i, f := range s.F {
		if host[i] == -1 && f > 0 {
			if m := p.W[i] * dF(grid, proj[i], f); math.Abs(m-s.Mu) > 1e-4*s.Mu {
				t.Errorf("free page %d: w F'(f) = %g, μ = %g", i, m, s.Mu)
			}
		}
	}
}

// The Poisson plans on 3 pages against a brute-force search of their
// objectives over the simplex f1 + f2 + f3 = B (a coarse grid, then a
// finer one around its best point).
func TestPoissonPlansBruteForce(t *testing.T) {
	lambdas := []float64{0.5, 2, 5}
	w := []float64{1, 3, 0.5}
	const B = 4.0
	objectives := map[string]func(l, w, f float64) float64{
		PlanLambda:       func(l, w, f float64) float64 { return w * math.Log(f/(l+f)) },
		PlanLambdaBinary: func(l, w, f float64) float64 { return w * f / (l + f) },
		PlanChoGM: func(l, w, f float64) float64 {
			if f == 0 {
				return 0
			}
			return w * f / l * -math.Expm1(-l/f)
		},
	}
	p := expProblem(lambdas, w, B, 200)
	if err := p.Prepare(); err != nil {
		t.Fatal(err)
	}
	for plan, obj := range objectives {
		total := func(f1, f2 float64) float64 {
			f3 := B - f1 - f2
			if f1 < 0 || f2 < 0 || f3 < 0 {
				return math.Inf(-1)
			}
			return obj(lambdas[0], w[0], f1) + obj(lambdas[1], w[1], f2) + obj(lambdas[2], w[2], f3)
		}
		b1, b2, best := 0.0, 0.0, math.Inf(-1)
		search := func(c1, c2, span, step float64) {
			for f1 := math.Max(0, c1-span); f1 <= c1+span; f1 += step {
				for f2 := math.Max(0, c2-span); f2 <= c2+span; f2 += step {
					if v := total(f1, f2); v > best {
						b1, b2, best = f1, f2, v
					}
				}
			}
		}
		search(B/2, B/2, B/2, B/1000)
		search(b1, b2, B/500, B/200000)
		want := []float64{b1, b2, B - b1 - b2}
		s, err := p.Solve(plan)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if math.Abs(s.F[i]-want[i]) > 1e-3 {
				t.Errorf("%s page %d: rate %.6f, brute force %.6f (all %v vs %v)", plan, i, s.F[i], want[i], s.F, want)
			}
		}
		if v := total(s.F[0], s.F[1]); v < best-1e-9 {
			t.Errorf("%s: objective %.9f below the brute force's %.9f", plan, v, best)
		}
	}
}

// choInv inverts h(x) = 1 − (1 + x)e^{−x} across its range: to 1e-12
// of x where h is well conditioned (x < 20; beyond, 1 − y is a few
// thousand ulps of 1 and x is only known to 1e-6), and h(choInv(y)) = y to 1e-15 of y
// on a fine log grid of y (both start regions and the switch between
// them at y = 0.3).
func TestChoInv(t *testing.T) {
	h := func(x float64) float64 { return -math.Expm1(-x) - x*math.Exp(-x) }
	for _, x := range []float64{1e-6, 1e-3, 0.1, 1, 1.5, 5, 20, 30} {
		tol := 1e-12
		if x < 1e-4 {
			tol = 1e-9 // h(x) ≈ x²/2 computed with cancellation above
		}
		if x >= 20 { // 1 − h(x) = (1 + x)e^{−x} is a few thousand ulps of 1
			tol = 1e-6
		}
		if got := choInv(h(x)); math.Abs(got-x) > tol*x {
			t.Errorf("choInv(h(%g)) = %.17g", x, got)
		}
	}
	for k := 0; k <= 4000; k++ {
		y := math.Pow(10, -8+8*float64(k)/4000) * (1 - 1e-9)
		x := choInv(y)
		if r := h(x); math.Abs(r-y) > 1e-13*y+1e-16 {
			t.Errorf("h(choInv(%.17g)) = %.17g", y, r)
		}
	}
	if choInv(0) != 0 || !math.IsInf(choInv(1), 1) {
		t.Errorf("choInv(0) = %g, choInv(1) = %g", choInv(0), choInv(1))
	}
}

// Pages that never changed get --min-rate in every plan, counted in the
// budget; uniform gives every page B/N.
func TestMinRateAndUniform(t *testing.T) {
	p := expProblem([]float64{1, 2, 3}, nil, 3, 100)
	// Page 1 never changed: Ĝ ≡ 0, λ̂ = 0.
	for k := p.Curves.Off[1]; k < p.Curves.Off[2]; k++ {
		p.Curves.G[k] = 0
	}
	p.Lambda[1] = 0
	p.MinRate = 0.25
	if err := p.Prepare(); err != nil {
		t.Fatal(err)
	}
	for _, plan := range PlanNames {
		s, err := p.Solve(plan)
		if err != nil {
			t.Fatal(err)
		}
		if plan == PlanUniform {
			for i, f := range s.F {
				if math.Abs(f-1) > 1e-12 {
					t.Errorf("uniform page %d: %g, want 1", i, f)
				}
			}
			continue
		}
		if s.F[1] != 0.25 {
			t.Errorf("%s: unchanged page rate %g, want the min rate 0.25", plan, s.F[1])
		}
		if math.Abs(s.Used-3) > 1e-9 {
			t.Errorf("%s: used %g, want 3", plan, s.Used)
		}
	}
	// Proportional: f ∝ λ̂ over the changing pages: 2.75·(1/4, 3/4).
	s, _ := p.Solve(PlanProportional)
	if math.Abs(s.F[0]-2.75/4) > 1e-9 || math.Abs(s.F[2]-2.75*3/4) > 1e-9 {
		t.Errorf("proportional: %v", s.F)
	}
}

// bisect from a guess (a narrow step, squared as it grows) finds the
// multiplier a cold start finds, to 1e-12, whether the guess is good,
// far too small or far too large; and reports a demand that never binds.
func TestBisectWarmStart(t *testing.T) {
	// Σ of 50 LambdaCrawl-like demands: smooth, decreasing, kinks at 0.
	demand := func(mu float64) float64 {
		s := 0.0
		for i := 1; i <= 50; i++ {
			s += math.Max(0, math.Sqrt(float64(i)/mu)-float64(i)/10)
		}
		return s
	}
	cold, ok := bisect(demand, 40, 1, 16)
	if !ok {
		t.Fatal("cold start: not binding")
	}
	for _, start := range []float64{cold * 1.001, cold / 1.3, cold * 1e6, cold * 1e-9} {
		warm, ok := bisect(demand, 40, start, 1.02)
		if !ok || math.Abs(warm/cold-1) > 1e-12 {
			t.Errorf("start %g: μ %.17g (ok %v), cold %.17g", start, warm, ok, cold)
		}
	}
	if _, ok := bisect(func(float64) float64 { return 1 }, 2, 5, 1.02); ok {
		t.Error("a demand below the target at every μ binds")
	}
}

// Above warmPages pages the solver starts from a subsample's multiplier:
// the plans still spend the budget and match their closed forms
// (proportional: f_i = B λ_i / Σλ; uniform: B/N).
func TestSolveWarmStart(t *testing.T) {
	n := warmPages + 7
	lambdas := make([]float64, n)
	sum := 0.0
	for i := range lambdas {
		lambdas[i] = math.Pow(10, -2+4*float64((i*7919)%n)/float64(n))
		sum += lambdas[i]
	}
	p := expProblem(lambdas, nil, float64(n)/10, 16)
	if err := p.Prepare(); err != nil {
		t.Fatal(err)
	}
	for _, plan := range PlanNames {
		s, err := p.Solve(plan)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(s.Used/p.Budget-1) > 1e-9 {
			t.Errorf("%s: used %.12g of %g", plan, s.Used, p.Budget)
		}
		for _, i := range []int{0, 1, n / 2, n - 1} {
			var want float64
			switch plan {
			case PlanProportional:
				want = p.Budget * lambdas[i] / sum
			case PlanUniform:
				want = p.Budget / float64(n)
			default:
				continue
			}
			if math.Abs(s.F[i]/want-1) > 1e-9 {
				t.Errorf("%s page %d: %.12g, want %.12g", plan, i, s.F[i], want)
			}
		}
	}
}

// Under Ĝ the gu plan is the optimum over all rates with Σ f ≤ B (F is concave
// in f for every CDF): it spends the whole budget and no other plan, nor any
// random split of the budget, predicts more freshness, at budgets from one
// visit a month in all to many per page, with importances and with host
// limits. A page whose Ĝ reaches its last value at a finite age has a flat
// marginal value below the rate 1/x* there, a jump of the demand that the
// bisection must not step over.
func TestGUSpendsBudgetAndIsBest(t *testing.T) {
	dir := writeDataset(t, 20)
	r := rand.New(rand.NewPCG(8, 1))
	for _, perDay := range []float64{0.03, 0.5, 5, 50, 500} {
		for _, withW := range []bool{false, true} {
			in, err := ReadTruth(dir, 3600)
			if err != nil {
				t.Fatal(err)
			}
			var w []float64
			if withW {
				for range in.IDs {
					w = append(w, r.Float64()*3)
				}
			}
			p := &Problem{Curves: &in.Curves, Lambda: in.Lambda, W: w, Budget: perDay / 24}
			if err := p.Prepare(); err != nil {
				t.Fatal(err)
			}
			gu, err := p.Solve(PlanGU)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(gu.Used-p.Budget) > 1e-9*p.Budget {
				t.Errorf("%g/d: gu spends %g of %g visits/h", perDay, gu.Used, p.Budget)
			}
			best := meanFresh(p, gu.F)
			for _, name := range PlanNames[1:] {
				s, err := p.Solve(name)
				if err != nil {
					t.Fatal(err)
				}
				if f := meanFresh(p, s.F); f > best+1e-12 {
					t.Errorf("%g/d, weights %v: %s predicts %.6f under Ĝ, gu %.6f", perDay, withW, name, f, best)
				}
			}
			for k := range 200 { // random feasible allocations, some sparse
				f := make([]float64, len(gu.F))
				tot := 0.0
				for i := range f {
					if k%2 == 0 || r.IntN(4) == 0 || i == k%len(f) {
						f[i] = -math.Log(1 - r.Float64())
					}
					tot += f[i]
				}
				for i := range f {
					f[i] *= p.Budget / tot
				}
				if v := meanFresh(p, f); v > best+1e-12 {
					t.Fatalf("%g/d: a random allocation predicts %.6f under Ĝ, gu %.6f", perDay, v, best)
				}
			}
		}
	}
	// With host limits that bind: each host's pages fill its limit
	// exactly when the limit binds, and the budget is spent.
	in, err := ReadTruth(dir, 3600)
	if err != nil {
		t.Fatal(err)
	}
	host := make([]int32, len(in.IDs))
	for i := range host {
		host[i] = int32(i % 3)
	}
	p := &Problem{Curves: &in.Curves, Lambda: in.Lambda, Budget: 40.0 / 24, Limits: &Limits{Host: host, Limit: []float64{0.05 / 24, 1.0 / 24, 100}}}
	if err := p.Prepare(); err != nil {
		t.Fatal(err)
	}
	gu, err := p.Solve(PlanGU)
	if err != nil {
		t.Fatal(err)
	}
	var per [3]float64
	for i, f := range gu.F {
		per[host[i]] += f
	}
	if math.Abs(per[0]-0.05/24) > 1e-9 || math.Abs(per[1]-1.0/24) > 1e-9 || math.Abs(gu.Used-p.Budget) > 1e-9*p.Budget {
		t.Errorf("host limits: hosts get %v visits/h, %g used; want limits 0.05/24, 1/24 filled and %g used", per, gu.Used, p.Budget)
	}
}
