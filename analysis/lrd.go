package analysis

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Long-range dependence is claimed on a page only where two estimators
// with honest uncertainty agree, and, where the rate changes over the
// window, only where they still agree once the change is removed
// (docs/methods.md#lrd):
//
//   - local Whittle: its 95 % interval H ± 1.96/(2√m) (the asymptotic
//     standard error, Robinson 1995) lies above 0.5;
//   - DFA-1: its slope lies above the DFA-1 slopes of the page's
//     intervals shuffled (surrogates that keep the intervals' distribution
//     and lose their order), at p < 0.05 (DFASurrogateP) — the OLS error
//     of the DFA-1 slope understates the uncertainty, the surrogates do
//     not;
//   - the rate: a rate that changes over the window (an edit rate that
//     grows tenfold, a step, a burst) makes both estimators see long
//     memory in independent intervals. RateChange tests the intervals for
//     a change of the rate along the window (CUSUMs of their ranks and of
//     the update times, which know nothing of long memory, so that the
//     test cannot be explained away by the H it would judge). Where it
//     finds one, each half of the window is judged on its own,
//     time-rescaled (RescaledHalfLRD: every interval divided by the
//     running median of the intervals around it, the estimators
//     restricted to the scales the smoothing leaves untouched), and long
//     memory is claimed only if both estimators find it in both halves:
//     stationary long memory shows in every part of the window, a change
//     of the rate removed by the rescaling leaves at most a local
//     artefact, which cannot be in both halves at once.
//
// Otherwise the page is undecided (the estimators disagree, or a change
// of the rate they do not survive), or shows no long memory (neither
// estimator finds it).

// LRD verdicts of a page (PageScreen.LRD, page_stats' lrd column).
const (
	LRDClaimed  = "long memory"
	LRDNone     = "no long memory"
	LRDTrend    = "undecided: trend in the rate"
	LRDDisagree = "undecided: estimators disagree"
	LRDInvalid  = "undecided: an H outside [0, 1]" // enough intervals, but an estimator's H is no Hurst exponent (non-stationary)
	LRDLevel    = Significance                     // level of the DFA-1 surrogate test and of the rate-change test

	dfaSurrogate = 99 // shuffled surrogates of the DFA-1 test, at most
	dfaExceed    = 5  // the sequential test stops after this many surrogates at or above H
	dfaTestScale = 8  // box sizes of the test's DFA-1 slope (the reported H uses 20)

	// A half of the window is judged after a change of the rate only with
	// at least lrdHalfMin intervals; its running median spans
	// max(lrdSmoothMin, m/lrdSmoothFrac) of its m intervals, so that DFA-1
	// keeps box sizes 16 to at least 128 below the smoothing's scale.
	lrdHalfMin    = 512
	lrdSmoothMin  = 256
	lrdSmoothFrac = 10
)

// LRDCheck is a page's long-memory verdict with the tests it rests on.
type LRDCheck struct {
	DFAP float64 // p-value of DFA-1's H against its shuffled surrogates
	// TrendP is RateChange's p-value (NaN unless both estimators find
	// long memory: only then can a change of the rate change the verdict).
	TrendP float64
	// Halves is the number of halves of the window (0, 1 or 2) in which
	// both estimators find long memory after the time rescaling
	// (RescaledHalfLRD); −1 unless TrendP < LRDLevel and each half has
	// at least lrdHalfMin intervals.
	Halves  int
	Verdict string // LRDClaimed, LRDNone, LRDTrend, LRDDisagree, LRDInvalid; "" without an H
}

// Rescaled reports whether the claim rests on the time-rescaled halves
// (a change of the rate was found and removed).
func (c LRDCheck) Rescaled() bool { return c.Verdict == LRDClaimed && c.Halves == 2 }

// LongMemory is the long-memory verdict of a page's intervals u given its
// DFA-1 and local Whittle estimates (the screen's); surrogates are drawn
// from r. Below MinHurstLen intervals there is no verdict; with enough
// but an H outside [0, 1] (flagged by the estimator: no Hurst exponent
// of a stationary series) the page is undecided (LRDInvalid).
func LongMemory(u []float64, dfa, lw HurstEstimate, r *rand.Rand) LRDCheck {
	c := LRDCheck{DFAP: math.NaN(), TrendP: math.NaN(), Halves: -1}
	if len(u) < MinHurstLen {
		return c
	}
	if math.IsNaN(dfa.H) || math.IsNaN(lw.H) {
		c.Verdict = LRDInvalid
		return c
	}
	c.DFAP = DFASurrogateP(u, r)
	byLW, byDFA := lw.Lo > 0.5, c.DFAP < LRDLevel
	switch {
	case byLW && byDFA:
		// only here can a change of the rate change the verdict: tested here only
		c.TrendP = RateChange(u)
		c.Verdict = LRDClaimed
		if c.TrendP < LRDLevel {
			c.Verdict = LRDTrend
			if m := len(u) / 2; m >= lrdHalfMin { // else too few intervals to remove the change
				c.Halves = 0
				for _, h := range [][]float64{u[:m], u[len(u)-m:]} {
					if RescaledHalfLRD(h, r) {
						c.Halves++
					}
				}
				if c.Halves == 2 {
					c.Verdict = LRDClaimed
				}
			}
		}
	case byLW || byDFA:
		c.Verdict = LRDDisagree
	default:
		c.Verdict = LRDNone
	}
	return c
}

// RescaledHalfLRD reports whether both estimators find long memory in x
// (one half of a page's window) once a changing rate is removed from it:
// with m = len(x) intervals (at least lrdHalfMin, else false) and
// K = max(256, m/10), each interval is divided by the running median of
// the K intervals around it (RunningMedian: under a change of the rate
// alone the intervals are the same distribution rescaled, so the local
// median follows the local mean interval, and one huge interval does not
// move it), and the result is turned into normal scores (NormalScores:
// heavy tails no longer dominate). The rescaling removes what varies over
// K intervals or more, so the estimators look only below that scale:
// local Whittle on the Fourier frequencies j > ⌈m/K⌉ (LocalWhittleBand,
// its interval above 0.5) and DFA-1 on box sizes 16 to K/2 against the
// same statistic on shuffles (p < LRDLevel).
func RescaledHalfLRD(x []float64, r *rand.Rand) bool {
	m := len(x)
	if m < lrdHalfMin {
		return false
	}
	k := max(lrdSmoothMin, m/lrdSmoothFrac)
	med := RunningMedian(x, k)
	w := make([]float64, m)
	for i, v := range x {
		w[i] = v / med[i]
	}
	w = NormalScores(w)
	if LocalWhittleBand(w, (m+k-1)/k).Lo <= 0.5 {
		return false
	}
	return dfaSurrogateP(w, logScales(16, k/2, dfaTestScale), r) < LRDLevel
}

// RateChange tests the intervals u for a change of the rate along the
// window — a rate that grows, falls, steps or bursts — by two CUSUMs,
// each D = max_k |Σ_{i≤k}(x_i − x̄)| / (s√n) with s² = Σ(x_i − x̄)²/n:
//
//   - of the mid-ranks of the intervals (ties share their mean rank): a
//     change of level along the sequence of intervals, indifferent to
//     heavy tails and to the intervals' distribution (Pettitt 1979 is the
//     same statistic for one change);
//   - of the intervals themselves: Σ_{i≤k}(u_i − ū) is how far the k-th
//     update lies from where a constant rate over the window puts it, so
//     this one sees a change by the time it spans, where the ranks see it
//     by the number of intervals it spans (a rate 30 times higher in the
//     second half of the window leaves a few long intervals before the
//     change, which move a rank CUSUM little and the times a lot).
//
// For independent, identically distributed intervals (a renewal process of
// constant rate; for the second, of finite variance) each D tends in law
// to the supremum of a Brownian bridge's absolute value (Kolmogorov),
// whose tail gives p = 2 Σ_{j≥1} (−1)^{j−1} e^{−2j²D²}; the test's p is
// min(1, 2 min(p_ranks, p_times)) (Bonferroni: level at most 5 % at
// p < 0.05). Neither knows anything of long memory (long memory rejects
// them often: that only sends the page to RescaledHalfLRD). NaN below 2
// intervals.
func RateChange(u []float64) float64 {
	if len(u) < 2 {
		return math.NaN()
	}
	return min(1, 2*min(kolmogorovTail(cusum(midRanks(u))), kolmogorovTail(cusum(u))))
}

// cusum is max_k |Σ_{i≤k}(x_i − x̄)| / √Σ(x_i − x̄)² (the CUSUM statistic
// D of RateChange), 0 when every x_i is equal.
func cusum(x []float64) float64 {
	var mean float64
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss, c, d float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
		c += v - mean
		d = max(d, math.Abs(c))
	}
	if ss == 0 {
		return 0
	}
	return d / math.Sqrt(ss)
}

// kolmogorovTail is P(sup_t |B(t)| > x) for a Brownian bridge B:
// 2 Σ_{j≥1} (−1)^{j−1} e^{−2j²x²} (1 for x ≤ 0; the series, alternating
// and decreasing, is summed until its terms fall below 10⁻¹⁷; below
// x = 0.2 it is 1 to double precision).
func kolmogorovTail(x float64) float64 {
	if x < 0.2 {
		return 1
	}
	var s float64
	for j := 1; j < 100; j++ {
		t := math.Exp(-2 * float64(j*j) * x * x)
		if j%2 == 0 {
			s -= t
		} else {
			s += t
		}
		if t < 1e-17 {
			break
		}
	}
	return min(1, max(0, 2*s))
}

// midRanks are the ranks 1…n of u, ties sharing the mean of their ranks.
func midRanks(u []float64) []float64 {
	idx := make([]int, len(u))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(u[a], u[b]) })
	rk := make([]float64, len(u))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && u[idx[j]] == u[idx[i]] {
			j++
		}
		r := float64(i+j+1) / 2 // mean of ranks i+1 … j
		for _, k := range idx[i:j] {
			rk[k] = r
		}
		i = j
	}
	return rk
}

// DFASurrogateP is the Monte-Carlo p-value of the DFA-1 exponent of the
// intervals u against the DFA-1 exponents of random permutations of u
// (surrogates with the same values in an order without dependence):
// sequential (Besag & Clifford 1991), drawing up to 99 surrogates and
// stopping once 5 reach the observed exponent: p = (1 + #{H_s ≥ H}) / 100
// after all 99, or 5 / l when the 5th of them is the l-th surrogate.
// Small p: the order of the intervals, not their distribution, makes
// DFA-1's H this large. The statistic is the DFA-1 slope over 8
// log-spaced box sizes (the same range as DFA's 20), the same for the
// page and its surrogates, so that the test costs a few hundred DFA-1
// slopes at most; the H the tables report is DFA's.
func DFASurrogateP(u []float64, r *rand.Rand) float64 {
	return dfaSurrogateP(u, logScales(16, len(u)/4, dfaTestScale), r)
}

// dfaSurrogateP is DFASurrogateP with the DFA-1 slope over the box sizes
// scales.
func dfaSurrogateP(u []float64, scales []int, r *rand.Rand) float64 {
	s := slices.Clone(u)
	y := make([]float64, len(s))
	h := dfa(s, scales, y).H
	if math.IsNaN(h) {
		return math.NaN()
	}
	ge := 0
	for l := 1; l <= dfaSurrogate; l++ {
		r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		if hs := dfa(s, scales, y).H; !(hs < h) { // NaN (no valid H) counts as reaching h
			if ge++; ge == dfaExceed {
				return float64(dfaExceed) / float64(l)
			}
		}
	}
	return float64(1+ge) / float64(dfaSurrogate+1)
}

// NormalScores maps u to the standard normal quantiles of its ranks,
// Φ⁻¹((R_i − ½)/n) with R_i the mid-ranks (ties share their mean rank,
// so that equal intervals, frequent at a coarse resolution, get one
// score and no order): the rank transform of a Gaussian-copula sequence
// U_i = F⁻¹(Φ(Z_i)) (revisit's lrd model) is, up to the ranks' noise,
// the Gaussian series Z itself, and heavy tails no longer dominate the
// sample means.
func NormalScores(u []float64) []float64 {
	z := midRanks(u)
	n := float64(len(u))
	for i, r := range z {
		z[i] = distuv.UnitNormal.Quantile((r - 0.5) / n)
	}
	return z
}

// lrdStream is the random stream of a page's DFA-1 surrogates, apart
// from its KS stream (the page id), so that adding the test moved no
// other number.
func lrdStream(pageID int64) uint64 { return uint64(pageID)*0x9e3779b97f4a7c15 + 0x4c5244 }
