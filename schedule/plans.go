package schedule

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Plan names (--plans).
const (
	PlanGU           = "gu"                 // optimal for the estimated G_U (this package's plan)
	PlanChoGM        = "cho-gm"             // Cho & Garcia-Molina's Poisson optimum
	PlanLambda       = "lambdacrawl"        // Kolobov et al. 2019, harmonic staleness cost
	PlanLambdaBinary = "lambdacrawl-binary" // Kolobov et al. 2019's binary-cost variant
	PlanProportional = "proportional"       // f_i ∝ λ̂_i
	PlanUniform      = "uniform"            // f_i = B/N
)

// PlanNames lists every plan, in the order of the outputs.
var PlanNames = []string{PlanGU, PlanChoGM, PlanLambda, PlanLambdaBinary, PlanProportional, PlanUniform}

// planHelp is each plan's line in the command's help, by name.
var planHelp = map[string]string{
	PlanGU:           "optimal for Ĝ (projected onto concave CDFs first)",
	PlanChoGM:        "Cho & Garcia-Molina's optimum for Poisson pages of rate λ̂",
	PlanLambda:       "LambdaCrawl (Kolobov et al. 2019), harmonic staleness cost",
	PlanLambdaBinary: "its binary-cost variant",
	PlanProportional: "f ∝ λ̂",
	PlanUniform:      "the same rate for every page",
}

// PlanHelp is the help text's list of plans, a line each ("  NAME  what it
// is"), in the order of PlanNames: the command prints it, so that a plan is
// added here alone.
func PlanHelp() string {
	var b strings.Builder
	for _, n := range PlanNames {
		fmt.Fprintf(&b, "  %-18s  %s\n", n, planHelp[n])
	}
	return b.String()
}

// ParsePlans checks a list of plan names (empty: all).
func ParsePlans(names []string) ([]string, error) {
	if len(names) == 0 {
		return slices.Clone(PlanNames), nil
	}
	var out []string
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if !slices.Contains(PlanNames, n) {
			return nil, fmt.Errorf("unknown plan %q (want %s)", n, strings.Join(PlanNames, ", "))
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// Problem is a scheduling problem: n pages, their estimated age
// distributions and Poisson rates, weights and the budget.
type Problem struct {
	// Curves are the pages' Ĝ; Prepare projects them onto concave CDFs
	// and turns their values into D (ToD) in place.
	Curves *Curves
	// Lambda is each page's estimated Poisson rate λ̂ (per unit), used by
	// the Poisson plans and the Poisson prediction.
	Lambda []float64
	// W is each page's importance w_i (nil: 1 for every page).
	W []float64
	// Budget B is the total visit rate, visits per unit of time.
	Budget float64
	// MinRate is the rate given to pages that never changed (Ĝ ≡ 0 or
	// λ̂ = 0) when Prior is off: the plans have no reason to visit them
	// at all.
	MinRate float64
	Limits  *Limits
	// Exact says the curves are exact time-average age distributions of
	// the window planned for (WindowCurve): used as they are, not
	// projected onto concave CDFs (they are non-decreasing, which is all
	// the solver needs; a head carried in from before the window makes
	// them non-concave).
	Exact bool
	// Prior plans the pages it knows little about — no usable estimate,
	// or no change seen (Ĝ ≡ 0 or λ̂ = 0) — on the corpus's prior instead
	// of MinRate (prior.go).
	Prior bool
	// Watched is the time each page was watched (units) without the plan
	// seeing more of it, for the prior's rate; nil or 0: not watched.
	Watched []float64

	st       *store    // instead of Curves: prepared as it was read (store.go)
	dInf     []float64 // D(∞) = F'(0⁺) per page (Prepare)
	prior    *priorCurve
	scale    []float32 // per page on the prior: its time scale λ̃_i/m (0: its own Ĝ)
	onPrior  int       // pages on the prior
	prepared bool
}

// Prepare projects every Ĝ onto the concave, non-decreasing CDFs
// (Concave) and replaces its values by D (ToD), in place. It fails on a
// NaN value or knots that do not ascend, naming the page.
func (p *Problem) Prepare() error {
	if p.st != nil { // prepared page by page as it was read
		if len(p.Lambda) != p.st.Len() || (p.W != nil && len(p.W) != p.st.Len()) {
			return fmt.Errorf("schedule: %d curves, %d rates, %d weights", p.st.Len(), len(p.Lambda), len(p.W))
		}
		p.dInf = p.st.dInf
		return p.setPrior()
	}
	c := p.Curves
	n := c.Len()
	if len(p.Lambda) != n || (p.W != nil && len(p.W) != n) {
		return fmt.Errorf("schedule: %d curves, %d rates, %d weights", n, len(p.Lambda), len(p.W))
	}
	if c.X == nil {
		if err := checkKnots(c.Grid); err != nil {
			return fmt.Errorf("schedule: grid: %w", err)
		}
	}
	p.dInf = make([]float64, n)
	errs := make([]error, (n+chunk-1)/chunk)
	parallel(n, func(lo, hi int) float64 {
		var hull []int32
		for i := lo; i < hi; i++ {
			x, g := c.knots(i)
			if len(x) != len(g) {
				errs[lo/chunk] = fmt.Errorf("schedule: page %d: %d knots, %d values", i, len(x), len(g))
				return 0
			}
			if c.X != nil {
				if err := checkKnots(x); err != nil {
					errs[lo/chunk] = fmt.Errorf("schedule: page %d: %w", i, err)
					return 0
				}
			}
			for k, v := range g {
				if math.IsNaN(v) {
					errs[lo/chunk] = fmt.Errorf("schedule: page %d: Ĝ(%g) is NaN", i, x[k])
					return 0
				}
			}
			if p.Exact {
				if err := checkRising(x, g); err != nil {
					errs[lo/chunk] = fmt.Errorf("schedule: page %d: %w", i, err)
					return 0
				}
			} else {
				hull = concave(x, g, hull)
			}
			p.dInf[i] = ToD(x, g)
		}
		return 0
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return p.setPrior()
}

// checkRising checks that the values g of an exact curve do not decrease
// and stay in [0, 1].
func checkRising(x, g []float64) error {
	prev := 0.0
	for k, v := range g {
		if v < prev || v > 1 {
			return fmt.Errorf("Ĝ(%g) = %g after %g: an exact age distribution rises from 0 to at most 1", x[k], v, prev)
		}
		prev = v
	}
	return nil
}

func checkKnots(x []float64) error {
	for k, v := range x {
		if !(v > 0) || math.IsInf(v, 0) || (k > 0 && v <= x[k-1]) {
			return fmt.Errorf("knot %d (%g): knots must be finite, > 0 and ascending", k, v)
		}
	}
	return nil
}

// n is the number of pages.
func (p *Problem) n() int {
	if p.st != nil {
		return p.st.Len()
	}
	return p.Curves.Len()
}

// Unchanged reports whether page i never changed, or has no usable
// estimate (Ĝ ≡ 0, D(∞) = 0, or λ̂_i = 0), and is not planned on the
// prior: it gets MinRate. On exact curves only Ĝ ≡ 0 counts: a page
// updated before the window and not in it has λ = 0 but is stale until
// visited once.
func (p *Problem) Unchanged(i int) bool {
	return p.dInf[i] == 0 || !p.Exact && !(p.Lambda[i] > 0)
}

// OnPrior reports whether page i is planned on the prior.
func (p *Problem) OnPrior(i int) bool { return p.scale != nil && p.scale[i] > 0 }

func (p *Problem) w(i int) float64 {
	if p.W == nil {
		return 1
	}
	return p.W[i]
}

// rate returns the plan's rate function: the KKT solution of page i at
// multiplier ν.
func (p *Problem) rate(plan string) (rateFunc, error) {
	c := p.Curves
	switch plan {
	case PlanGU:
		// w_i D_i(Δ_i) = ν, f_i = 1/Δ_i; on the prior Ĝ_i(x) = Ĝ_0(s x),
		// so D_i(Δ) = D_0(sΔ)/s and f_i = s/D_0⁻¹(νs/w_i).
		own := func(i int, nu float64) float64 {
			x, d := c.knots(i)
			return 1 / invD(x, d, p.dInf[i], nu/p.w(i))
		}
		if st := p.st; st != nil {
			own = func(i int, nu float64) float64 {
				x, d := st.knots(i)
				return 1 / invD(x, d, p.dInf[i], nu/p.w(i))
			}
		}
		if p.scale == nil {
			return own, nil
		}
		pr := p.prior
		return func(i int, nu float64) float64 {
			if s := float64(p.scale[i]); s > 0 {
				return s / invD(pr.x, pr.d, pr.dInf, nu*s/p.w(i))
			}
			return own(i, nu)
		}, nil
	case PlanChoGM:
		return func(i int, nu float64) float64 { return ChoGMRate(p.Lambda[i], p.w(i), nu) }, nil
	case PlanLambda:
		return func(i int, nu float64) float64 { return LambdaCrawlRate(p.Lambda[i], p.w(i), nu) }, nil
	case PlanLambdaBinary:
		return func(i int, nu float64) float64 { return LambdaCrawlBinaryRate(p.Lambda[i], p.w(i), nu) }, nil
	case PlanProportional:
		return func(i int, nu float64) float64 { return p.Lambda[i] / nu }, nil
	case PlanUniform:
		return func(i int, nu float64) float64 { return 1 / nu }, nil
	}
	return nil, fmt.Errorf("schedule: unknown plan %q", plan)
}

// Solve computes one plan. Pages that never changed get MinRate in every
// plan but uniform (which gives every page the same rate, at least
// MinRate); the rest of the budget goes by the plan's KKT conditions with
// the multiplier found by bisection (solve).
func (p *Problem) Solve(plan string) (*Solution, error) { return p.solve(plan, true) }

// solve is Solve, keeping the rates in Solution.F or not (keep).
func (p *Problem) solve(plan string, keep bool) (*Solution, error) {
	if !p.prepared {
		return nil, fmt.Errorf("schedule: Solve before Prepare")
	}
	n := p.n()
	rate, err := p.rate(plan)
	if err != nil {
		return nil, err
	}
	if plan == PlanUniform {
		sol, err := solve(n, p.Budget, nil, func(int) bool { return true }, p.Limits, rate, keep)
		if err != nil {
			return nil, err
		}
		for i, f := range sol.F {
			sol.F[i] = math.Max(f, p.MinRate)
		}
		at := sol.at
		sol.at = func(i int) float64 { return math.Max(at(i), p.MinRate) }
		return sol, nil
	}
	var fixed func(i int) float64
	if p.MinRate > 0 {
		fixed = func(i int) float64 {
			if p.Unchanged(i) {
				return p.MinRate
			}
			return 0
		}
	}
	active := func(i int) bool { return !p.Unchanged(i) && p.w(i) > 0 }
	return solve(n, p.Budget, fixed, active, p.Limits, rate, keep)
}

// Predicted is page i's freshness at rate f under its estimated Ĝ
// (φ(1/f), after Prepare) and under the Poisson model with its λ̂.
func (p *Problem) Predicted(i int, f float64) (underG, underPoisson float64) {
	switch {
	case p.OnPrior(i): // φ_i(Δ) = φ_0(sΔ)
		underG = freshnessD(p.prior.x, p.prior.d, float64(p.scale[i])/f)
	case p.dInf[i] == 0:
		underG = 1
	case p.st != nil:
		x, d := p.st.knots(i)
		underG = freshnessD(x, d, 1/f)
	default:
		x, d := p.Curves.knots(i)
		underG = freshnessD(x, d, 1/f)
	}
	if !(p.Lambda[i] > 0) {
		return underG, 1
	}
	return underG, PoissonFreshness(p.Lambda[i], 1/f)
}

// ChoGMRate is Cho and Garcia-Molina's optimal synchronisation rate for a
// Poisson page of rate λ and weight w at multiplier ν ("Synchronizing a
// database to improve freshness", SIGMOD 2000): it maximises
// Σ w_i (1 − e^{−λ_i/f_i}) f_i/λ_i under Σ f_i = B, whose KKT condition
// ∂/∂f [w (f/λ)(1 − e^{−λ/f})] = ν reads, with x = λ/f = λΔ,
//
//	w (1 − (1 + x) e^{−x}) / λ = ν,
//
// (the D(Δ) of an exponential G_U). The left side grows from 0 to w/λ,
// so f = 0 when νλ/w ≥ 1: pages that change too often are not visited.
func ChoGMRate(lambda, w, nu float64) float64 {
	if !(lambda > 0) || !(w > 0) {
		return 0
	}
	y := nu * lambda / w
	if y >= 1 {
		return 0
	}
	x := choInv(y)
	if !(x > 0) {
		return math.Inf(1)
	}
	return lambda / x
}

// choInv solves h(x) = 1 − (1 + x) e^{−x} = y for 0 < y < 1 (h increases
// from 0 to 1, h'(x) = x e^{−x}, h”(x) = (1 − x) e^{−x}) by Halley steps
// from a start that is already close: the series inversion
// x ≈ s + s²/3 + 11s³/72 with s = √(2y) where y is small (h(x) = x²/2 −
// x³/3 + x⁴/8 − …), and two steps of the fixed point x = L + ln(1 + x),
// L = −ln(1 − y), where it is not ((1 + x)e^{−x} = 1 − y). Three steps
// at most reach the last bits; each step is kept inside the bracket the
// signs of h − y give, with bisection as the fallback. It is the hot loop
// of the cho-gm plan (one call per page and multiplier tried).
func choInv(y float64) float64 {
	if !(y > 0) {
		return 0
	}
	if y >= 1 {
		return math.Inf(1)
	}
	var x float64
	if y < 0.3 {
		s := math.Sqrt(2 * y)
		x = s * (1 + s*(1.0/3+s*11.0/72))
	} else {
		l := -math.Log1p(-y)
		x = l + math.Log1p(l)
		x = l + math.Log1p(x)
	}
	lo, hi := 0.0, math.Inf(1)
	for range 100 {
		var hx, e float64
		if x < 1e-4 { // series x²/2 − x³/3 + x⁴/8: no cancellation
			hx = x * x * (0.5 - x/3 + x*x/8)
			e = 1 - x*(1-x/2)
		} else {
			e = math.Exp(-x)
			hx = -math.Expm1(-x) - x*e
		}
		r := hx - y
		if r == 0 {
			return x
		}
		if r < 0 {
			lo = x
		} else {
			hi = x
		}
		d1 := x * e
		step := r / d1
		if den := 1 - step*(1-x)/(2*x); den > 0.5 { // Halley: h''/h' = (1 − x)/x
			step /= den
		}
		nx := x - step
		if !(nx > lo && nx < hi) {
			if math.IsInf(hi, 1) {
				nx = 2 * math.Max(x, lo)
			} else {
				nx = (lo + hi) / 2
			}
		}
		if math.Abs(nx-x) <= 1e-14*x {
			return nx
		}
		x = nx
	}
	return x
}

// LambdaCrawlRate is LambdaCrawl's rate for a page of change rate λ and
// importance w at multiplier ν (Kolobov, Peres, Lu and Horvitz, NeurIPS
// 2019): with Poisson changes and crawls the harmonic staleness penalty
// gives the concave objective Σ w_i ln(f_i/(λ_i + f_i)), whose KKT
// condition w λ/(f(λ + f)) = ν has the positive root
//
//	f = (−λ + √(λ² + 4wλ/ν))/2 = 2(wλ/ν)/(λ + √(λ² + 4wλ/ν)),
//
// the second form free of cancellation when 4wλ/ν ≪ λ².
func LambdaCrawlRate(lambda, w, nu float64) float64 {
	if !(lambda > 0) || !(w > 0) {
		return 0
	}
	a := w * lambda / nu
	return 2 * a / (lambda + math.Sqrt(lambda*lambda+4*a))
}

// LambdaCrawlBinaryRate is the binary-cost variant of LambdaCrawl: with
// Poisson changes and Poisson crawls the copy is fresh a fraction
// f/(λ + f) of the time, and maximising Σ w_i f_i/(λ_i + f_i) gives the
// KKT condition w λ/(λ + f)² = ν, so f = max(0, √(wλ/ν) − λ).
func LambdaCrawlBinaryRate(lambda, w, nu float64) float64 {
	if !(lambda > 0) || !(w > 0) {
		return 0
	}
	return math.Max(0, math.Sqrt(w*lambda/nu)-lambda)
}
