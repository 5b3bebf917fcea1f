package estimator

import (
	"fmt"
	"math"
	"slices"

	"github.com/revisit-dev/revisit/series"
)

// Accuracy of an estimate against the truth (SPEC §5), the one
// computation behind analysis' error tables: replay computes it for every
// row at full resolution before the row's curve is compacted
// (CompactCurves) and stores it in the row (Estimate.Err), and analysis
// computes it again from full-resolution rows.

// DefaultExtra is the number of points inserted between consecutive grid
// points of a step-function estimate before it is compared (SPEC §4.2:
// "linear interpolation between grid points (default 9 extra points per
// step) comes first").
const DefaultExtra = 9

// Error is the error of one estimate against its truth.
type Error struct {
	WMRD   float64 // SPEC §5 w = Σ_n |H(x_n) − G_U(x_n)| / Σ_n (H(x_n) + G_U(x_n))/2
	KS     float64 // SPEC §5 κ = max_n |H(x_n) − G_U(x_n)|
	Points int     // points compared
	XMax   float64 // the largest point compared: the x_max of the comparison
}

// NoError is the Error of a row without one (a truth row, a row without a
// truth to compare with, or a file written before errors were stored).
func NoError() Error { return Error{WMRD: math.NaN(), KS: math.NaN()} }

// TruthFunc evaluates a page's exact distribution (G_U or F_U of its
// intervals, SPEC §3) at ascending points xs.
type TruthFunc func(xs []float64) []float64

// Compare evaluates an estimate against the truth on the grid x_n of truth
// inside [0, xmax] (xmax ≤ 0: the whole grid) and returns WMRD and KS.
//
// When step is true (Method.Step, G_U rows) and exact is given, SPEC
// §4.2's protocol applies: extra points are inserted between consecutive
// grid points (a fine grid of step Δ/(extra+1): 0.05 for Δ = 0.5 and the
// default 9), the step estimate, known only at its grid points, is
// interpolated linearly there (series.CDF.Linear), and the truth is exact
// at every fine point (exact). The interpolation error of the estimate
// between its grid points is thereby part of its error, as in the paper's
// tables. Interpolating the truth's grid values as well would compare two
// chords over the same segments, whose largest gap is always at a grid
// point: the interpolation would change nothing. So without exact (the
// truth is known only on its grid) a step estimate is compared at the grid
// points only, and extra is ignored.
//
// When step is false the estimate is evaluated as a right-continuous step
// function (series.CDF.At) at the truth's grid points only, against exact
// there when given, else the truth's grid values.
func Compare(est, truth series.CDF, xmax float64, step bool, extra int, exact TruthFunc) (Error, error) {
	xs, g, err := comparePoints(est.Method, truth, xmax, step, extra, exact)
	if err != nil {
		return Error{}, err
	}
	return compareAt(est, xs, g, step)
}

// comparePoints is Compare's points xs (the truth's grid inside
// [0, xmax], refined for a step estimate when exact is given) and the
// truth g there; method names the estimate in errors.
func comparePoints(method string, truth series.CDF, xmax float64, step bool, extra int, exact TruthFunc) (xs, g []float64, err error) {
	for _, x := range truth.X {
		if xmax > 0 && x > xmax*(1+1e-12) {
			break
		}
		xs = append(xs, x)
	}
	if len(xs) == 0 {
		return nil, nil, fmt.Errorf("compare %s: truth has no grid point in [0, %g]", method, xmax)
	}
	if step && extra > 0 && exact != nil {
		fine := make([]float64, 0, len(xs)*(extra+1))
		for i, x := range xs {
			if i > 0 {
				x0 := xs[i-1]
				for k := 1; k <= extra; k++ {
					fine = append(fine, x0+(x-x0)*float64(k)/float64(extra+1))
				}
			}
			fine = append(fine, x)
		}
		xs = fine
	}
	if exact != nil {
		g = exact(xs)
	} else {
		g = truth.AtEach(xs)
	}
	return xs, g, nil
}

// compareAt is Compare's errors of est at the points xs where the truth
// is g.
func compareAt(est series.CDF, xs, g []float64, step bool) (Error, error) {
	if len(est.X) == 0 {
		return Error{}, fmt.Errorf("compare %s: empty estimate", est.Method)
	}
	var h []float64
	if step {
		h = est.LinearEach(xs)
	} else {
		h = est.AtEach(xs)
	}
	return Error{WMRD: series.WMRD(h, g), KS: series.KS(h, g), Points: len(xs), XMax: xs[len(xs)-1]}, nil
}

// RowError is the error of the estimate r against truth, its page's truth
// row of the same sampler and kind, by the rule of analysis' error tables:
// a Baseline method of reg without a tabulated CDF is compared as the
// exponential with its rate (F = G = 1 − e^{−λ̂x}); an undefined rate
// (NaN, e.g. Matloff when every visit saw a change), or an estimate
// without a curve, has NaN errors; Step methods' G_U rows are
// interpolated (Compare). exact is the page's exact G_U when known (used
// for G_U rows only), else nil.
func RowError(reg Registry, r *Estimate, truth series.CDF, xmax float64, extra int, exact TruthFunc) (Error, error) {
	est, step, ok := comparable(reg, r, truth)
	if !ok {
		return NoError(), nil
	}
	if r.Kind != KindG {
		exact = nil
	}
	return Compare(est, truth, xmax, step, extra, exact)
}

// comparable is what RowError compares of r: its curve (a Baseline's
// exponential on the truth's grid) and whether it is interpolated; ok is
// false when r has nothing to compare (NaN errors).
func comparable(reg Registry, r *Estimate, truth series.CDF) (est series.CDF, step, ok bool) {
	est = r.CDF
	m, _ := reg.Lookup(r.Method)
	if m.Class == Baseline && len(est.X) == 0 {
		if math.IsNaN(r.Rate) || r.Rate <= 0 || math.IsInf(r.Rate, 0) {
			return est, false, false
		}
		est = ExpCDF(r.Method, r.Rate, slices.Clone(truth.X))
	}
	return est, m.Step && r.Kind == KindG, len(est.X) > 0
}

// MeanRange is the end of the second, scale-free range of the stored
// errors in units of the page's mean interval: x ≤ MeanRange·E[U]. The
// default range, the whole grid up to x_max (the 0.99 quantile of G_U),
// spreads the error over a long flat tail where every estimate is close
// to 1; this one is where G_U still rises.
const MeanRange = 10

// StoreErrors sets Err of every row of one page × sampler (est, its truth
// rows included) to its RowError against the truth row of its kind, on
// the whole grid (x_max of the page) with DefaultExtra points per step and
// the exact G_U (exact: of the page's intervals): what analysis' error
// tables compute by default, stored so that they need not read the curve
// at full resolution. It sets ErrMean the same way on the second range
// x ≤ MeanRange·meanU (meanU: the page's E[U]; meanU ≤ 0 or NaN leaves
// ErrMean NoError). Truth rows, and rows whose kind has no truth row, get
// NoError.
func StoreErrors(reg Registry, est []Estimate, exact TruthFunc, meanU float64) error {
	truth := map[string]*series.CDF{}
	for i := range est {
		if est[i].Method == MethodTruth {
			truth[est[i].Kind] = &est[i].CDF
		}
	}
	// The points of each comparison and the truth there, computed once
	// for all the rows that share them (RowError's, point for point).
	type key struct {
		kind  string
		xmax  float64
		step  bool
		exact bool
	}
	type pts struct{ xs, g []float64 }
	memo := map[key]pts{}
	// points is the comparison's points for r on [0, xmax] (0: the whole
	// grid).
	points := func(r *Estimate, tr *series.CDF, est series.CDF, step bool, xmax float64) (pts, error) {
		ex := exact
		if r.Kind != KindG {
			ex = nil
		}
		k := key{r.Kind, xmax, step && DefaultExtra > 0 && ex != nil, ex != nil}
		p, ok := memo[k]
		if !ok {
			var err error
			if p.xs, p.g, err = comparePoints(est.Method, *tr, xmax, step, DefaultExtra, ex); err != nil {
				return p, err
			}
			memo[k] = p
		}
		return p, nil
	}
	for i := range est {
		r := &est[i]
		e, em := NoError(), NoError()
		r.Err, r.ErrMean = &e, &em
		tr := truth[r.Kind]
		if r.Method == MethodTruth || tr == nil {
			continue
		}
		c, step, ok := comparable(reg, r, *tr)
		if !ok {
			continue
		}
		p, err := points(r, tr, c, step, 0)
		if err == nil {
			e, err = compareAt(c, p.xs, p.g, step)
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w", r.Method, r.Kind, err)
		}
		*r.Err = e
		if meanU > 0 {
			pm, err := points(r, tr, c, step, MeanRange*meanU)
			switch {
			case err != nil:
			case len(pm.xs) == len(p.xs): // x_max ≤ MeanRange·E[U]: the same points
				em = e
			default:
				em, err = compareAt(c, pm.xs, pm.g, step)
			}
			if err != nil {
				return fmt.Errorf("%s %s on x ≤ %d·E[U]: %w", r.Method, r.Kind, MeanRange, err)
			}
			*r.ErrMean = em
		}
	}
	return nil
}
