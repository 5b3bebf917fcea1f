package nhpp

import (
	"math"
	"testing"
)

// A Duane fit is failed when γ leaves (−1, 1): times with MTBU(t) = t_i/i
// exactly α t^γ recover γ and pass; a burst of 20 events 1 h apart after a
// 100 h gap has MTBU falling from 100 to about 6 over t = 100…119, a slope
// γ ≈ ln(6/100)/ln(1.19) ≈ −16, which is failed; so is γ ≥ 1 (times that
// do not grow: MTBU rising as fast as t).
func TestDuaneFailed(t *testing.T) {
	// MTBU(t_i) = t_i / i = 2 t_i^{0.5}  ⇔  t_i = (2 i)^2 … exactly α = 2, γ = 0.5.
	var good []float64
	for i := 1; i <= 30; i++ {
		good = append(good, float64(4*i*i))
	}
	d := FitDuane(good)
	if math.Abs(d.Gamma-0.5) > 1e-9 || math.Abs(d.Alpha-2) > 1e-9 || d.Failed() {
		t.Errorf("power law: γ = %v, α = %v, failed %v; want 0.5, 2, false", d.Gamma, d.Alpha, d.Failed())
	}
	var burst []float64
	for i := 0; i < 20; i++ {
		burst = append(burst, 100+float64(i))
	}
	if d := FitDuane(burst); !d.Failed() || d.Gamma > -1 {
		t.Errorf("burst after a gap: γ = %v, α = %v, failed %v; want γ ≤ −1, failed", d.Gamma, d.Alpha, d.Failed())
	}
	for _, d := range []Duane{{Gamma: 1, Alpha: 1}, {Gamma: 0.5, Alpha: 0}, {Gamma: math.NaN(), Alpha: 1}, {Gamma: 0, Alpha: math.Inf(1)}} {
		if !d.Failed() {
			t.Errorf("%+v not failed", d)
		}
	}
}
