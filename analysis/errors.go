package analysis

import (
	"fmt"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/series"
)

// WMRD is the weighted mean relative difference of SPEC §5 between an
// estimate H and the truth G_U on common grid points x_n:
// w = Σ_n |H(x_n) − G_U(x_n)| / Σ_n (H(x_n) + G_U(x_n))/2 (series.WMRD).
func WMRD(h, g []float64) float64 { return series.WMRD(h, g) }

// KSDistance is the Kolmogorov–Smirnov distance of SPEC §5 on common grid
// points: κ = max_n |H(x_n) − G_U(x_n)| (series.KS).
func KSDistance(h, g []float64) float64 { return series.KS(h, g) }

// DefaultExtra is the number of points inserted between consecutive grid
// points of a step-function estimate before it is compared (SPEC §4.2:
// "linear interpolation between grid points (default 9 extra points per
// step) comes first").
const DefaultExtra = 9

// IsStepMethod reports whether method's estimate is a step function on the
// visit grid x_n = nΔ (or y_n = nh), which SPEC §4.2 interpolates linearly
// before use (M3, M4, M5, M6, G-M4: estimator.Method.Step), so that Compare
// interpolates it.
func IsStepMethod(method string) bool {
	m, _ := estimator.Registry{}.Lookup(method)
	return m.Step
}

// Error is the error of one estimate against its truth.
type Error struct {
	WMRD   float64 // SPEC §5 w
	KS     float64 // SPEC §5 κ
	Points int     // points compared
	XMax   float64 // the largest point compared: the x_max of the comparison
}

// TruthFunc evaluates a page's exact distribution (G_U or F_U of its
// intervals, SPEC §3) at ascending points xs.
type TruthFunc func(xs []float64) []float64

// Compare evaluates an estimate against the truth on the grid x_n of truth
// inside [0, xmax] (xmax ≤ 0: the whole grid) and returns WMRD and KS.
//
// When step is true (IsStepMethod, G_U rows) and exact is given, SPEC
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
	var xs []float64
	for _, x := range truth.X {
		if xmax > 0 && x > xmax*(1+1e-12) {
			break
		}
		xs = append(xs, x)
	}
	if len(xs) == 0 {
		return Error{}, fmt.Errorf("compare %s: truth has no grid point in [0, %g]", est.Method, xmax)
	}
	if len(est.X) == 0 {
		return Error{}, fmt.Errorf("compare %s: empty estimate", est.Method)
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
	h := make([]float64, len(xs))
	for i, x := range xs {
		if step {
			h[i] = est.Linear(x)
		} else {
			h[i] = est.At(x)
		}
	}
	var g []float64
	if exact != nil {
		g = exact(xs)
	} else {
		g = make([]float64, len(xs))
		for i, x := range xs {
			g[i] = truth.At(x)
		}
	}
	return Error{WMRD: WMRD(h, g), KS: KSDistance(h, g), Points: len(xs), XMax: xs[len(xs)-1]}, nil
}
