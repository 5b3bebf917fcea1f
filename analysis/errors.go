package analysis

import (
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
// points of a step-function estimate before it is compared
// (estimator.DefaultExtra, SPEC §4.2).
const DefaultExtra = estimator.DefaultExtra

// IsStepMethod reports whether method's estimate is a step function on the
// visit grid x_n = nΔ (or y_n = nh), which SPEC §4.2 interpolates linearly
// before use (M3, M4, M5, M6, G-M4: estimator.Method.Step), so that Compare
// interpolates it.
func IsStepMethod(method string) bool {
	m, _ := estimator.Registry{}.Lookup(method)
	return m.Step
}

// Error is the error of one estimate against its truth (estimator.Error).
type Error = estimator.Error

// TruthFunc evaluates a page's exact distribution (G_U or F_U of its
// intervals, SPEC §3) at ascending points xs.
type TruthFunc = estimator.TruthFunc

// Compare evaluates an estimate against the truth on the grid x_n of truth
// inside [0, xmax] (xmax ≤ 0: the whole grid) and returns WMRD and KS, by
// SPEC §4.2's protocol for step estimates (estimator.Compare, which
// replay also runs to store each row's errors before compacting its
// curve).
func Compare(est, truth series.CDF, xmax float64, step bool, extra int, exact TruthFunc) (Error, error) {
	return estimator.Compare(est, truth, xmax, step, extra, exact)
}
