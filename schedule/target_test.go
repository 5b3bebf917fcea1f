package schedule

import (
	"context"
	"math"
	"testing"

	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// phiPoisson is Cho and Garcia-Molina's freshness of a Poisson page of
// rate λ visited every Δ: (1 − e^{−λΔ})/(λΔ).
func phiPoisson(lambda, delta float64) float64 {
	x := lambda * delta
	return -math.Expm1(-x) / x
}

// xFor solves (1 − e^{−x})/x = phi for x > 0 by plain bisection (the left
// side falls from 1 to 0): the reference for BudgetFor.
func xFor(phi float64) float64 {
	lo, hi := 1e-12, 100.0
	for range 200 {
		mid := (lo + hi) / 2
		if -math.Expm1(-mid)/mid > phi {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// BudgetFor against the closed form: N identical Poisson pages of rate λ
// on the uniform plan (Δ = N/B) reach φ = 0.9 at B = Nλ/x with
// (1 − e^{−x})/x = 0.9, from a start above or below; a plan capped below
// the target gives +Inf; budgets too small to plan count as below.
func TestBudgetForClosedForm(t *testing.T) {
	const n, lambda = 50.0, 0.3
	want := n * lambda / xFor(0.9)
	fresh := func(b float64) (float64, bool) { return phiPoisson(lambda, n/b), true }
	for _, b0 := range []float64{0.01, 1, want, 1e4} {
		got := BudgetFor(0.9, b0, fresh)
		if math.Abs(got/want-1) > 2*budgetTol || got < want*(1-1e-12) {
			t.Errorf("start %g: budget %.6g, closed form %.6g", b0, got, want)
		}
	}
	capped := func(b float64) (float64, bool) { return 0.8 * phiPoisson(lambda, n/b), true }
	if got := BudgetFor(0.9, 1, capped); !math.IsInf(got, 1) {
		t.Errorf("unreachable target: %g, want +Inf", got)
	}
	// Below b = 5 there is no plan; at 5, φ = (1 − e^{−3})/3 ≈ 0.317 ≥ 0.2.
	floor := func(b float64) (float64, bool) {
		if b < 5 {
			return 1, false
		}
		return phiPoisson(lambda, n/b), true
	}
	if got := BudgetFor(0.2, 100, floor); got < 5 || got > 5*(1+2*budgetTol) {
		t.Errorf("budget floor 5: %g", got)
	}
}

// identicalPoisson are n pages of Poisson updates at rate per hour over
// span seconds.
func identicalPoisson(n int, rate, span float64, seed uint64) []series.Page {
	var pages []series.Page
	for i := range n {
		r := model.NewRand(seed, uint64(i))
		p := series.Page{ID: int64(i + 1), Title: "p", Resolution: 1}
		t0 := 1_500_000_000.0
		for t := t0; t < t0+span; t += 3600 * r.ExpFloat64() / rate {
			if u := int64(t); len(p.Updates) == 0 || u > p.Updates[len(p.Updates)-1] {
				p.Updates = append(p.Updates, u)
			}
		}
		pages = append(pages, p)
	}
	return pages
}

// --target-freshness on identical Poisson pages: the optimum is the
// uniform plan, so uniform, gu and both oracles need the closed-form
// budget Nλ/x, (1 − e^{−x})/x = 0.9, within the sampling error of the
// realised freshness (0.5 %; measured 0.04 %); the realised freshness at that budget is the
// target.
func TestValidateTargetPoisson(t *testing.T) {
	const n, rate = 40, 1.0 // per hour
	pages := identicalPoisson(n, rate, 2*365*units.Day, 7)
	want := n * rate / xFor(0.9) / 3600 // visits per second
	opt := ValidateOptions{
		Options: Options{Budget: want / 3, Plans: []string{PlanGU, PlanUniform}},
		Sampler: "const:0.25", Train: 0.5, Seeds: []uint64{1, 2}, Unit: 3600, Target: 0.9,
	}
	v, err := Validate(context.Background(), pages, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range v.Rows {
		if len(r.Budget) != len(r.Realized) {
			t.Fatalf("%s: %d budgets, %d seeds", r.Plan, len(r.Budget), len(r.Realized))
		}
		for s, b := range r.Budget {
			if math.Abs(b/want-1) > 0.005 {
				t.Errorf("%s seed %d: budget %.4f visits/h, closed form %.4f", r.Plan, s, b*3600, want*3600)
			}
		}
	}
	// At the uniform plan's budget its realised freshness is the target
	// (to the bisection's tolerance): the same measure as the table above.
	uni := v.Rows[1]
	all := make([][]float64, n)
	lo := pages[0].Updates[0]
	for i := range pages {
		lo = min(lo, pages[i].Updates[0])
	}
	hi := int64(0)
	for i := range pages {
		hi = max(hi, pages[i].Updates[len(pages[i].Updates)-1])
	}
	for i := range pages {
		for _, u := range pages[i].Updates {
			all[i] = append(all[i], float64(u-lo)/3600)
		}
	}
	split := lo + int64(0.5*float64(hi-lo))
	t0, t1 := float64(split-lo)/3600, float64(hi-lo)/3600
	f := make([]float64, n)
	for i := range f {
		f[i] = uni.Budget[0] * 3600 / n
	}
	if got := PlanFreshness(all, f, nil, t0, t1); got < 0.9 || got > 0.9+1e-4 {
		t.Errorf("uniform at its budget: realised %.6f, want 0.9", got)
	}
}

// rateSpread by hand: |f/g − 1| = 0, 0.5, 0.1, +Inf (g = 0), 0 (both 0):
// sorted 0, 0, 0.1, 0.5, Inf, median 0.1.
func TestRateSpread(t *testing.T) {
	if got := rateSpread([]float64{1, 3, 1.1, 2, 0}, []float64{1, 2, 1, 0, 0}); math.Abs(got-0.1) > 1e-12 {
		t.Errorf("median spread %g, want 0.1", got)
	}
}
