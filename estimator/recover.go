package estimator

import (
	"errors"
	"fmt"
	"math"

	"github.com/revisit-dev/revisit/series"
)

// RecoverOptions control the recovery of F_U from an estimated G_U.
type RecoverOptions struct {
	K     int     `json:"k"`     // points of the derivative rule: 5 (default) or 3
	Extra int     `json:"extra"` // extra linear-interpolation points per grid step (default 9)
	H     float64 `json:"h"`     // bin width h of the derivative; 0 chooses it automatically
	Tol   float64 `json:"tol"`   // relative spread of E[U](h) that counts as flat (default 0.02)
}

// WithDefaults is o with its zero fields set to the defaults (K 5, Extra 9,
// Tol 0.02), as replay.json records them.
func (o RecoverOptions) WithDefaults() RecoverOptions {
	if o.K == 0 {
		o.K = 5
	}
	if o.Extra == 0 {
		o.Extra = 9
	}
	if o.Tol == 0 {
		o.Tol = 0.02
	}
	return o
}

// Check reports options no recovery can run with (0 means the default for
// every field).
func (o RecoverOptions) Check() error {
	switch {
	case o.K != 0 && o.K != 3 && o.K != 5:
		return fmt.Errorf("recover F_U: the derivative rule has %d points, want 3 or 5", o.K)
	case o.Extra < 0:
		return fmt.Errorf("recover F_U: %d extra interpolation points, want ≥ 0", o.Extra)
	case !(o.H >= 0) || math.IsInf(o.H, 0):
		return fmt.Errorf("recover F_U: h must be > 0 (or 0 for automatic), got %g", o.H)
	case !(o.Tol >= 0) || math.IsInf(o.Tol, 0):
		return fmt.Errorf("recover F_U: the flatness tolerance must be > 0 (or 0 for the default), got %g", o.Tol)
	}
	return nil
}

// Recovered is an F_U recovered from an estimated G_U.
type Recovered struct {
	F     series.CDF // F_U on the grid of the input estimate
	MeanU float64    // E[U] = 1/g_U(0)
	H     float64    // the h used
	// Scan is E[U](h) for every candidate h the automatic choice tried
	// (empty when H was given).
	Scan []HPoint
}

// HPoint is one point of the automatic h scan.
type HPoint struct{ H, MeanU float64 }

// ErrNoDensity means g_U(0) ≤ 0 (or undefined) on the estimate: E[U] and
// F_U cannot be recovered.
var ErrNoDensity = errors.New("recover F_U: the estimated density g_U(0) is not positive")

// RecoverF recovers F_U from an estimated G_U (SPEC §4.2): g_U = G_U',
// E[U] = 1/g_U(0), F_U(x) = 1 − g_U(x)/g_U(0). The estimate (tabulated on a
// uniform grid of step d) is first linearly interpolated (Extra points per
// step, 9 by default — for the step estimates of M4, M5 and M6 this is the
// SPEC's rule; for the others it interpolates the tabulated values), then
// differentiated on bins of width h with a K-point rule: at x ≥ 2h the
// central (G(x−2h) − 8G(x−h) + 8G(x+h) − G(x+2h))/(12h), below that the
// one-sided (−25G₀ + 48G₁ − 36G₂ + 16G₃ − 3G₄)/(12h) with G_k = G(x + kh)
// (K = 3: (G(x+h) − G(x−h))/(2h) and (−3G₀ + 4G₁ − G₂)/(2h)).
//
// Automatic h: the candidates are h = c·d/(Extra+1) for c = Extra+1,
// Extra+2, … growing by about 15 % per step while 4h ≤ x_max/2: h = d,
// 1.1d, 1.2d, … with the default 9 extra points. (Below d the stencil would
// read the interpolating chords instead of the estimate.) E[U](h) = 1/g_U(0)
// moves while h is too small for the noise or the steps of the estimate,
// then flattens, and for large h the curvature of G_U biases it.
// After a running median of 3 (against noise), the chosen h is the start of
// the first flat region: the first candidate from which 4 consecutive
// values of E[U](h) stay within Tol (2 %) of each other ((max − min)/min).
// When there is no such run (a noisy estimate), the tolerance is doubled,
// up to 16·Tol; beyond that the start of the run of 4 with the smallest
// relative spread is chosen (with fewer than 4 candidates, the one with
// the smallest E[U]).
func RecoverF(g series.CDF, opt RecoverOptions) (Recovered, error) {
	return recoverOn(g, g.X, opt)
}

// recoverMidpoints recovers F_U from an estimate whose value at grid point
// x_n is the mean of G_U over the bin (x_n − d, x_n] — M6 for random
// delays, where a pair's distance is rounded up to its bin — by placing
// each value at its bin's midpoint x_n − d/2 (≈ where G_U takes that mean;
// the shift removes the O(d) bias that otherwise halves the slope at 0)
// and returning F_U on the original grid.
func recoverMidpoints(g series.CDF, opt RecoverOptions) (Recovered, error) {
	if len(g.X) < 3 {
		return RecoverF(g, opt)
	}
	d := g.X[1] - g.X[0]
	mid := series.CDF{Method: g.Method, X: make([]float64, len(g.X)), P: g.P, Samples: g.Samples}
	for i, x := range g.X {
		if i > 0 {
			mid.X[i] = x - d/2
		}
	}
	return recoverOn(mid, g.X, opt)
}

// recoverOn recovers F_U from g and tabulates it on out.
func recoverOn(g series.CDF, out []float64, opt RecoverOptions) (Recovered, error) {
	opt = opt.WithDefaults()
	if opt.K != 3 && opt.K != 5 {
		return Recovered{}, fmt.Errorf("recover F_U: the derivative rule has %d points, want 3 or 5", opt.K)
	}
	if opt.H < 0 || math.IsNaN(opt.H) {
		return Recovered{}, fmt.Errorf("recover F_U: h must be > 0, got %g", opt.H)
	}
	if len(g.X) < 3 {
		return Recovered{}, fmt.Errorf("recover F_U: the estimate has %d grid points, need at least 3", len(g.X))
	}
	for _, p := range g.P {
		if math.IsNaN(p) {
			return Recovered{}, errors.New("recover F_U: the estimate is undefined (no samples)")
		}
	}
	d := g.X[len(g.X)-1] - g.X[len(g.X)-2] // the grid step (the first may be a half step)
	xmax := g.X[len(g.X)-1]
	var rec Recovered
	h := opt.H
	if h == 0 {
		fine := d / float64(opt.Extra+1)
		var cand []float64
		for c := opt.Extra + 1; 4*float64(c)*fine <= xmax/2; c = max(c+1, int(math.Round(float64(c)*1.15))) {
			cand = append(cand, float64(c)*fine)
		}
		if len(cand) == 0 {
			cand = []float64{d}
		}
		for _, hc := range cand {
			rec.Scan = append(rec.Scan, HPoint{hc, 1 / slope0(g, hc, opt.K)})
		}
		h = chooseH(rec.Scan, opt.Tol)
	}
	g0 := slope0(g, h, opt.K)
	if !(g0 > 0) || math.IsInf(g0, 0) {
		return rec, ErrNoDensity
	}
	rec.H, rec.MeanU = h, 1/g0
	f := make([]float64, len(out))
	for i, x := range out {
		f[i] = min(1, max(0, 1-slope(g, x, h, opt.K)/g0))
	}
	rec.F = series.CDF{Method: g.Method, X: out, P: f, Samples: g.Samples}
	return rec, nil
}

// chooseH applies the flat-region rule to the scan.
func chooseH(scan []HPoint, tol float64) float64 {
	n := len(scan)
	e := make([]float64, n)
	for i, p := range scan {
		e[i] = p.MeanU
		if !(e[i] > 0) || math.IsInf(e[i], 0) {
			e[i] = math.Inf(1) // g(0) ≤ 0: no density yet
		}
	}
	sm := make([]float64, n) // running median of 3
	for i := range e {
		if i == 0 || i == n-1 {
			sm[i] = e[i]
			continue
		}
		a, b, c := e[i-1], e[i], e[i+1]
		sm[i] = max(min(a, b), min(max(a, b), c))
	}
	const run = 4
	if n < run {
		best, bi := math.Inf(1), 0
		for i, v := range sm {
			if v < best {
				best, bi = v, i
			}
		}
		return scan[bi].H
	}
	spread := make([]float64, n-run+1) // relative spread of each run of 4
	for i := range spread {
		lo, hi := math.Inf(1), 0.0
		for _, v := range sm[i : i+run] {
			lo, hi = min(lo, v), max(hi, v)
		}
		spread[i] = (hi - lo) / lo
		if math.IsInf(hi, 1) || math.IsNaN(spread[i]) {
			spread[i] = math.Inf(1)
		}
	}
	for t := tol; t <= 16*tol; t *= 2 {
		for i, sp := range spread {
			if sp <= t {
				return scan[i].H
			}
		}
	}
	best, bi := math.Inf(1), 0
	for i, sp := range spread {
		if sp < best {
			best, bi = sp, i
		}
	}
	return scan[bi].H
}

// slope0 is the one-sided K-point derivative at 0.
func slope0(g series.CDF, h float64, k int) float64 { return forward(g, 0, h, k) }

func forward(g series.CDF, x, h float64, k int) float64 {
	G := func(i int) float64 { return g.Linear(x + float64(i)*h) }
	if k == 3 {
		return (-3*G(0) + 4*G(1) - G(2)) / (2 * h)
	}
	return (-25*G(0) + 48*G(1) - 36*G(2) + 16*G(3) - 3*G(4)) / (12 * h)
}

// slope is the K-point derivative at x: central where the stencil fits
// inside [0, ∞), one-sided forward below.
func slope(g series.CDF, x, h float64, k int) float64 {
	half := float64(k-1) / 2
	if x < half*h-1e-12*h {
		return forward(g, x, h, k)
	}
	G := func(i float64) float64 { return g.Linear(x + i*h) }
	if k == 3 {
		return (G(1) - G(-1)) / (2 * h)
	}
	return (G(-2) - 8*G(-1) + 8*G(1) - G(2)) / (12 * h)
}

// durationNote is a note stating a duration: "E[U] = 8.34487 h", the
// quantity and its value v with the unit unitName, or "in the times'
// unit" when the unit has no name.
func durationNote(quantity string, v float64, unitName string) string {
	if unitName == "" {
		return fmt.Sprintf("%s = %.6g (in the times' unit)", quantity, v)
	}
	return fmt.Sprintf("%s = %.6g %s", quantity, v, unitName)
}
