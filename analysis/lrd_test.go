package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/revisit-dev/revisit/model"
	"gonum.org/v1/gonum/stat/distuv"
)

// TrendHalves is standard normal on stationary fractional Gaussian noise
// when given its true H (the variance of the halves' difference is exact
// for FGN): over 600 exact FGN series of 1,024 values at H = 0.5, 0.7
// and 0.9, |z| > 1.96 about 5 % of the time (binomial SE 0.9 points) and
// the variance of z about 1; with the iid variance (H = 0.5) on H = 0.9
// noise it would reject far more often.
func TestTrendHalvesNullOnFGN(t *testing.T) {
	r := model.NewRand(21, 21)
	for _, h := range []float64{0.5, 0.7, 0.9} {
		const reps = 600
		rej, naive := 0, 0
		var ss float64
		for range reps {
			z, err := model.FGN(1024, h, r)
			if err != nil {
				t.Fatal(err)
			}
			s := TrendHalves(z, h)
			ss += s * s
			if math.Abs(s) > 1.96 {
				rej++
			}
			if math.Abs(TrendHalves(z, 0.5)) > 1.96 {
				naive++
			}
		}
		rate, v := float64(rej)/reps, ss/reps
		if rate < 0.025 || rate > 0.08 || v < 0.85 || v > 1.15 {
			t.Errorf("H = %g: rejects %.3f, var(z) %.2f; want about 0.05 and 1", h, rate, v)
		}
		if h == 0.9 && float64(naive)/reps < 0.5 {
			t.Errorf("H = 0.9 with the iid variance rejects only %.2f: the test would not need H", float64(naive)/reps)
		}
	}
}

// The DFA-1 surrogate test holds its level on independent intervals
// (exponential and heavy-tailed lognormal: p < 0.05 about 5 % of the
// time) and finds the long memory of FGN-driven intervals (H = 0.8,
// lognormal σ = 2 marginals: 26 of 30 series in this run; the heavy tail
// costs DFA power).
func TestDFASurrogateP(t *testing.T) {
	r := model.NewRand(8, 8)
	count := func(gen func() []float64, reps int) float64 {
		n := 0
		for range reps {
			u := gen()
			if DFASurrogateP(u, r) < 0.05 {
				n++
			}
		}
		return float64(n) / float64(reps)
	}
	iid := func(f func() float64) func() []float64 {
		return func() []float64 {
			u := make([]float64, 2048)
			for i := range u {
				u[i] = f()
			}
			return u
		}
	}
	if p := count(iid(r.ExpFloat64), 200); p > 0.1 {
		t.Errorf("exponential intervals: %.3f significant, want about 0.05", p)
	}
	if p := count(iid(func() float64 { return math.Exp(2 * r.NormFloat64()) }), 200); p > 0.1 {
		t.Errorf("lognormal intervals: %.3f significant, want about 0.05", p)
	}
	if p := count(func() []float64 { return lrdIntervals(r, 4096, 0.8) }, 30); p < 0.8 {
		t.Errorf("FGN H = 0.8: %.2f significant, want at least 0.8", p)
	}
}

// lrdIntervals are n intervals of revisit's lrd model with heavy-tailed
// (lognormal, σ = 2) marginals: U_i = exp(2 Z_i), Z exact FGN(H).
func lrdIntervals(r *rand.Rand, n int, h float64) []float64 {
	z, err := model.FGN(n, h, r)
	if err != nil {
		panic(err)
	}
	for i := range z {
		z[i] = math.Exp(2 * z[i])
	}
	return z
}

// poissonTrend are the intervals of a Poisson process whose rate grows
// linearly from 1 to ratio over a window holding about n updates: no
// long memory, only a trend.
func poissonTrend(r *rand.Rand, n int, ratio float64) []float64 {
	span := float64(n) / ((1 + ratio) / 2)
	var last, t float64
	var u []float64
	first := true
	for t < span {
		t += r.ExpFloat64() / ratio // thinning of a rate-ratio process
		if t < span && r.Float64() < (1+(ratio-1)*t/span)/ratio {
			if !first {
				u = append(u, t-last)
			}
			last, first = t, false
		}
	}
	return u
}

// The rule on series of known nature: intervals driven by exact FGN of
// H = 0.8 (heavy-tailed marginals) are called long-memory on most pages;
// a Poisson process whose rate grows tenfold or threefold (independent
// intervals: long memory is absent) is never called long-memory — both
// estimators see it and the trend test keeps it undecided — and one whose
// rate grows by half at most at the tests' level (2 of 30 here, 0 of 100
// with another seed: so weak a trend barely moves DFA-1, and escapes the
// trend test when it does); independent
// exponential intervals are called so at most at the tests' level.
func TestLongMemoryRule(t *testing.T) {
	r := model.NewRand(13, 13)
	verdicts := func(gen func() []float64, reps int) map[string]int {
		out := map[string]int{}
		for range reps {
			u := gen()
			c := LongMemory(u, DFA(u), LocalWhittle(u), r)
			out[c.Verdict]++
		}
		t.Logf("%v", out)
		return out
	}
	const reps = 30
	v := verdicts(func() []float64 { return lrdIntervals(r, 4096, 0.8) }, reps)
	if v[LRDClaimed] < 20 {
		t.Errorf("FGN H = 0.8: %v, want long memory on most of %d", v, reps)
	}
	for _, c := range []struct {
		ratio  float64
		claims int // at most
	}{{10, 0}, {3, 0}, {1.5, 3}} {
		v := verdicts(func() []float64 { return poissonTrend(r, 4096, c.ratio) }, reps)
		if v[LRDClaimed] > c.claims || c.ratio >= 3 && v[LRDTrend] < reps/2 {
			t.Errorf("Poisson, rate ×%g over the window: %v, want long memory claimed at most %d times (and mostly the trend from ×3)", c.ratio, v, c.claims)
		}
	}
	v = verdicts(func() []float64 {
		u := make([]float64, 4096)
		for i := range u {
			u[i] = r.ExpFloat64()
		}
		return u
	}, reps)
	if v[LRDClaimed] > 3 || v[LRDNone] < reps*3/4 {
		t.Errorf("independent exponential intervals: %v, want no long memory", v)
	}
	// Too few: no verdict; enough, but no valid H: undecided.
	if c := LongMemory([]float64{1, 2, 3}, nanEstimate(HurstDFA), nanEstimate(HurstLW), r); c.Verdict != "" || !math.IsNaN(c.DFAP) {
		t.Errorf("too few: %+v, want no verdict", c)
	}
	u := lrdIntervals(r, 256, 0.7)
	if c := LongMemory(u, DFA(u), nanEstimate(HurstLW), r); c.Verdict != LRDInvalid {
		t.Errorf("local Whittle outside [0, 1]: %+v, want %q", c, LRDInvalid)
	}
}

// NormalScores are the normal quantiles of the ranks: 3 values get
// Φ⁻¹(1/6), Φ⁻¹(1/2) = 0, Φ⁻¹(5/6) in the order of their ranks.
func TestNormalScores(t *testing.T) {
	z := NormalScores([]float64{5, 1, 3})
	q := distuv.UnitNormal.Quantile(5.0 / 6)
	if math.Abs(z[0]-q) > 1e-12 || math.Abs(z[1]+q) > 1e-12 || z[2] != 0 {
		t.Errorf("scores %v, want [%g %g 0]", z, q, -q)
	}
}
