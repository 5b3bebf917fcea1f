package analysis

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Long-range dependence is claimed on a page only where two estimators
// with honest uncertainty agree and no trend in the rate can explain it
// (docs/methods.md#lrd):
//
//   - local Whittle: its 95 % interval H ± 1.96/(2√m) (the asymptotic
//     standard error, Robinson 1995) lies above 0.5;
//   - DFA-1: its slope lies above the DFA-1 slopes of the page's
//     intervals shuffled (surrogates that keep the intervals' distribution
//     and lose their order), at p < 0.05 (DFASurrogateP) — the OLS error
//     of the DFA-1 slope understates the uncertainty, the surrogates do
//     not;
//   - no trend in the rate: a slowly changing rate (an edit rate that
//     grows tenfold over the window) makes both estimators see long
//     memory in independent intervals, so a trend detected by
//     TrendHalves leaves the page undecided (the two cannot be told
//     apart on one series). The test runs on the intervals' normal
//     scores, against the long memory that local Whittle finds in them
//     about a least-squares line (a trend would otherwise raise H and
//     hide itself), at the upper end of its 95 % interval: an H
//     estimated too low would make long memory pass for a trend.
//
// Otherwise the page is undecided (the estimators disagree, or a trend),
// or shows no long memory (neither estimator finds it).

// LRD verdicts of a page (PageScreen.LRD, page_stats' lrd column).
const (
	LRDClaimed   = "long memory"
	LRDNone      = "no long memory"
	LRDTrend     = "undecided: trend in the rate"
	LRDDisagree  = "undecided: estimators disagree"
	LRDInvalid   = "undecided: an H outside [0, 1]" // enough intervals, but an estimator's H is no Hurst exponent (non-stationary)
	LRDLevel     = Significance                     // level of the DFA-1 surrogate test and of the trend test
	lrdTrendZ    = 1.959963984540054
	dfaSurrogate = 99 // shuffled surrogates of the DFA-1 test, at most
	dfaExceed    = 5  // the sequential test stops after this many surrogates at or above H
	dfaTestScale = 8  // box sizes of the test's DFA-1 slope (the reported H uses 20)
)

// LRDCheck is a page's long-memory verdict with the tests it rests on.
type LRDCheck struct {
	DFAP    float64 // p-value of DFA-1's H against its shuffled surrogates
	TrendZ  float64 // TrendHalves' statistic on the normal scores (NaN unless both estimators find long memory: only then can a trend change the verdict)
	Verdict string  // LRDClaimed, LRDNone, LRDTrend, LRDDisagree; "" without an H
}

// LongMemory is the long-memory verdict of a page's intervals u given its
// DFA-1 and local Whittle estimates (the screen's); surrogates are drawn
// from r. Below MinHurstLen intervals there is no verdict; with enough
// but an H outside [0, 1] (flagged by the estimator: no Hurst exponent
// of a stationary series) the page is undecided (LRDInvalid).
func LongMemory(u []float64, dfa, lw HurstEstimate, r *rand.Rand) LRDCheck {
	c := LRDCheck{DFAP: math.NaN(), TrendZ: math.NaN()}
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
		// only here can a trend change the verdict: tested here only
		z := NormalScores(u)
		c.TrendZ = TrendHalves(z, LocalWhittle(detrend(z)).Hi)
		c.Verdict = LRDClaimed
		if math.Abs(c.TrendZ) > lrdTrendZ {
			c.Verdict = LRDTrend
		}
	case byLW || byDFA:
		c.Verdict = LRDDisagree
	default:
		c.Verdict = LRDNone
	}
	return c
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
	s := slices.Clone(u)
	scales, y := logScales(16, len(s)/4, dfaTestScale), make([]float64, len(s))
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
// Φ⁻¹((rank − ½)/n) (ties by position): the rank transform of a
// Gaussian-copula sequence U_i = F⁻¹(Φ(Z_i)) (revisit's lrd model) is,
// up to the ranks' noise, the Gaussian series Z itself, and heavy tails
// no longer dominate the sample means.
func NormalScores(u []float64) []float64 {
	idx := make([]int, len(u))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case u[a] < u[b]:
			return -1
		case u[a] > u[b]:
			return 1
		}
		return 0
	})
	z := make([]float64, len(u))
	n := float64(len(u))
	for rank, i := range idx {
		z[i] = distuv.UnitNormal.Quantile((float64(rank) + 0.5) / n)
	}
	return z
}

// TrendHalves tests a series z for a change of level between its first
// and last halves against what stationary long memory of Hurst exponent
// h produces: z = (x̄_B − x̄_A) / (s · m^{h−1} · √(4 − 2^{2h})), with m
// the half length (a middle value of an odd series left out), x̄_A, x̄_B
// the half means and s² = Σ(z_i − z̄)²/(n − n^{2h−1}) the variance.
// Under fractional Gaussian noise of exponent h, the sums S_A, S_B of
// the halves have Var = σ²m^{2h} each and Cov = σ²((2m)^{2h} − 2m^{2h})/2,
// so Var(S_B − S_A) = σ²m^{2h}(4 − 2^{2h}) and the statistic is
// standard normal; long memory alone does not count as a trend. (The
// divisor of s² makes it unbiased under FGN: E Σ(z_i − z̄)² = nσ² −
// n·Var(z̄) = σ²(n − n^{2h−1}), n − 1 at h = ½; with n − 1 a strongly
// dependent series would look less variable than it is.) h is
// clamped to [0.5, 0.99] (below 0.5 the iid variance is the conservative
// choice; at 1 the halves would be identical). NaN below 4 values.
func TrendHalves(z []float64, h float64) float64 {
	if len(z) < 4 {
		return math.NaN()
	}
	if !(h >= 0.5) {
		h = 0.5
	}
	h = math.Min(h, 0.99)
	m := len(z) / 2
	a, b := sum(z[:m])/float64(m), sum(z[len(z)-m:])/float64(m)
	mu := sum(z) / float64(len(z))
	ss := 0.0
	for _, v := range z {
		ss += (v - mu) * (v - mu)
	}
	n := float64(len(z))
	s := math.Sqrt(ss / (n - math.Pow(n, 2*h-1)))
	den := s * math.Pow(float64(m), h-1) * math.Sqrt(4-math.Pow(2, 2*h))
	return (b - a) / den
}

// detrend is x less its least-squares line on the index: local Whittle
// on it estimates the Hurst exponent of the fluctuations about a trend,
// which TrendHalves then takes as the null's long memory (on the series
// itself a trend would raise H and hide itself).
func detrend(x []float64) []float64 {
	n := float64(len(x))
	var si, sx, sii, six float64
	for i, v := range x {
		fi := float64(i)
		si += fi
		sx += v
		sii += fi * fi
		six += fi * v
	}
	b := (six - si*sx/n) / (sii - si*si/n)
	a := sx/n - b*si/n
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v - a - b*float64(i)
	}
	return out
}

// lrdStream is the random stream of a page's DFA-1 surrogates, apart
// from its KS stream (the page id), so that adding the test moved no
// other number.
func lrdStream(pageID int64) uint64 { return uint64(pageID)*0x9e3779b97f4a7c15 + 0x4c5244 }
