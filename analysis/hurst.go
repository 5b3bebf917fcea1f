package analysis

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// Hurst-estimator names, as they appear in tables.
const (
	HurstACF    = "ACF power law"
	HurstRS     = "R/S (Anis–Lloyd)"
	HurstAggVar = "aggregated variance"
	HurstDFA    = "DFA-1"
	HurstGPH    = "GPH periodogram"
	HurstLW     = "local Whittle"
)

// ReliedHurst are the estimators the report relies on: validated on exact
// FGN of H = 0.5, 0.7, 0.9 at n = 2¹⁶ to within ±0.05 (hurst_test.go).
// The others are reported for comparison.
var ReliedHurst = []string{HurstDFA, HurstLW}

// MinHurstLen is the shortest interval series (2⁷ = 128 intervals) on
// which Hurst reports an H: the scale-based estimators regress over block
// sizes 16…n/4 (R/S, DFA) or 4…n/10 (aggregated variance), which below
// 128 leaves one octave or less, and the periodogram ones use about √n
// frequencies. Shorter series get no number and the note "too few".
const MinHurstLen = 128

// HurstEstimate is one estimator's H with its standard error and a 95 %
// interval H ± 1.96·SE. When there is no valid H, H, SE, Lo and Hi are NaN
// and Note says why: too few intervals (fewer than MinHurstLen), or an
// estimate outside [0, 1], which is no Hurst exponent of a stationary
// series (e.g. H(ACF) = 1.28 on white noise, whose few positive ρ(k) make a
// spurious rising power law); the estimate is then kept in Raw.
type HurstEstimate struct {
	Method string
	H, SE  float64
	Lo, Hi float64
	Points int // scales or frequencies used
	Raw    float64
	Note   string
}

// estimate is a HurstEstimate, flagged (H = NaN, the value in Raw and
// Note) when h is outside [0, 1].
func estimate(method string, h, se float64, points int) HurstEstimate {
	e := HurstEstimate{Method: method, H: h, SE: se, Lo: h - 1.96*se, Hi: h + 1.96*se, Points: points, Raw: h}
	if h < 0 || h > 1 {
		n := math.NaN()
		e.H, e.SE, e.Lo, e.Hi = n, n, n, n
		e.Note = fmt.Sprintf("H = %.2f outside [0, 1]: not a valid Hurst exponent", h)
	}
	return e
}

func nanEstimate(method string) HurstEstimate {
	n := math.NaN()
	return HurstEstimate{Method: method, H: n, SE: n, Lo: n, Hi: n, Raw: n}
}

// Hurst runs every estimator on x (the interval sequence): the ACF power
// law (lags 1…maxLag), R/S, aggregated variance, DFA-1, GPH and local
// Whittle. Series shorter than MinHurstLen give no estimate (NaN, noted
// "too few"); estimates outside [0, 1] are flagged (see HurstEstimate).
func Hurst(x []float64, maxLag int) []HurstEstimate {
	methods := []string{HurstACF, HurstRS, HurstAggVar, HurstDFA, HurstGPH, HurstLW}
	if len(x) < MinHurstLen {
		out := make([]HurstEstimate, len(methods))
		for i, m := range methods {
			out[i] = nanEstimate(m)
			out[i].Note = tooFew(len(x), MinHurstLen)
		}
		return out
	}
	return hurstWith(x, ACF(x, maxLag))
}

// hurstWith is Hurst of x (at least MinHurstLen values) with its ACF rho
// already computed, and one periodogram shared by GPH and local Whittle:
// the same numbers, without computing either twice.
func hurstWith(x, rho []float64) []HurstEstimate {
	pl := FitACFPowerLaw(rho)
	lam, per := periodogram(x)
	return []HurstEstimate{estimate(HurstACF, pl.H, pl.SE, pl.Lags),
		RescaledRange(x), AggregatedVariance(x), DFA(x), gph(len(x), lam, per), localWhittle(len(x), lam, per)}
}

// logScales returns about k integer scales spaced evenly in log between lo
// and hi (inclusive), without repeats.
func logScales(lo, hi, k int) []int {
	if hi < lo {
		return nil
	}
	var s []int
	for i := 0; i < k; i++ {
		v := int(math.Round(float64(lo) * math.Pow(float64(hi)/float64(lo), float64(i)/float64(k-1))))
		if len(s) == 0 || v > s[len(s)-1] {
			s = append(s, v)
		}
	}
	return s
}

// RescaledRange is the R/S estimator with the Anis–Lloyd small-sample
// correction. For block sizes m (16 … n/4, log-spaced) the series is cut
// into ⌊n/m⌋ blocks; in each, R is the range of the mean-adjusted partial
// sums and S the standard deviation (divisor m); (R/S)(m) is their mean.
// Under i.i.d. data E[R/S](m) = ((m−½)/m) · Γ((m−1)/2)/(√π Γ(m/2)) ·
// Σ_{i=1}^{m−1} √((m−i)/i) (Anis & Lloyd 1976, Peters' factor), so
// H = ½ + the OLS slope of ln(R/S)(m) − ln E[R/S](m) on ln m; SE is that
// slope's OLS standard error (it ignores the dependence between scales).
func RescaledRange(x []float64) HurstEstimate {
	n := len(x)
	var lx, ly []float64
	for _, m := range logScales(16, n/4, 20) {
		blocks := n / m
		rs, cnt := 0.0, 0
		for b := 0; b < blocks; b++ {
			seg := x[b*m : (b+1)*m]
			mean := sum(seg) / float64(m)
			cum, lo, hi, ss := 0.0, 0.0, 0.0, 0.0
			for _, v := range seg {
				d := v - mean
				cum += d
				lo = min(lo, cum)
				hi = max(hi, cum)
				ss += d * d
			}
			s := math.Sqrt(ss / float64(m))
			if s > 0 {
				rs += (hi - lo) / s
				cnt++
			}
		}
		if cnt == 0 {
			continue
		}
		lx = append(lx, math.Log(float64(m)))
		ly = append(ly, math.Log(rs/float64(cnt))-math.Log(anisLloyd(m)))
	}
	if len(lx) < 3 {
		return nanEstimate(HurstRS)
	}
	l := ols(lx, ly)
	return estimate(HurstRS, 0.5+l.slope, l.se, len(lx))
}

// anisLloyd is E[R/S](m) for i.i.d. normal data with Peters' (m−½)/m factor.
func anisLloyd(m int) float64 {
	fm := float64(m)
	s := 0.0
	for i := 1; i < m; i++ {
		s += math.Sqrt((fm - float64(i)) / float64(i))
	}
	lg1, _ := math.Lgamma((fm - 1) / 2)
	lg2, _ := math.Lgamma(fm / 2)
	return (fm - 0.5) / fm * math.Exp(lg1-lg2) / math.Sqrt(math.Pi) * s
}

// AggregatedVariance is the aggregated-variance estimator: the series is
// averaged over non-overlapping blocks of size m (4 … n/10, log-spaced,
// so at least 10 blocks), the sample variance of the block means behaves
// as m^{2H−2}, and H = 1 + β/2 with β the OLS slope of ln Var on ln m; SE
// = SE(β)/2. It is known to be biased downward for strong dependence
// (the block means are centred on the sample mean).
func AggregatedVariance(x []float64) HurstEstimate {
	n := len(x)
	var lx, ly []float64
	for _, m := range logScales(4, n/10, 20) {
		blocks := n / m
		means := make([]float64, blocks)
		for b := range means {
			means[b] = sum(x[b*m:(b+1)*m]) / float64(m)
		}
		mu := sum(means) / float64(blocks)
		v := 0.0
		for _, a := range means {
			v += (a - mu) * (a - mu)
		}
		v /= float64(blocks - 1)
		if v > 0 {
			lx = append(lx, math.Log(float64(m)))
			ly = append(ly, math.Log(v))
		}
	}
	if len(lx) < 3 {
		return nanEstimate(HurstAggVar)
	}
	l := ols(lx, ly)
	return estimate(HurstAggVar, 1+l.slope/2, l.se/2, len(lx))
}

// DFA is detrended fluctuation analysis of order 1: the profile
// Y_t = Σ_{i≤t} (x_i − x̄) is cut into boxes of size s (16 … n/4,
// log-spaced; boxes taken from both ends so no data is left out), a least
// squares line is removed in each box, and F(s) is the root mean square of
// the residuals. F(s) ∝ s^H for fractional Gaussian noise; H is the OLS
// slope of ln F on ln s and SE its OLS standard error.
func DFA(x []float64) HurstEstimate {
	return dfa(x, dfaScales(len(x)), make([]float64, len(x)))
}

// dfaScales are DFA's box sizes for n values: 16 … n/4, log-spaced.
func dfaScales(n int) []int { return logScales(16, n/4, 20) }

// dfa is DFA of x on the box sizes scales (dfaScales(len(x))), its
// profile built in y (len(x) values): DFASurrogateP runs it on many
// shuffles of one series without computing the scales or allocating again.
func dfa(x []float64, scales []int, y []float64) HurstEstimate {
	n := len(x)
	mean := sum(x) / float64(n)
	c := 0.0
	for i, v := range x {
		c += v - mean
		y[i] = c
	}
	lx, ly := make([]float64, 0, len(scales)), make([]float64, 0, len(scales))
	for _, s := range scales {
		boxes := n / s
		fs := float64(s)
		// t = 0…s−1: Σt = s(s−1)/2, centred Σ(t − t̄)² = s(s²−1)/12.
		tbar := (fs - 1) / 2
		stt := fs * (fs*fs - 1) / 12
		rss := 0.0
		box := func(seg []float64) {
			sy, sty, syy := 0.0, 0.0, 0.0
			for t, v := range seg {
				sy += v
				sty += float64(t) * v
				syy += v * v
			}
			ybar := sy / fs
			cty := sty - fs*tbar*ybar
			cyy := syy - fs*ybar*ybar
			r := cyy - cty*cty/stt
			if r > 0 {
				rss += r
			}
		}
		for b := 0; b < boxes; b++ {
			box(y[b*s : (b+1)*s])
		}
		if n%s != 0 {
			for b := 0; b < boxes; b++ {
				box(y[n-(b+1)*s : n-b*s])
			}
			boxes *= 2
		}
		f := math.Sqrt(rss / float64(boxes*s))
		if f > 0 {
			lx = append(lx, math.Log(fs))
			ly = append(ly, math.Log(f))
		}
	}
	if len(lx) < 3 {
		return nanEstimate(HurstDFA)
	}
	l := ols(lx, ly)
	return estimate(HurstDFA, l.slope, l.se, len(lx))
}

// periodogram returns I(λ_j) = |Σ_t (x_t − x̄) e^{−iλ_j t}|² / (2πN) and
// λ_j = 2πj/N for j = 1…bandwidth(len(x), N/2): the frequencies GPH and
// local Whittle use, not all N/2 of them (at N = 4·10⁶ that is 19,600
// values, not 2·10⁶ each). To keep the FFT fast, the series is
// truncated to its longest prefix whose length N has no prime factor above
// 5 (this drops under 4 % of a series of length ≥ 64).
func periodogram(x []float64) (lam, per []float64) {
	keep := bandwidth(len(x), math.MaxInt)
	n := len(x)
	for !smooth(n) {
		n--
	}
	x = x[:n]
	mean := sum(x) / float64(n)
	d := make([]float64, n)
	for i, v := range x {
		d[i] = v - mean
	}
	co := fourier.NewFFT(n).Coefficients(nil, d)
	keep = min(keep, n/2)
	lam, per = make([]float64, 0, keep), make([]float64, 0, keep)
	for j := 1; j <= keep; j++ {
		c := co[j]
		lam = append(lam, 2*math.Pi*float64(j)/float64(n))
		per = append(per, (real(c)*real(c)+imag(c)*imag(c))/(2*math.Pi*float64(n)))
	}
	return lam, per
}

func smooth(n int) bool {
	for _, p := range []int{2, 3, 5} {
		for n%p == 0 {
			n /= p
		}
	}
	return n == 1
}

// bandwidth is the number of Fourier frequencies the semiparametric
// estimators use, m = ⌊N^0.65⌋ (at N = 2¹⁶: 1,351).
func bandwidth(n, have int) int {
	m := int(math.Pow(float64(n), 0.65))
	if m > have {
		m = have
	}
	return m
}

// GPH is the Geweke–Porter-Hudak log-periodogram estimator: the OLS slope
// of ln I(λ_j) on −ln(4 sin²(λ_j/2)) over the first m = ⌊N^0.65⌋ Fourier
// frequencies estimates d, and H = d + ½. SE is the asymptotic
// π/√(24m) (Robinson 1995).
func GPH(x []float64) HurstEstimate {
	lam, per := periodogram(x)
	return gph(len(x), lam, per)
}

// gph is GPH of n values with periodogram (lam, per).
func gph(n int, lam, per []float64) HurstEstimate {
	m := bandwidth(n, len(lam))
	var lx, ly []float64
	for j := 0; j < m; j++ {
		if per[j] > 0 {
			s := math.Sin(lam[j] / 2)
			lx = append(lx, -math.Log(4*s*s))
			ly = append(ly, math.Log(per[j]))
		}
	}
	if len(lx) < 3 {
		return nanEstimate(HurstGPH)
	}
	l := ols(lx, ly)
	return estimate(HurstGPH, l.slope+0.5, math.Pi/math.Sqrt(24*float64(len(lx))), len(lx))
}

// LocalWhittle is Robinson's (1995) Gaussian semiparametric estimator:
// d̂ minimizes R(d) = ln((1/m) Σ_j λ_j^{2d} I(λ_j)) − (2d/m) Σ_j ln λ_j over
// the first m = ⌊N^0.65⌋ Fourier frequencies, d ∈ [−0.49, 0.99], and
// H = d̂ + ½. SE is the asymptotic 1/(2√m).
func LocalWhittle(x []float64) HurstEstimate {
	lam, per := periodogram(x)
	return localWhittle(len(x), lam, per)
}

// localWhittle is LocalWhittle of n values with periodogram (lam, per).
func localWhittle(n int, lam, per []float64) HurstEstimate {
	m := bandwidth(n, len(lam))
	if m < 3 {
		return nanEstimate(HurstLW)
	}
	f, errBound := whittleObjective(lam[:m], per[:m])
	d, _, _ := maximizeConcave1D(f, -0.49, 0.99, 148, errBound)
	return estimate(HurstLW, d+0.5, 1/(2*math.Sqrt(float64(m))), m)
}

// LocalWhittleBand is local Whittle on the Fourier frequencies λ_j with
// j0 < j ≤ m = ⌊N^0.65⌋ only (trimmed local Whittle, Robinson 1995): the
// frequencies below, where a smoothing or a trend removed has changed
// the spectrum, are left out. Its SE is 1/(2√Σ_j (ν_j − ν̄)²) over the
// band, ν_j = ln j — the inverse square root of the objective's Fisher
// information, which is the asymptotic 1/(2√m) for the full band (there
// Σ(ν_j − ν̄)² ≈ m) and larger for a trimmed one. j0 = 0 is the full band
// with this finite-sample SE; fewer than 8 frequencies in the band give
// no estimate.
func LocalWhittleBand(x []float64, j0 int) HurstEstimate {
	lam, per := periodogram(x)
	m := bandwidth(len(x), len(lam))
	j0 = max(0, j0)
	if m-j0 < 8 {
		return nanEstimate(HurstLW)
	}
	f, errBound := whittleObjective(lam[j0:m], per[j0:m])
	d, _, _ := maximizeConcave1D(f, -0.49, 0.99, 148, errBound)
	var mean, ss float64
	for j := j0 + 1; j <= m; j++ {
		mean += math.Log(float64(j))
	}
	mean /= float64(m - j0)
	for j := j0 + 1; j <= m; j++ {
		v := math.Log(float64(j)) - mean
		ss += v * v
	}
	return estimate(HurstLW, d+0.5, 1/(2*math.Sqrt(ss)), m-j0)
}

// whittleObjective is −R(d) of local Whittle on the frequencies lam with
// periodogram per (the first m of each), and a bound of its rounding
// error (whittleErr).
func whittleObjective(lam, per []float64) (f func(float64) float64, errBound float64) {
	m := len(lam)
	ll := make([]float64, m)
	ml := 0.0
	for j := 0; j < m; j++ {
		ll[j] = math.Log(lam[j])
		ml += ll[j]
	}
	ml /= float64(m)
	r := func(d float64) float64 {
		s := 0.0
		for j := 0; j < m; j++ {
			s += math.Exp(2*d*ll[j]) * per[j]
		}
		return math.Log(s/float64(m)) - 2*d*ml
	}
	return func(d float64) float64 { return -r(d) }, whittleErr(ll, per, ml)
}

// whittleErr bounds the rounding error of localWhittle's −R(d) for d in
// [−0.49, 0.99] (R is convex in d, a log-sum-exp of functions linear in
// d minus a linear one, so −R is concave: maximizeConcave1D applies).
// With u = 2⁻⁵³, L = max |ln λ_j|, P = max |ln I(λ_j)| over I > 0: each
// term e^{2d ln λ_j} I(λ_j) carries a relative error of about (2L + 3)u
// (the product 2d ln λ_j, Exp, the product), their sum of m positive
// terms (m − 1)u more, so ln(s/m) is off by (m + 2L + 4)u plus an ulp of
// |ln(s/m)| ≤ ln m + P + 2L; 2d·m̄ and the difference an ulp each of
// numbers below |ln(s/m)| + 2|m̄|. The bound returned is 4 times the
// sum. +Inf (no shortcut: every grid point is evaluated) when an I is
// so small or large that a term could underflow or overflow.
func whittleErr(ll, per []float64, ml float64) float64 {
	const u = 0x1p-53
	l, p := 0.0, 0.0
	for j := range ll {
		l = max(l, math.Abs(ll[j]))
		if per[j] > 0 {
			p = max(p, math.Abs(math.Log(per[j])))
		}
	}
	if p > 500 || l > 50 {
		return math.Inf(1)
	}
	m := float64(len(ll))
	lg := math.Log(m) + p + 2*l
	return 4 * u * (m + 2*l + 16 + 4*(lg+2*math.Abs(ml)))
}
