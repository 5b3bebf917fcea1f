package estimator

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/revisit-dev/revisit/internal/units"
)

// With a constant delay τ the irregular MLE has the closed form of
// Matloff's estimator, −(1/τ) ln(1 − X/n).
func TestIrregularMLEConstantIsMatloff(t *testing.T) {
	for _, c := range []struct {
		x, n int
		tau  float64
	}{{1, 2, 1}, {17, 50, 0.7}, {49, 50, 3}, {1, 1000, 0.01}, {999, 1000, 250}, {3, 7, 1e-6}} {
		changed := make([]float64, c.x)
		for i := range changed {
			changed[i] = c.tau
		}
		got, note := IrregularMLE(changed, float64(c.n-c.x)*c.tau)
		want := -math.Log(1-float64(c.x)/float64(c.n)) / c.tau
		if note != "" || math.Abs(got-want) > 1e-13*want {
			t.Errorf("X=%d n=%d τ=%g: λ̂ = %.17g (%q), Matloff %.17g", c.x, c.n, c.tau, got, note, want)
		}
	}
}

// logLik is the log-likelihood Σ c ln(1 − e^{−λτ}) − (1 − c) λτ.
func logLik(l float64, tau []float64, c []bool) float64 {
	var s float64
	for i, t := range tau {
		if c[i] {
			s += math.Log(-math.Expm1(-l * t))
		} else {
			s -= l * t
		}
	}
	return s
}

// Irregular delays: the root of the score is compared with a naive
// maximisation of the likelihood (a scan of log λ, then golden-section
// search), written without the score.
func TestIrregularMLEMatchesNumericalMaximum(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	for trial := range 5 {
		n := 20 + 200*trial
		rate := 0.2 + r.Float64()*3
		tau := make([]float64, n)
		c := make([]bool, n)
		var changed []float64
		var same float64
		for i := range tau {
			tau[i] = r.ExpFloat64() / (0.5 + 2*r.Float64())
			c[i] = r.Float64() < -math.Expm1(-rate*tau[i])
			if c[i] {
				changed = append(changed, tau[i])
			} else {
				same += tau[i]
			}
		}
		got, note := IrregularMLE(changed, same)
		// naive: scan log λ over [1e-4, 1e4], then golden section
		best, bestLL := 0.0, math.Inf(-1)
		for k := 0; k <= 8000; k++ {
			l := math.Pow(10, -4+8*float64(k)/8000)
			if v := logLik(l, tau, c); v > bestLL {
				best, bestLL = l, v
			}
		}
		a, b := best/1.01, best*1.01
		g := (math.Sqrt(5) - 1) / 2
		for range 200 {
			x1, x2 := b-g*(b-a), a+g*(b-a)
			if logLik(x1, tau, c) > logLik(x2, tau, c) {
				b = x2
			} else {
				a = x1
			}
		}
		want := (a + b) / 2
		if note != "" || math.Abs(got-want) > 1e-6*want {
			t.Errorf("trial %d (n=%d, %d changed): λ̂ = %.12g (%q), numerical maximum %.12g", trial, n, len(changed), got, note, want)
		}
	}
}

func TestIrregularMLEEdges(t *testing.T) {
	if l, note := IrregularMLE(nil, 5); l != 0 || note != "" {
		t.Errorf("no change: λ̂ = %g (%q), want 0", l, note)
	}
	if l, note := IrregularMLE([]float64{1, 2}, 0); !math.IsNaN(l) || note == "" {
		t.Errorf("every visit changed: λ̂ = %g (%q), want NaN with a note", l, note)
	}
	if l, note := IrregularMLE(nil, 0); !math.IsNaN(l) || note == "" {
		t.Errorf("no pair: λ̂ = %g (%q), want NaN with a note", l, note)
	}
}

// lambdaCrawlMLE is the per-URL MLE of the Python loop bench/trace-estimate.sh
// compares revisit with (LambdaCrawl's): bisection on [10⁻⁹, 10³] of
// Σ_changed τ e^{−λτ}/(1 − e^{−λτ}) − Σ_unchanged τ, 60 halvings.
func lambdaCrawlMLE(changed []float64, same float64) float64 {
	lo, hi := 1e-9, 1e3
	for range 60 {
		mid := (lo + hi) / 2
		f := -same
		for _, t := range changed {
			f += t * math.Exp(-mid*t) / -math.Expm1(-mid*t)
		}
		if f > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// On Bing-shaped URLs (98 daily crawls, delays of whole seconds, a few
// gaps of days, Poisson changes of rates from 0.01 to 2 a day), λ̂ is the
// Python loop's to within the loop's own resolution: its bisection ends on
// an interval of 10³·2⁻⁶⁰ ≈ 8.7·10⁻¹⁶, and the score's rounding moves
// either root by about 10⁻¹⁴ relative.
func TestIrregularMLEAsLambdaCrawlBisection(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 2))
	for trial := range 300 {
		rate := math.Exp(math.Log(0.01) + r.Float64()*math.Log(200))
		var changed []float64
		var same float64
		for range 98 {
			d := 1.0
			if r.Float64() < 0.05 {
				d = float64(2 + r.IntN(3))
			}
			d = math.Round((d+(r.Float64()-0.5)*0.02)*units.Day) / units.Day
			if r.Float64() < -math.Expm1(-rate*d) {
				changed = append(changed, d)
			} else {
				same += d
			}
		}
		if len(changed) == 0 || same == 0 {
			continue
		}
		got, _ := IrregularMLE(changed, same)
		want := lambdaCrawlMLE(changed, same)
		if math.Abs(got-want) > 1e3*math.Pow(2, -60)+1e-13*want {
			t.Errorf("trial %d (%d of 98 changed): λ̂ = %.17g, the bisection %.17g", trial, len(changed), got, want)
		}
	}
}
