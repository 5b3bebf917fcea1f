package analysis

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/optimize"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/model"
)

// Tail-fit family names, as they appear in tables.
const (
	FamilyExponential = "exponential"
	FamilyPareto      = "pareto"
	FamilyWeibull     = "weibull"
	FamilyLognormal   = "lognormal"
)

// Param is one fitted parameter.
type Param struct {
	Name  string
	Value float64
}

// Fit is a maximum-likelihood fit of one family to a sample of intervals
// (SPEC §5, tail fits).
type Fit struct {
	Family string
	Params []Param
	Dist   model.Dist // the fitted distribution (CDF for figures and KS)
	LogLik float64    // ℓ at the MLE
	AIC    float64    // 2k − 2ℓ, k = number of parameters
	KS     float64    // sup_x |F̂_n(x) − F(x)| against the sample's ECDF
	N      int
	// Boundary is set when the likelihood has no interior maximum inside
	// the searched range (a Lomax fit to data lighter-tailed than the
	// exponential runs off to α, β → ∞, which is the exponential).
	Boundary bool
}

// ParamString prints the parameters, e.g. "α=2.5 β=1.3".
func (f Fit) ParamString() string {
	s := ""
	for i, p := range f.Params {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%s=%.4g", p.Name, p.Value)
	}
	return s
}

// ParamStringIn prints the parameters with their units for intervals in
// unit (e.g. "h"), as the tail-fit tables show them: "α = 0.45, β = 0.05 h"
// (Pareto/Lomax shape and scale), "λ = 0.079 /h", "μ = -1.296 (ln h),
// σ = 2.2", "k = 0.94, ν = 1.9 h". Minus signs are ASCII (the CSV keeps
// them; reports prints them as U+2212).
func (f Fit) ParamStringIn(unit string) string {
	s := ""
	for i, p := range f.Params {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s = %.4g", p.Name, p.Value)
		switch p.Name {
		case "λ":
			s += " /" + unit
		case "β", "ν":
			s += " " + unit
		case "μ":
			s += " (ln " + unit + ")"
		}
	}
	return s
}

// ErrFitInput is returned for samples a fit cannot use.
var ErrFitInput = errors.New("fit: need at least 2 finite positive values")

func checkSample(x []float64) error {
	if len(x) < 2 {
		return fmt.Errorf("%w (got %d)", ErrFitInput, len(x))
	}
	for i, v := range x {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: value %d is %g", ErrFitInput, i, v)
		}
	}
	return nil
}

// FitExponential is the MLE of F(x) = 1 − e^{−λx}: λ̂ = n / Σ x_i,
// ℓ = n ln λ̂ − n.
func FitExponential(x []float64) (Fit, error) { return fitExponential(x, nil) }

// fitExponential is FitExponential with x sorted in s (nil: sorted when needed).
func fitExponential(x, s []float64) (Fit, error) {
	if err := checkSample(x); err != nil {
		return Fit{}, err
	}
	n := float64(len(x))
	lam := n / sum(x)
	ll := n*math.Log(lam) - n
	d := model.Exponential{Rate: lam}
	return finish(Fit{Family: FamilyExponential, Params: []Param{{"λ", lam}}, Dist: d, LogLik: ll}, x, s, 1), nil
}

// FitLognormal is the MLE of ln U ~ N(μ, σ²): μ̂ = mean(ln x),
// σ̂² = mean((ln x − μ̂)²) (divisor n), ℓ = −Σ ln x − n ln σ̂ − (n/2)(ln 2π + 1).
func FitLognormal(x []float64) (Fit, error) { return fitLognormal(x, nil) }

// fitLognormal is FitLognormal with x sorted in s (nil: sorted when needed).
func fitLognormal(x, s []float64) (Fit, error) {
	if err := checkSample(x); err != nil {
		return Fit{}, err
	}
	n := float64(len(x))
	sl, sl2 := 0.0, 0.0
	for _, v := range x {
		sl += math.Log(v)
	}
	mu := sl / n
	for _, v := range x {
		d := math.Log(v) - mu
		sl2 += d * d
	}
	sigma := math.Sqrt(sl2 / n)
	if sigma == 0 {
		return Fit{}, fmt.Errorf("%w: all values equal", ErrFitInput)
	}
	ll := -sl - n*math.Log(sigma) - n/2*(math.Log(2*math.Pi)+1)
	d := model.Lognormal{Mu: mu, Sigma: sigma}
	return finish(Fit{Family: FamilyLognormal, Params: []Param{{"μ", mu}, {"σ", sigma}}, Dist: d, LogLik: ll}, x, s, 2), nil
}

// FitWeibull is the MLE of F̄(x) = exp(−(x/ν)^k) by profile likelihood in
// k: for fixed k the MLE of the scale is ν̂(k) = (Σ x_i^k / n)^{1/k}, which
// leaves ℓ_p(k) = n ln k − n ln(Σ x^k / n) + (k − 1) Σ ln x − n
// (computed on x/s, s = the geometric mean, for stability, and shifted
// back by the Jacobian −n ln s). ℓ_p is maximized over ln k ∈ [ln 0.01,
// ln 100] by a grid and golden-section refinement.
func FitWeibull(x []float64) (Fit, error) { return fitWeibull(x, nil) }

// fitWeibull is FitWeibull with x sorted in s (nil: sorted when needed).
func fitWeibull(x, s []float64) (Fit, error) {
	if err := checkSample(x); err != nil {
		return Fit{}, err
	}
	n := float64(len(x))
	ly := make([]float64, len(x))
	ls := 0.0
	for i, v := range x {
		ly[i] = math.Log(v)
		ls += ly[i]
	}
	lgs := ls / n // ln of the geometric mean
	for i := range ly {
		ly[i] -= lgs // Σ ln y = 0
	}
	// ln S_k − ln n where S_k = Σ y^k, by log-sum-exp.
	lmean := func(k float64) float64 {
		m := math.Inf(-1)
		for _, l := range ly {
			m = max(m, k*l)
		}
		s := 0.0
		for _, l := range ly {
			s += math.Exp(k*l - m)
		}
		return m + math.Log(s/n)
	}
	prof := func(lk float64) float64 {
		k := math.Exp(lk)
		return n*lk - n*lmean(k) - n
	}
	lk, ll, boundary := maximize1D(prof, math.Log(0.01), math.Log(100), 40)
	k := math.Exp(lk)
	scale := math.Exp(lgs + lmean(k)/k)
	ll -= n * lgs // Jacobian of y = x/s: Σ ln(1/s)
	d := model.Weibull{K: k, Scale: scale}
	return finish(Fit{Family: FamilyWeibull, Params: []Param{{"k", k}, {"ν", scale}}, Dist: d, LogLik: ll, Boundary: boundary}, x, s, 2), nil
}

// FitPareto is the MLE of the Lomax law F̄(x) = (1 + x/β)^{−α} (SPEC §5):
// ℓ(α, β) = n ln α − n ln β − (α + 1) Σ ln(1 + x_i/β). The profile
// ℓ_p(β) with α̂(β) = n / Σ ln(1 + x_i/β) is searched on a grid of ln β
// (10⁻⁶ to 10⁶ times the median), then both parameters are refined
// together by Nelder–Mead (gonum optimize) on (ln α, ln β). When the
// maximum is at the upper end of β the data are not heavier-tailed than
// the exponential (ℓ_p tends to the exponential's ℓ as β → ∞): Boundary is
// set and the fit is reported there.
func FitPareto(x []float64) (Fit, error) { return fitPareto(x, nil) }

// fitPareto is FitPareto with x sorted in s (nil: sorted when needed).
func fitPareto(x, s []float64) (Fit, error) {
	if err := checkSample(x); err != nil {
		return Fit{}, err
	}
	n := float64(len(x))
	var med float64
	if s != nil {
		med = estimator.MedianSorted(s)
	} else {
		med = median(x)
	}
	sl := func(beta float64) float64 {
		s := 0.0
		for _, v := range x {
			s += math.Log1p(v / beta)
		}
		return s
	}
	prof := func(lb float64) float64 {
		b := math.Exp(lb)
		s := sl(b)
		a := n / s
		return n*math.Log(a) - n*lb - (a+1)*s
	}
	lo, hi := math.Log(med)-math.Log(1e6), math.Log(med)+math.Log(1e6)
	lb, _, boundary := maximize1D(prof, lo, hi, 56)
	la := math.Log(n / sl(math.Exp(lb)))
	negll := func(p []float64) float64 {
		a, b := math.Exp(p[0]), math.Exp(p[1])
		if math.IsInf(a, 0) || math.IsInf(b, 0) || a == 0 || b == 0 {
			return math.Inf(1)
		}
		return -(n*p[0] - n*p[1] - (a+1)*sl(b))
	}
	if !boundary {
		res, err := optimize.Minimize(optimize.Problem{Func: negll}, []float64{la, lb}, &optimize.Settings{
			Converger:       &optimize.FunctionConverge{Absolute: 1e-9, Relative: 1e-11, Iterations: 10},
			MajorIterations: 100,
		}, &optimize.NelderMead{})
		if err == nil && res.F < negll([]float64{la, lb}) {
			la, lb = res.X[0], res.X[1]
		}
	}
	a, b := math.Exp(la), math.Exp(lb)
	ll := -negll([]float64{la, lb})
	d := model.Pareto{Alpha: a, Beta: b}
	return finish(Fit{Family: FamilyPareto, Params: []Param{{"α", a}, {"β", b}}, Dist: d, LogLik: ll, Boundary: boundary}, x, s, 2), nil
}

// FitAll fits the four families of SPEC §5 and returns them sorted by AIC,
// best first (the model selection: lowest AIC = 2k − 2ℓ). A family whose
// fit fails is left out; the error is returned only when all fail.
func FitAll(x []float64) ([]Fit, error) {
	// The four fits only read x: they run at once, and are collected in
	// this order, so the result does not depend on which finishes first.
	// They share one sorted copy of x (their KS statistics, Pareto's
	// median) instead of sorting one each: on the top page of a huge
	// dataset, 8 bytes per interval where it was 40.
	if err := checkSample(x); err != nil {
		return nil, err
	}
	s := slices.Clone(x)
	slices.Sort(s)
	fitters := []func(x, s []float64) (Fit, error){fitExponential, fitPareto, fitWeibull, fitLognormal}
	done := make([]Fit, len(fitters))
	errs := make([]error, len(fitters))
	var wg sync.WaitGroup
	for i, f := range fitters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done[i], errs[i] = f(x, s)
		}()
	}
	wg.Wait()
	var fits []Fit
	var firstErr error
	for i, fit := range done {
		if err := errs[i]; err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		fits = append(fits, fit)
	}
	if len(fits) == 0 {
		return nil, firstErr
	}
	slices.SortStableFunc(fits, func(a, b Fit) int {
		switch {
		case a.AIC < b.AIC:
			return -1
		case a.AIC > b.AIC:
			return 1
		}
		return 0
	})
	return fits, nil
}

// finish fills AIC, KS and N; s is x sorted, or nil (KSStatistic sorts
// a copy).
func finish(f Fit, x, s []float64, k int) Fit {
	f.N = len(x)
	f.AIC = 2*float64(k) - 2*f.LogLik
	if s != nil {
		f.KS = ksSorted(s, f.Dist.CDF)
	} else {
		f.KS = KSStatistic(x, f.Dist.CDF)
	}
	return f
}

// KSStatistic is the one-sample Kolmogorov–Smirnov statistic
// D_n = sup_x |F̂_n(x) − F(x)| = max_i max(F(x_(i)) − (i−1)/n, i/n − F(x_(i)))
// over the sorted sample x_(1) ≤ … ≤ x_(n). x is not modified.
func KSStatistic(x []float64, cdf func(float64) float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return ksSorted(s, cdf)
}

func ksSorted(s []float64, cdf func(float64) float64) float64 {
	n := float64(len(s))
	d := 0.0
	for i, v := range s {
		f := cdf(v)
		d = max(d, f-float64(i)/n, float64(i+1)/n-f)
	}
	return d
}

// maximize1D maximizes f on [lo, hi]: a grid of the given number of steps
// picks the best cell, golden-section search refines it. boundary is true
// when the best grid point is an end of the range.
func maximize1D(f func(float64) float64, lo, hi float64, steps int) (x, fx float64, boundary bool) {
	bi, bestF := scanGrid(f, lo, hi, steps)
	return refine1D(f, lo, hi, steps, bi, bestF)
}

// gridPoint is the i-th of the steps+1 points of maximize1D's grid on
// [lo, hi].
func gridPoint(lo, hi float64, i, steps int) float64 {
	return lo + (hi-lo)*float64(i)/float64(steps)
}

// scanGrid evaluates f at every grid point and returns the index of the
// first largest value and that value (a NaN first value is replaced by
// any later one).
func scanGrid(f func(float64) float64, lo, hi float64, steps int) (bi int, bestF float64) {
	bestF = math.Inf(-1)
	for i := 0; i <= steps; i++ {
		if v := f(gridPoint(lo, hi, i, steps)); v > bestF || math.IsNaN(bestF) {
			bestF, bi = v, i
		}
	}
	return bi, bestF
}

// refine1D is maximize1D after its grid scan found the best point bi with
// value bestF: the golden-section search in the cells beside it.
func refine1D(f func(float64) float64, lo, hi float64, steps, bi int, bestF float64) (x, fx float64, boundary bool) {
	best := gridPoint(lo, hi, bi, steps)
	if bi == 0 || bi == steps {
		return best, bestF, true
	}
	h := (hi - lo) / float64(steps)
	a, b := best-h, best+h
	const g = 0.6180339887498949
	c, d := b-g*(b-a), a+g*(b-a)
	fc, fd := f(c), f(d)
	for i := 0; i < 100 && b-a > 1e-8*(1+math.Abs(a)); i++ {
		if fc > fd {
			b, d, fd = d, c, fc
			c = b - g*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + g*(b-a)
			fd = f(d)
		}
	}
	x = (a + b) / 2
	fx = f(x)
	if fx < bestF {
		return best, bestF, false
	}
	return x, fx, false
}

// maximizeConcave1D is maximize1D — the same grid point, the same golden
// section, the same bits — for an f that is concave in exact arithmetic
// and computed with an absolute error of at most errBound at every point
// of [lo, hi]. Instead of evaluating f at every grid point it finds the
// best one as concaveGridBest does, in O(log steps) evaluations.
func maximizeConcave1D(f func(float64) float64, lo, hi float64, steps int, errBound float64) (x, fx float64, boundary bool) {
	bi, bestF, ok := concaveGridBest(f, lo, hi, steps, errBound)
	if !ok {
		bi, bestF = scanGrid(f, lo, hi, steps)
	}
	return refine1D(f, lo, hi, steps, bi, bestF)
}

// concaveGridBest returns what scanGrid returns — the index of the first
// largest computed value f̃(t_i) over the grid, and that value — without
// evaluating every point. f is concave in exact arithmetic and each
// computed value within e = errBound of it. A binary search on the sign
// of f̃(t_{i+1}) − f̃(t_i) finds a point near the top; from there the
// grid is walked outwards, one point at a time, until the chord through
// the last two points proves every point beyond lower than the best
// value found: for concave f and j < k < l, f(t_l) ≤ f(t_k) +
// S·(t_l − t_k) with S the slope of the chord from t_j to t_k, at most
// S⁺ = (f̃_k − f̃_j + 2e)/(t_k − t_j); when S⁺ < 0 and f̃_k + 2e +
// S⁺·(t_{k+1} − t_k) is below the best value found, every f̃_l beyond is
// strictly below it (and symmetrically on the left). The points not
// evaluated are thus strictly below the best, so the first largest of
// the evaluated ones is scanGrid's. ok is false (the caller scans every
// point) when a value or errBound is not finite.
func concaveGridBest(f func(float64) float64, lo, hi float64, steps int, errBound float64) (bi int, bestF float64, ok bool) {
	if steps < 2 || !(errBound >= 0) || math.IsInf(errBound, 0) {
		return 0, 0, false
	}
	vals := make([]float64, steps+1)
	have := make([]bool, steps+1)
	finite := true
	at := func(i int) float64 {
		if !have[i] {
			v := f(gridPoint(lo, hi, i, steps))
			if math.IsNaN(v) || math.IsInf(v, 0) {
				finite = false
			}
			vals[i], have[i] = v, true
		}
		return vals[i]
	}
	a, b := 0, steps
	for a < b && finite {
		m := a + (b-a)/2
		if at(m) < at(m+1) {
			a = m + 1
		} else {
			b = m
		}
	}
	if !finite {
		return 0, 0, false
	}
	// best: the largest value evaluated so far (its first index is taken
	// at the end, over every evaluated point).
	best := at(a)
	for i, h := range have {
		if h && vals[i] > best {
			best = vals[i]
		}
	}
	e2 := 2 * errBound
	// excluded reports whether every grid point beyond k, on the side
	// away from j (|k − j| = 1), is proven below best.
	excluded := func(j, k, next int) bool {
		tj, tk := gridPoint(lo, hi, j, steps), gridPoint(lo, hi, k, steps)
		s := (vals[k] - vals[j] + e2) / math.Abs(tk-tj) // S⁺, per unit of distance from t_k outwards
		if !(s < 0) {
			return false
		}
		bound := vals[k] + e2 + s*math.Abs(gridPoint(lo, hi, next, steps)-tk)
		// The bound's own rounding: a few ulps of the numbers it adds.
		slack := 8 * 0x1p-53 * (math.Abs(vals[k]) + math.Abs(best) + e2 + math.Abs(s*(tk-tj)))
		return bound+slack < best
	}
	for k := a; k < steps && finite; k++ { // right of a
		if v := at(k + 1); v > best {
			best = v
		}
		if k+2 > steps || excluded(k, k+1, k+2) {
			break
		}
	}
	for k := a; k > 0 && finite; k-- { // left of a
		if v := at(k - 1); v > best {
			best = v
		}
		if k-2 < 0 || excluded(k, k-1, k-2) {
			break
		}
	}
	if !finite {
		return 0, 0, false
	}
	bi, bestF = -1, math.Inf(-1)
	for i, h := range have {
		if h && vals[i] > bestF {
			bi, bestF = i, vals[i]
		}
	}
	return bi, bestF, true
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return estimator.MedianSorted(s)
}
