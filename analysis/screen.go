package analysis

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// PageStats are the per-page statistics of SPEC §5, in the analysis unit.
type PageStats struct {
	PageID    int64
	Source    string
	SourceID  string // the page's id in its source (series.Page.SourceID)
	Title     string
	Group     string
	Updates   int     // n, the number of updates
	Intervals int     // n − 1
	Mean      float64 // E[U] = Σ U_i / (n−1)
	Var       float64 // Var[U], sample variance with divisor n−2 (unbiased); NaN below 2 intervals
	CoV       float64 // v = sd(U)/E[U]; 1 for exponential intervals
	Lifetime  float64 // T = u_last − u_first
	First     int64   // Unix seconds
	Last      int64
}

// Stats computes n, E[U], Var[U], v and T for one page (SPEC §5) with
// intervals in unit seconds. Pages with fewer than 3 updates have NaN
// variance and CoV (fewer than 2 intervals).
func Stats(p *series.Page, unit float64) PageStats {
	return statsOf(p, unit, transform.Intervals(p.Updates, unit))
}

// statsOf is Stats with the page's intervals u (transform.Intervals in
// unit) already computed, for a caller that needs them as well.
func statsOf(p *series.Page, unit float64, u []float64) PageStats {
	s := PageStats{
		PageID: p.ID, Source: p.Source, SourceID: p.SourceID, Title: p.Title, Group: p.Group,
		Updates: len(p.Updates), Intervals: len(u),
		Lifetime: transform.Lifetime(p.Updates, unit),
		Mean:     math.NaN(), Var: math.NaN(), CoV: math.NaN(),
	}
	if len(p.Updates) > 0 {
		s.First, s.Last = p.Updates[0], p.Updates[len(p.Updates)-1]
	}
	if len(u) > 0 {
		s.Mean = sum(u) / float64(len(u))
	}
	if len(u) > 1 {
		v := 0.0
		for _, x := range u {
			v += (x - s.Mean) * (x - s.Mean)
		}
		s.Var = v / float64(len(u)-1)
		s.CoV = math.Sqrt(s.Var) / s.Mean
	}
	return s
}

// LillieforsMaxN is the largest sample size simulated at its own n by
// LillieforsExp; larger samples use the null distribution of √n·D
// simulated at this n (√n·D converges in law, and at n = 5,000 its
// quantiles are within Monte-Carlo noise of the limit).
const LillieforsMaxN = 5000

// LillieforsExp is the Kolmogorov–Smirnov test of x against the
// exponential law with its rate fitted from x (λ̂ = 1/x̄), with a p-value
// that accounts for the fitting (Lilliefors' idea, by Monte Carlo): the
// null distribution of D is simulated by drawing reps samples of the same
// size from the unit exponential (the test is scale invariant), refitting
// λ on each and computing D; p = (1 + #{D_sim ≥ D}) / (reps + 1). Samples
// above LillieforsMaxN compare √n·D instead (see there). All draws come
// from r. It returns D and p; NaN for fewer than 3 values.
func LillieforsExp(x []float64, reps int, r *rand.Rand) (d, p float64) {
	if len(x) < 3 || reps < 1 {
		return math.NaN(), math.NaN()
	}
	d, stat, nsim := lillieforsStat(x)
	return d, lillieforsP(stat, simulateLillieforsNull(nsim, reps, r))
}

// lillieforsStat returns D of x against its fitted exponential, √n·D and
// the sample size nsim = min(n, LillieforsMaxN) whose null distribution
// √n·D is compared with.
func lillieforsStat(x []float64) (d, stat float64, nsim int) {
	s := slices.Clone(x)
	sortPositive(s, nil) // = slices.Sort(s); O(n) on intervals (≥ 0)
	d = ksExpFitted(s)
	return d, d * math.Sqrt(float64(len(s))), min(len(s), LillieforsMaxN)
}

// simulateLillieforsNull draws reps unit-exponential samples of size nsim
// from r and returns their √nsim·D against the refitted exponential,
// sorted.
func simulateLillieforsNull(nsim, reps int, r *rand.Rand) []float64 {
	buf := make([]float64, nsim)
	scratch := make([]float64, nsim)
	null := make([]float64, reps)
	for i := range null {
		for j := range buf {
			buf[j] = r.ExpFloat64()
		}
		sortPositive(buf, scratch) // = slices.Sort(buf), in O(n)
		null[i] = ksExpFitted(buf) * math.Sqrt(float64(nsim))
	}
	slices.Sort(null)
	return null
}

// lillieforsP is (1 + #{null ≥ stat}) / (len(null) + 1) for sorted null
// (with a relative tolerance of 10⁻¹² so that rounding cannot split ties).
func lillieforsP(stat float64, null []float64) float64 {
	i := sort.SearchFloat64s(null, stat*(1-1e-12))
	return float64(1+len(null)-i) / float64(len(null)+1)
}

// StephensExp is Stephens' (1974) modified KS statistic for the
// exponential law with estimated mean, T = (D − 0.2/n)(√n + 0.26 + 0.5/√n):
// its null distribution is nearly the same for every n ≥ 5 (upper 5 %
// point 1.094, 1 % point 1.308), which lets LillieforsNull serve every
// sample size from a small grid of simulated nulls.
func StephensExp(d float64, n int) float64 {
	fn := float64(n)
	sn := math.Sqrt(fn)
	return (d - 0.2/fn) * (sn + 0.26 + 0.5/sn)
}

// stephensD inverts StephensExp: the D of a sample of size n whose
// modified statistic is t.
func stephensD(t float64, n int) float64 {
	fn := float64(n)
	sn := math.Sqrt(fn)
	return t/(sn+0.26+0.5/sn) + 0.2/fn
}

// lillieforsExactMax is the largest sample size LillieforsNull simulates
// at its own n; larger sizes use the grid lillieforsGrid.
const lillieforsExactMax = 32

// lillieforsGrid are the sample sizes above lillieforsExactMax at which
// LillieforsNull simulates null distributions: 32·2^{k/2} (32, 45, 64,
// 91, …, 4096), then LillieforsMaxN.
var lillieforsGrid = func() []int {
	var g []int
	for k := 0; ; k++ {
		n := int(math.Round(lillieforsExactMax * math.Pow(2, float64(k)/2)))
		if n >= LillieforsMaxN {
			return append(g, LillieforsMaxN)
		}
		g = append(g, n)
	}
}()

// LillieforsNull holds simulated null distributions of the Lilliefors
// test (LillieforsExp) shared by every page, so that the screen does not
// simulate one per page, nor one per distinct sample size (up to 5,000 of
// them on a large corpus). Sizes n ≤ 32 get their own null. Larger sizes
// use Stephens' modified statistic T = StephensExp(D, n), whose null law
// hardly depends on n (its median drifts from 0.686 at n = 50 to 0.703
// at n = 5,000, its upper tail by less than MC error): the nulls are
// simulated at the grid sizes n_k = 32·2^{k/2} (and LillieforsMaxN), and
// for n_k < n < n_{k+1} the p-value is interpolated linearly in 1/√n
// between p_k = P(T_{n_k} ≥ T) and p_{k+1}; at a grid size it is the
// plain Monte-Carlo p-value. Sizes above LillieforsMaxN use the null at
// LillieforsMaxN. The null for size m is drawn from model.NewRand(seed,
// LillieforsStream(m)), so a p-value depends only on the page's
// intervals, the seed and reps, not on which pages came before nor on
// which goroutine asked first. Memory: 8·reps bytes per simulated size
// (at most 32 + 16). Safe for concurrent use.
type LillieforsNull struct {
	seed      uint64
	reps      int
	exact     [lillieforsExactMax + 1]lazyNull
	grid      []lazyNull // one per lillieforsGrid entry
	simulated atomic.Int64
}

type lazyNull struct {
	once sync.Once
	null []float64
}

// NewLillieforsNull returns an empty cache of null distributions of reps
// replicates each, drawn with seed.
func NewLillieforsNull(seed uint64, reps int) *LillieforsNull {
	return &LillieforsNull{seed: seed, reps: reps, grid: make([]lazyNull, len(lillieforsGrid))}
}

// LillieforsStream is the random stream (model.NewRand's second argument)
// of the null distribution for samples of size n: n is first capped at
// LillieforsMaxN, as the simulation is.
func LillieforsStream(n int) uint64 { return 0x1111ef<<32 | uint64(min(n, LillieforsMaxN)) }

// Simulated is the number of null distributions simulated so far.
func (l *LillieforsNull) Simulated() int { return int(l.simulated.Load()) }

// nullOf returns the null distribution (sorted √m·D) for size m, simulating it once.
func (l *LillieforsNull) nullOf(z *lazyNull, m int) []float64 {
	z.once.Do(func() {
		z.null = simulateLillieforsNull(m, l.reps, model.NewRand(l.seed, LillieforsStream(m)))
		l.simulated.Add(1)
	})
	return z.null
}

// Test is the Lilliefors test of x with the shared nulls: D of x against
// its fitted exponential and the p-value described at LillieforsNull.
// For n ≤ 32 and at the grid sizes, p equals LillieforsExp(x, reps,
// model.NewRand(seed, LillieforsStream(n))) bit for bit.
func (l *LillieforsNull) Test(x []float64) (d, p float64) {
	if len(x) < 3 || l.reps < 1 {
		return math.NaN(), math.NaN()
	}
	d, stat, _ := lillieforsStat(x)
	return d, l.pValue(d, stat, len(x))
}

// pValue is Test's p-value of a sample of size n with distance d and
// √n·d = stat.
func (l *LillieforsNull) pValue(d, stat float64, n int) float64 {
	if n <= lillieforsExactMax {
		return lillieforsP(stat, l.nullOf(&l.exact[n], n))
	}
	k, found := slices.BinarySearch(lillieforsGrid, min(n, LillieforsMaxN))
	if found {
		m := lillieforsGrid[k]
		if m == n {
			return lillieforsP(stat, l.nullOf(&l.grid[k], m))
		}
		return l.gridP(StephensExp(d, n), k) // n > LillieforsMaxN
	}
	// lillieforsGrid[k−1] < n < lillieforsGrid[k] (k ≥ 1: the grid starts
	// at lillieforsExactMax < n).
	t := StephensExp(d, n)
	p0, p1 := l.gridP(t, k-1), l.gridP(t, k)
	a, b := 1/math.Sqrt(float64(lillieforsGrid[k-1])), 1/math.Sqrt(float64(lillieforsGrid[k]))
	w := (a - 1/math.Sqrt(float64(n))) / (a - b)
	return p0 + w*(p1-p0)
}

// gridP is P(T ≥ t) under the null simulated at grid size k: t mapped
// back to √m·D at m = lillieforsGrid[k].
func (l *LillieforsNull) gridP(t float64, k int) float64 {
	m := lillieforsGrid[k]
	return lillieforsP(stephensD(t, m)*math.Sqrt(float64(m)), l.nullOf(&l.grid[k], m))
}

// ksExpFitted is D of sorted s against the exponential with λ = 1/mean(s).
// It is ksSorted with F(x) = 1 − e^{−λx} written out (no closure call,
// plain comparisons instead of math.Max): the same arithmetic, so the same
// bits, at less cost in the Lilliefors simulation's inner loop.
func ksExpFitted(s []float64) float64 {
	lam := float64(len(s)) / sum(s)
	n := float64(len(s))
	d := 0.0
	for i, v := range s {
		f := -math.Expm1(-lam * v)
		if a := f - float64(i)/n; a > d {
			d = a
		}
		if b := float64(i+1)/n - f; b > d {
			d = b
		}
	}
	return d
}

// Defaults of the Poisson screen (ScreenOptions), which analyze's flags
// and run's configuration start from.
const (
	// DefaultScreenUpdates is K, SPEC §5's 100 updates (99 intervals): a
	// page with fewer says too little for the KS and Ljung–Box tests to
	// tell it from Poisson.
	DefaultScreenUpdates = 100
	// DefaultBand is SPEC §5's band |v − 1| ≤ 0.1 around the exponential's
	// coefficient of variation 1.
	DefaultBand = 0.1
	// DefaultMaxLag is the ACF's last lag: about the intervals of the
	// smallest page screened at DefaultScreenUpdates (99), so that every
	// lag has pairs on every screened page but the very smallest.
	DefaultMaxLag = 100
	// DefaultReps is 999 Monte-Carlo replicates of the Lilliefors test:
	// with p = (1 + #{D_sim ≥ D})/(reps + 1) the p-values are multiples of
	// 1/1000, so that Significance is one of them.
	DefaultReps = 999
)

// Significance is the level of the analysis's tests — the screen's KS
// and Ljung–Box (a page passes with p ≥ Significance), DFA-1 against its
// shuffled surrogates and the trend test (LRDLevel) — the conventional 5 %
// that the tables and Findings name as "p ≥ 0.05".
const Significance = 0.05

// ScreenOptions are the knobs of the Poisson screen (SPEC §5).
type ScreenOptions struct {
	MinUpdates int     // K: pages with at least this many updates are screened (DefaultScreenUpdates)
	Band       float64 // candidates have |v − 1| ≤ Band (DefaultBand)
	MaxLag     int     // ACF lags 1…MaxLag (DefaultMaxLag)
	Reps       int     // Monte-Carlo replicates of the Lilliefors test (DefaultReps)
	// Null, when set, supplies the Lilliefors null distributions (shared
	// across pages, with its own seed and replicates) instead of
	// simulating one per page from Check's r.
	Null *LillieforsNull
}

func (o *ScreenOptions) defaults() {
	if o.MinUpdates <= 0 {
		o.MinUpdates = DefaultScreenUpdates
	}
	if o.Band <= 0 {
		o.Band = DefaultBand
	}
	if o.MaxLag <= 0 {
		o.MaxLag = DefaultMaxLag
	}
	if o.Reps <= 0 {
		o.Reps = DefaultReps
	}
}

// Candidate is one screened page with its goodness-of-fit and dependence
// checks.
type Candidate struct {
	PageStats
	InBand   bool    // |v − 1| ≤ Band
	KS       float64 // D against the fitted exponential
	KSP      float64 // Lilliefors Monte-Carlo p-value
	Rho1     float64 // ρ(1)
	LjungQ   float64 // Ljung–Box Q on lags 1…min(20, MaxLag)
	LjungP   float64
	ACF      []float64 // ρ(0…MaxLag)
	PowerLaw PowerLaw
	Hurst    []HurstEstimate
	// Note lists the statistics left without a number and why ("KS: too
	// few (…)", "H (ACF): H = 1.28 outside [0, 1]…"); "" when all are there.
	Note string
}

// CandidateRow is a page in the CoV band as the screen_candidates table
// shows it: Check's numbers without the ACF and the Hurst estimators the
// table leaves out, so that the pass keeps about 150 bytes per page in the
// band, not Check's 1.5 KB.
type CandidateRow struct {
	PageID          int64
	Title           string
	Updates         int
	CoV             float64
	KS, KSP         float64
	Rho1, LjungP    float64
	HACF, HDFA, HLW float64 // H by the ACF power law, DFA-1, local Whittle
	Note            string
}

// Row is the candidate's screen_candidates row.
func (c *Candidate) Row() CandidateRow {
	return CandidateRow{PageID: c.PageID, Title: c.Title, Updates: c.Updates, CoV: c.CoV, KS: c.KS, KSP: c.KSP,
		Rho1: c.Rho1, LjungP: c.LjungP, HACF: c.HurstOf(HurstACF).H, HDFA: c.HurstOf(HurstDFA).H, HLW: c.HurstOf(HurstLW).H, Note: c.Note}
}

// Check runs the goodness-of-fit and dependence checks of SPEC §5 on one
// page's intervals u: the Lilliefors KS test against the fitted
// exponential, the ACF with its power-law fit, the Ljung–Box test and
// every Hurst estimator. The KS test needs the screen's K updates (at
// least K − 1 intervals, and 3); the Hurst estimators MinHurstLen
// intervals. Statistics without enough data, and H estimates outside
// [0, 1], are NaN and named in Note.
func Check(st PageStats, u []float64, opt ScreenOptions, r *rand.Rand) Candidate {
	opt.defaults()
	c := Candidate{PageStats: st, InBand: math.Abs(st.CoV-1) <= opt.Band}
	c.KS, c.KSP = ksTest(u, opt, r)
	c.ACF = ACF(u, opt.MaxLag)
	c.Rho1, c.LjungQ, c.LjungP = dependence(c.ACF, len(u), opt.MaxLag)
	c.PowerLaw = FitACFPowerLaw(c.ACF)
	if len(u) < MinHurstLen {
		c.Hurst = Hurst(u, opt.MaxLag) // every estimate NaN, "too few"
	} else {
		c.Hurst = hurstWith(u, c.ACF) // = Hurst(u, opt.MaxLag), the ACF not computed again
	}
	c.Note = screenNote(len(u), opt, c.Hurst)
	return c
}

// PageScreen is the part of Check written to page_stats for every
// screened page: the Lilliefors KS test, ρ(1), the Ljung–Box test on
// ρ(1…min(20, MaxLag)) and the two Hurst estimators the report relies on
// (ReliedHurst: DFA-1 and local Whittle) with their 95 % intervals. Each
// value is computed exactly as Check computes it (the same functions on
// the same intervals with the same options), so a page in the band has the
// same numbers in page_stats as in the screen tables. Note names the
// statistics left without a number, and why.
type PageScreen struct {
	KS, KSP        float64
	Rho1           float64
	LjungQ, LjungP float64
	DFA, LW        HurstEstimate
	LRD            LRDCheck // the long-memory verdict (LongMemory)
	Note           string
}

// screenPage is PageScreen of a page's intervals u: Check without the ACF
// power law and the Hurst estimators the report does not rely on.
func screenPage(u []float64, opt ScreenOptions, r *rand.Rand) PageScreen {
	opt.defaults()
	var s PageScreen
	s.KS, s.KSP = ksTest(u, opt, r)
	s.Rho1, s.LjungQ, s.LjungP = dependence(ACF(u, opt.MaxLag), len(u), opt.MaxLag)
	if len(u) < MinHurstLen {
		s.DFA, s.LW = nanEstimate(HurstDFA), nanEstimate(HurstLW)
		s.DFA.Note, s.LW.Note = tooFew(len(u), MinHurstLen), tooFew(len(u), MinHurstLen)
	} else {
		s.DFA, s.LW = DFA(u), LocalWhittle(u)
	}
	s.Note = screenNote(len(u), opt, []HurstEstimate{s.DFA, s.LW})
	return s
}

// Screen is the PageScreen part of the candidate's checks (the same
// numbers screenPage gives on its intervals).
func (c *Candidate) Screen(opt ScreenOptions) PageScreen {
	opt.defaults()
	s := PageScreen{KS: c.KS, KSP: c.KSP, Rho1: c.Rho1, LjungQ: c.LjungQ, LjungP: c.LjungP,
		DFA: c.HurstOf(HurstDFA), LW: c.HurstOf(HurstLW)}
	s.Note = screenNote(c.Intervals, opt, []HurstEstimate{s.DFA, s.LW})
	return s
}

// ksTest is the Lilliefors test of u for the screen: NaN below the
// screen's max(K − 1, 3) intervals; the null distribution from opt.Null
// when set, else simulated from r.
func ksTest(u []float64, opt ScreenOptions, r *rand.Rand) (d, p float64) {
	switch {
	case len(u) < max(opt.MinUpdates-1, 3):
		return math.NaN(), math.NaN()
	case opt.Null != nil:
		return opt.Null.Test(u)
	}
	return LillieforsExp(u, opt.Reps, r)
}

// dependence is ρ(1) and the Ljung–Box Q and p on lags 1…min(20, maxLag)
// of the ACF rho of n intervals.
func dependence(rho []float64, n, maxLag int) (rho1, q, p float64) {
	rho1 = math.NaN()
	if len(rho) > 1 {
		rho1 = rho[1]
	}
	q, p = LjungBox(rho, n, min(20, maxLag))
	return rho1, q, p
}

// screenNote names the statistics of n intervals left without a number:
// the KS test below max(K − 1, 3) intervals, the Hurst estimates hs below
// MinHurstLen ("H: too few …", once) or flagged (each with its note).
func screenNote(n int, opt ScreenOptions, hs []HurstEstimate) string {
	var notes []string
	if minKS := max(opt.MinUpdates-1, 3); n < minKS {
		notes = append(notes, "KS: "+tooFew(n, minKS))
	}
	if n < MinHurstLen {
		notes = append(notes, "H: "+tooFew(n, MinHurstLen))
	} else {
		for _, h := range hs {
			if h.Note != "" {
				notes = append(notes, h.Method+": "+h.Note)
			}
		}
	}
	return strings.Join(notes, "; ")
}

// HurstOf returns the estimate of the named method (NaN when absent).
func (c *Candidate) HurstOf(method string) HurstEstimate {
	for _, h := range c.Hurst {
		if h.Method == method {
			return h
		}
	}
	return nanEstimate(method)
}
