package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/model"
	"gonum.org/v1/gonum/stat/distuv"
)

// RateChange holds its level on intervals of a constant rate: over 400
// series of 500 independent exponential intervals, 400 of 500 geometric
// ones (intervals counted in whole days: many ties, which share their
// mid-rank) and 400 of 500 lognormal σ = 2 ones (heavy-tailed), p < 0.05
// between 2.5 % (either CUSUM alone at 0.025) and 5 % (Bonferroni) of the
// time, up to the binomial SE of 1.1 points. It sees a rate 30 times
// higher in the second half of the window on 300 intervals (a few long
// intervals before the change, the rest short) in at least 90 % of 40
// series, which the CUSUM of the ranks alone misses (p < 0.05 in at most
// half of them). The CUSUM statistic of 1, 1, 4, 4 is 3/√9 = 1; its
// p-value is the Kolmogorov tail: 5 % at 1.3581, 1 % at 1.6276 (the
// distribution's tabulated quantiles), 1 at 0.
func TestRateChange(t *testing.T) {
	for _, c := range []struct{ x, p float64 }{{1.3581, 0.05}, {1.6276, 0.01}, {0, 1}} {
		if got := kolmogorovTail(c.x); math.Abs(got-c.p) > 2e-4 {
			t.Errorf("Kolmogorov tail at %g: %g, want %g", c.x, got, c.p)
		}
	}
	if d := cusum([]float64{1, 1, 4, 4}); math.Abs(d-1) > 1e-15 {
		t.Errorf("CUSUM of 1, 1, 4, 4: %g, want 1", d)
	}
	r := model.NewRand(5, 5)
	for name, draw := range map[string]func() float64{
		"exponential": r.ExpFloat64,
		"geometric":   func() float64 { return math.Ceil(2 * r.ExpFloat64()) },
		"lognormal":   func() float64 { return math.Exp(2 * r.NormFloat64()) },
	} {
		const reps = 400
		rej := 0
		for range reps {
			u := make([]float64, 500)
			for i := range u {
				u[i] = draw()
			}
			if p := RateChange(u); p < LRDLevel {
				rej++
			}
		}
		if rate := float64(rej) / reps; rate < 0.01 || rate > 0.075 {
			t.Errorf("%s intervals, constant rate: p < 0.05 in %.3f of %d, want 0.025 to 0.05", name, rate, reps)
		}
	}
	const reps = 40
	both, ranks := 0, 0
	for range reps {
		u := poissonRate(r, 300, 30, func(x float64) float64 { return map[bool]float64{true: 1, false: 30}[x < 0.5] })
		if RateChange(u) < LRDLevel {
			both++
		}
		if kolmogorovTail(cusum(midRanks(u))) < LRDLevel {
			ranks++
		}
	}
	t.Logf("rate ×30 in the second half, 300 intervals: found in %d of %d, by the ranks alone in %d", both, reps, ranks)
	if both < reps*9/10 || ranks > reps/2 {
		t.Errorf("rate ×30 in the second half, 300 intervals: found in %d of %d (ranks alone %d), want at least 90 %% (ranks alone at most half)", both, reps, ranks)
	}
	if p := RateChange([]float64{2, 2, 2, 2}); p != 1 {
		t.Errorf("equal intervals: p %g, want 1", p)
	}
}

// RunningMedian equals the median of each window taken naively (sorted),
// for odd and even windows, ties, windows longer than the series, and the
// windows clamped at both ends.
func TestRunningMedian(t *testing.T) {
	r := model.NewRand(6, 6)
	naive := func(x []float64, k int) []float64 {
		n := len(x)
		k = max(1, min(k, n))
		out := make([]float64, n)
		for i := range x {
			lo := max(0, min(i-k/2, n-k))
			w := slices.Clone(x[lo : lo+k])
			slices.Sort(w)
			if k%2 == 1 {
				out[i] = w[k/2]
			} else {
				out[i] = (w[k/2-1] + w[k/2]) / 2
			}
		}
		return out
	}
	for _, n := range []int{1, 2, 7, 50, 301} {
		for _, k := range []int{1, 2, 3, 10, 11, 64, 400} {
			x := make([]float64, n)
			for i := range x {
				x[i] = math.Floor(10 * r.ExpFloat64()) // ties
			}
			if got, want := RunningMedian(x, k), naive(x, k); !slices.Equal(got, want) {
				t.Errorf("n %d, k %d: %v, want %v", n, k, got, want)
			}
		}
	}
}

// Local Whittle on a band of frequencies is unbiased on exact FGN and its
// SE 1/(2√Σ(ν_j − ν̄)²) is the spread of its estimates: over 200 series of
// 4,096 values at H = 0.7, the mean H within 0.02 of 0.7 and the standard
// deviation within 20 % of the SE, for the full band and for the band
// above j0 = 16 (SE 0.037 and 0.050 here).
func TestLocalWhittleBand(t *testing.T) {
	r := model.NewRand(7, 7)
	for _, j0 := range []int{0, 16} {
		const reps = 200
		var s, ss, se float64
		for range reps {
			z, err := model.FGN(4096, 0.7, r)
			if err != nil {
				t.Fatal(err)
			}
			e := LocalWhittleBand(z, j0)
			s += e.H
			ss += e.H * e.H
			se = e.SE
		}
		mean := s / reps
		sd := math.Sqrt(ss/reps - mean*mean)
		if math.Abs(mean-0.7) > 0.02 || math.Abs(sd/se-1) > 0.2 {
			t.Errorf("j0 = %d: mean H %.3f, sd %.4f, SE %.4f; want 0.7 and sd ≈ SE", j0, mean, sd, se)
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

// fgnExpIntervals are n intervals with exponential marginals driven by
// exact FGN(H): U_i = −ln(1 − Φ(Z_i)), a Poisson-like page with long
// memory.
func fgnExpIntervals(r *rand.Rand, n int, h float64) []float64 {
	z, err := model.FGN(n, h, r)
	if err != nil {
		panic(err)
	}
	for i := range z {
		z[i] = -math.Log(distuv.UnitNormal.Survival(z[i]))
	}
	return z
}

// poissonRate are the intervals of a Poisson process of rate
// proportional to rate(t), t ∈ [0, 1] the position in the window (at
// most top), over a window holding about n updates: independent
// increments, no long memory, only the change of the rate. Drawn by
// thinning a process of rate top.
func poissonRate(r *rand.Rand, n int, top float64, rate func(t float64) float64) []float64 {
	var mean float64
	for i := range 1000 {
		mean += rate((float64(i)+0.5)/1000) / 1000
	}
	span := float64(n) / mean
	var last, t float64
	var u []float64
	first := true
	for {
		t += r.ExpFloat64() / top
		if t >= span {
			return u
		}
		if r.Float64() < rate(t/span)/top {
			if !first {
				u = append(u, t-last)
			}
			last, first = t, false
		}
	}
}

// rateChanges are the changes of the rate the rule must not take for
// long memory: linear ramps ×1.5, ×3, ×10 over the window, an exponential
// growth ×10, steps ×3 at the middle and ×10 at 83 % of the window (a
// third of the updates before it), and a burst ×3 over the middle half.
var rateChanges = []struct {
	name string
	top  float64
	rate func(t float64) float64
}{
	{"ramp ×1.5", 1.5, func(t float64) float64 { return 1 + 0.5*t }},
	{"ramp ×3", 3, func(t float64) float64 { return 1 + 2*t }},
	{"ramp ×10", 10, func(t float64) float64 { return 1 + 9*t }},
	{"exponential ×10", 10, func(t float64) float64 { return math.Pow(10, t) }},
	{"step ×3 at 1/2", 3, func(t float64) float64 { return map[bool]float64{true: 1, false: 3}[t < 0.5] }},
	{"step ×10 at 0.83", 10, func(t float64) float64 { return map[bool]float64{true: 1, false: 10}[t < 0.83] }},
	{"burst ×3 over 1/4–3/4", 3, func(t float64) float64 { return map[bool]float64{true: 3, false: 1}[t >= 0.25 && t < 0.75] }},
}

// The rule on series of known nature (4,096 intervals each, counts over
// reps series per case, about 10 s in all):
//   - long memory of known H = 0.8 (exact FGN driving exponential
//     marginals, and lognormal σ = 2 ones, heavy-tailed: DFA-1 and local
//     Whittle on the raw intervals lose power there) is claimed on most
//     series, nearly all of them on the time-rescaled halves, since the
//     test of the rate (RateChange) sees long memory as a change of it;
//   - a Poisson process whose rate ramps ×1.5, ×3, ×10, grows
//     exponentially, steps or bursts (independent intervals: no long
//     memory), and on short pages (300 intervals) one whose rate steps
//     ×10 or ×30 at the middle of the window (a few long intervals, then
//     many short ones), is claimed on at most 2 % of all the series of
//     all the cases (a half passes both estimators' tests about one time
//     in ten, and both halves must);
//   - independent exponential intervals at most at the tests' level;
//   - long memory under a rate ramping ×10 (FGN H = 0.8, exponential
//     marginals, time-changed by the ramp) is still claimed on most series.
func TestLongMemoryRule(t *testing.T) {
	r := model.NewRand(13, 13)
	reps := 40
	if testing.Short() {
		reps = 10
	}
	verdicts := func(name string, gen func() []float64) (map[string]int, int) {
		out, rescaled := map[string]int{}, 0
		for range reps {
			u := gen()
			c := LongMemory(u, DFA(u), LocalWhittle(u), r)
			out[c.Verdict]++
			if c.Rescaled() {
				rescaled++
			}
		}
		t.Logf("%-24s %v (claimed on the rescaled halves: %d)", name, out, rescaled)
		return out, rescaled
	}
	v, _ := verdicts("FGN H=0.8, exponential", func() []float64 { return fgnExpIntervals(r, 4096, 0.8) })
	if v[LRDClaimed] < reps*8/10 {
		t.Errorf("FGN H = 0.8, exponential marginals: %v, want long memory on at least 80 %% of %d", v, reps)
	}
	v, _ = verdicts("FGN H=0.8, lognormal", func() []float64 { return lrdIntervals(r, 4096, 0.8) })
	if v[LRDClaimed] < reps/2 {
		t.Errorf("FGN H = 0.8, lognormal marginals: %v, want long memory on at least half of %d", v, reps)
	}
	claims := 0
	for _, c := range rateChanges {
		v, _ := verdicts("Poisson, "+c.name, func() []float64 { return poissonRate(r, 4096, c.top, c.rate) })
		claims += v[LRDClaimed]
	}
	for _, top := range []float64{10, 30} {
		v, _ := verdicts(fmt.Sprintf("Poisson, 300, step ×%g at 1/2", top), func() []float64 {
			return poissonRate(r, 300, top, func(x float64) float64 { return map[bool]float64{true: 1, false: top}[x < 0.5] })
		})
		claims += v[LRDClaimed]
	}
	if n := reps * (len(rateChanges) + 2); claims > max(2, n/50) {
		t.Errorf("Poisson processes with a changing rate: long memory claimed on %d of %d series, want at most 2 %%", claims, n)
	}
	v, _ = verdicts("independent exponential", func() []float64 { return poissonRate(r, 4096, 1, func(float64) float64 { return 1 }) })
	if v[LRDClaimed] > max(2, reps/10) || v[LRDNone] < reps*3/4 {
		t.Errorf("independent exponential intervals: %v, want no long memory", v)
	}
	v, _ = verdicts("FGN H=0.8 under a ramp ×10", func() []float64 {
		u := fgnExpIntervals(r, 4096, 0.8)
		var tot float64
		for _, x := range u {
			tot += x
		}
		// operational time s = Λ(t) with rate 1 + 9t/T: t = Λ⁻¹(s)
		T := 2 * tot / 11
		inv := func(s float64) float64 { return (-1 + math.Sqrt(1+18*s/T)) * T / 9 }
		var s, prev float64
		for i, x := range u {
			s += x
			t := inv(s)
			u[i], prev = t-prev, t
		}
		return u
	})
	if v[LRDClaimed] < reps/2 {
		t.Errorf("FGN H = 0.8 under a ramp ×10: %v, want long memory on at least half of %d", v, reps)
	}
	// Too few: no verdict; enough, but no valid H: undecided.
	if c := LongMemory([]float64{1, 2, 3}, nanEstimate(HurstDFA), nanEstimate(HurstLW), r); c.Verdict != "" || !math.IsNaN(c.DFAP) || c.Halves != -1 {
		t.Errorf("too few: %+v, want no verdict", c)
	}
	u := lrdIntervals(r, 256, 0.7)
	if c := LongMemory(u, DFA(u), nanEstimate(HurstLW), r); c.Verdict != LRDInvalid {
		t.Errorf("local Whittle outside [0, 1]: %+v, want %q", c, LRDInvalid)
	}
}

// NormalScores are the normal quantiles of the mid-ranks: 3 values get
// Φ⁻¹(1/6), Φ⁻¹(1/2) = 0, Φ⁻¹(5/6) in the order of their ranks; two
// equal ones share rank 1.5: Φ⁻¹(1/3) each, whatever their order.
func TestNormalScores(t *testing.T) {
	z := NormalScores([]float64{5, 1, 3})
	q := distuv.UnitNormal.Quantile(5.0 / 6)
	if math.Abs(z[0]-q) > 1e-12 || math.Abs(z[1]+q) > 1e-12 || z[2] != 0 {
		t.Errorf("scores %v, want [%g %g 0]", z, q, -q)
	}
	z = NormalScores([]float64{1, 1, 2})
	if q := distuv.UnitNormal.Quantile(1.0 / 3); z[0] != q || z[1] != q || math.Abs(z[2]-distuv.UnitNormal.Quantile(5.0/6)) > 1e-12 {
		t.Errorf("tied scores %v, want [%g %g %g]", z, q, q, distuv.UnitNormal.Quantile(5.0/6))
	}
}
