package model

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// LRD is a stationary sequence of intervals with marginal distribution U
// and long-range dependence of Hurst exponent H, built with a Gaussian
// copula driven by fractional Gaussian noise: U_i = F⁻¹(Φ(Z_i)) with
// Z = FGN(H) (exact, Davies–Harte). Each U_i has exactly the law U, so
// F_U = U.CDF and, the sequence being ergodic, G_U = U.AgeCDF and
// E[U] = U.Mean(); the dependence between intervals decays like a power of
// the lag (H > ½), which is what makes the process non-renewal. H = ½ gives
// the renewal process with intervals U. u_0 = start as for Renewal.
type LRD struct {
	H float64
	U Dist
}

// AppendTimes implements Process. The intervals are drawn in one FGN block
// long enough to cover the window (about 1.25·(end − start)/E[U]); if the
// block falls short, a block twice as long is drawn and the walk restarts,
// so the intervals always come from one stationary sequence.
func (p LRD) AppendTimes(dst []float64, r *rand.Rand, start, end float64, max int) ([]float64, error) {
	n0 := len(dst)
	n := 1024
	if m := p.U.Mean(); m > 0 && !math.IsInf(m, 1) {
		if est := 1.25*(end-start)/m + 64; est > float64(n) {
			n = int(math.Min(est, 1<<30))
		}
	}
	for {
		if max > 0 && n > 2*max+64 {
			n = 2*max + 64
		}
		z, err := FGN(n, p.H, r)
		if err != nil {
			return dst, fmt.Errorf("lrd: %w", err)
		}
		dst = dst[:n0]
		t := start
		i := 0
		for ; t < end && i < len(z); i++ {
			dst = append(dst, t)
			if err := tooMany(len(dst)-n0, max); err != nil {
				return dst, err
			}
			t += Quantile(p.U, phi(z[i]))
		}
		if t >= end {
			return dst, nil
		}
		if max > 0 && n >= 2*max+64 {
			return dst, fmt.Errorf("%w (more than %d)", ErrTooMany, max)
		}
		n *= 2
	}
}

// Mean is E[U] of the marginal.
func (p LRD) Mean() float64 { return p.U.Mean() }

// Interval is the marginal F_U.
func (p LRD) Interval() Dist { return p.U }

func (p LRD) String() string { return fmt.Sprintf("lrd:%g,(%s)", p.H, p.U) }
