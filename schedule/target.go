package schedule

import (
	"math"
	"slices"
)

// scorer measures plans on the true updates of the evaluation window:
// every page's update times (in units since the start of training), the
// importances and the window [t0, t1).
type scorer struct {
	all    [][]float64
	w      []float64
	t0, t1 float64
}

// fresh is the realised freshness PlanFreshness of plan name solved on the
// prepared problem p at the total rate budget (per unit). ok is false
// when the budget is below the pages' minimum rates (no plan exists).
func (s *scorer) fresh(p *Problem, name string, budget float64) (phi float64, ok bool) {
	q := *p
	q.Budget = budget
	sol, err := q.Solve(name)
	if err != nil {
		return math.NaN(), false
	}
	return PlanFreshness(s.all, sol.F, s.w, s.t0, s.t1), true
}

// Bisection settings of BudgetFor: the bracket grows by factors of 2 at
// most budgetSteps times each way from the start, and the search stops
// when hi/lo ≤ 1 + budgetTol.
const (
	budgetSteps = 40
	budgetTol   = 1e-4
)

// BudgetFor is the smallest budget B (to within a relative 10⁻⁴) at which
// fresh(B) reaches target: a bracket [B/2^k, B·2^k] around the start b0
// by doubling, then bisection on ln B. fresh returns ok = false for a
// budget too small to plan (it counts as below the target). It returns
// +Inf when fresh stays below target up to b0·2⁴⁰ (the plan cannot reach
// it: pages it never visits stay stale) and b0/2⁴⁰ when even that budget
// reaches it.
//
// Realised freshness grows with the budget for every plan here (each page's
// rate grows with B, and P(stale at t) = (1 − A(t)/Δ)⁺ shrinks with Δ),
// except at the step where a page goes from unvisited (its copy taken at
// the window's start stays fresh until the first update after it) to
// visited rarely; there the bisection settles on one crossing.
func BudgetFor(target, b0 float64, fresh func(b float64) (phi float64, ok bool)) float64 {
	reaches := func(b float64) bool {
		phi, ok := fresh(b)
		return ok && phi >= target
	}
	lo, hi := b0, b0
	if reaches(b0) {
		for k := 0; ; k++ {
			if k == budgetSteps {
				return lo
			}
			lo /= 2
			if !reaches(lo) {
				break
			}
			hi = lo
		}
	} else {
		for k := 0; ; k++ {
			if k == budgetSteps {
				return math.Inf(1)
			}
			hi *= 2
			if reaches(hi) {
				break
			}
			lo = hi
		}
	}
	for hi/lo > 1+budgetTol {
		mid := math.Sqrt(lo * hi)
		if reaches(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// rateSpread is the median over pages of |f_i/g_i − 1| of two plans' rates
// (pages where both are 0 agree; one of them 0: a difference of 1, or
// +Inf when only g is 0): how far a plan is from the gu plan.
func rateSpread(f, g []float64) float64 {
	d := make([]float64, len(f))
	for i := range f {
		switch {
		case f[i] == g[i]:
			d[i] = 0
		case g[i] == 0:
			d[i] = math.Inf(1)
		default:
			d[i] = math.Abs(f[i]/g[i] - 1)
		}
	}
	if len(d) == 0 {
		return math.NaN()
	}
	slices.Sort(d)
	n := len(d)
	if n%2 == 1 {
		return d[n/2]
	}
	if math.IsInf(d[n/2], 1) {
		return d[n/2]
	}
	return (d[n/2-1] + d[n/2]) / 2
}
