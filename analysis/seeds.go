package analysis

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Intervals over seeds (docs/methods.md#seeds). A replay with --seeds R
// crawls every page × sampler R times with independent streams r. For a
// method m (one sampler and kind), E_{m,r} is its mean error over the
// page set in seed r (the same pages for every method: the replayed
// pages, or the evidence pages; a page where m is undefined is left out
// of its mean). The tables report the mean of E_{m,r} over r with a 95%
// Student-t interval over the R values; two methods are compared by the
// paired differences D_r = E_{m,r} − E_{m',r}, and m beats m' only when
// the interval of D excludes 0 (below it); otherwise they are
// indistinguishable.

// Level is the confidence level of the intervals over seeds.
const Level = 0.95

// Interval is a mean over seeds with its Level Student-t interval
// [Lo, Hi]: Mean ± t_{(1+Level)/2, n−1} · s/√n, s the sample standard
// deviation (divisor n − 1) of the n finite values. With n < 2 Lo and Hi
// are NaN (no interval); with none, Mean is NaN too.
type Interval struct {
	Mean, Lo, Hi float64
	N            int // the values (seeds) it rests on
}

// TInterval is the Interval of the finite values of xs (NaN values, a
// seed where the error is undefined, are left out).
func TInterval(xs []float64) Interval {
	var v []float64
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			v = append(v, x)
		}
	}
	iv := Interval{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), N: len(v)}
	if len(v) == 0 {
		return iv
	}
	var sum float64
	for _, x := range v {
		sum += x
	}
	n := float64(len(v))
	iv.Mean = sum / n
	if len(v) < 2 {
		return iv
	}
	var ss float64
	for _, x := range v {
		ss += (x - iv.Mean) * (x - iv.Mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile((1 + Level) / 2)
	half := t * sd / math.Sqrt(n)
	iv.Lo, iv.Hi = iv.Mean-half, iv.Mean+half
	return iv
}

// Separated reports whether the interval excludes 0: the sign of its
// mean is then established (−1 below 0, +1 above), else 0.
func (iv Interval) Separated() int {
	switch {
	case iv.Lo > 0:
		return 1
	case iv.Hi < 0:
		return -1
	}
	return 0
}

// PairedDiff is the Interval of D_r = a_r − b_r over the seeds r where
// both are finite: the paired comparison of two methods' per-seed mean
// errors (a, b indexed by seed).
func PairedDiff(a, b []float64) Interval {
	n := min(len(a), len(b))
	d := make([]float64, 0, n)
	for r := range n {
		d = append(d, a[r]-b[r]) // NaN when either is
	}
	return TInterval(d)
}

// rangeKS picks a range's κ of a summary: its interval over seeds, the
// per-seed values E_{m,r}, and the per-page values (means over seeds).
type rangeKS func(MethodSummary) (iv Interval, perSeed, perPage []float64)

// defaultKS is κ on the default range (each page's x_max), meanKS on
// x ≤ 10·E[U].
func defaultKS(m MethodSummary) (Interval, []float64, []float64) { return m.KS, m.SeedKS, m.PageKS }
func meanKS(m MethodSummary) (Interval, []float64, []float64) {
	return m.KSMean, m.SeedKSMean, m.PageKSMean
}

// comparison is a method compared with its rival: the method of lowest
// mean κ (lowest), the rival, and the difference κ_method − κ_rival
// paired by seed (Seeds: PairedDiff over the seeds' means) and by page
// (Pages: the bootstrap of the pages, Bootstrap.Paired, each page's κ
// its mean over seeds).
type comparison struct {
	lowest, rival string
	seeds, pages  Interval
}

// versus compares method with its rival among ms (one sampler and kind,
// summarised together, so that their pages and bootstrap are shared):
// the method of lowest mean κ (by of), or, when method is that one, the
// runner-up. With no rival, rival is "" and the differences NaN.
func versus(ms []MethodSummary, method string, of rangeKS) comparison {
	nan := Interval{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	c := comparison{seeds: nan, pages: nan}
	var order []MethodSummary
	for _, m := range ms {
		if iv, _, _ := of(m); !math.IsNaN(iv.Mean) {
			order = append(order, m)
		}
	}
	if len(order) == 0 {
		return c
	}
	slices.SortStableFunc(order, func(a, b MethodSummary) int {
		x, _, _ := of(a)
		y, _, _ := of(b)
		return cmp.Compare(x.Mean, y.Mean)
	})
	c.lowest = order[0].Method
	var self, other *MethodSummary
	for i := range order {
		switch {
		case order[i].Method == method && self == nil:
			self = &order[i]
		case other == nil && (order[i].Method == c.lowest || method == c.lowest):
			other = &order[i]
		}
	}
	if self == nil || other == nil {
		return c
	}
	d := compare(*self, *other, of)
	d.lowest = c.lowest
	return d
}

// compare is the comparison of a with b (κ_a − κ_b on the range of), b
// its rival; a and b were summarised together (same sampler and kind).
func compare(a, b MethodSummary, of rangeKS) comparison {
	_, sa, pa := of(a)
	_, sb, pb := of(b)
	c := comparison{rival: b.Method, seeds: PairedDiff(sa, sb), pages: Interval{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}}
	if len(pa) == len(pb) && len(pa) > 0 {
		c.pages = a.Boot.Paired(pa, pb)
	}
	return c
}

// NegligibleKS is the smallest difference of κ (a KS distance) called a
// win: 0.01 percentage points. A difference an interval resolves but
// whose interval stays within it (M4 and M5 on constant delays differ by
// about 2·10⁻⁶, the same on every seed and page) is of no practical
// consequence: negligible, not "beats" (docs/methods.md#seeds).
const NegligibleKS = 1e-4

// Verdicts of a paired difference d = κ_method − κ_other by its 95 %
// interval (docs/methods.md#seeds): negative is better for an error.
const (
	VerdictBetter     = "better"            // the interval lies below 0 (and beyond NegligibleKS): method beats other
	VerdictWorse      = "worse"             // the interval lies above 0 (and beyond NegligibleKS): other beats method
	VerdictSame       = "indistinguishable" // the interval contains 0
	VerdictNegligible = "negligible"        // the interval excludes 0 but lies within ±NegligibleKS
	VerdictNone       = ""                  // no interval (one page and one seed)
)

// Verdict is the verdict of the paired difference whose interval is iv.
func (iv Interval) Verdict() string {
	switch {
	case math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi):
		return VerdictNone
	case (iv.Hi < 0 || iv.Lo > 0) && max(-iv.Lo, iv.Hi) < NegligibleKS:
		return VerdictNegligible
	case iv.Hi < 0:
		return VerdictBetter
	case iv.Lo > 0:
		return VerdictWorse
	}
	return VerdictSame
}

// Interval bases: what variation an interval covers.
const (
	OverPages = "pages" // the page bootstrap, each page its mean over seeds
	OverSeeds = "seeds" // the seeds' t-interval on the given pages (one page)
)

// decisive is the interval a comparison is judged by, and what it covers:
// over pages when there are two pages or more (it carries the seeds'
// variation inside each page's mean, docs/methods.md#seeds), else over
// the seeds of the one page, else none ("").
func (c comparison) decisive() (Interval, string) { return decisive(c.pages, c.seeds) }

// decisive picks, of an interval over pages and one over seeds of the
// same quantity, the one to judge and quote (comparison.decisive's rule).
func decisive(pages, seeds Interval) (Interval, string) {
	switch {
	case pages.N >= 2:
		return pages, OverPages
	case seeds.N >= 2:
		return seeds, OverSeeds
	}
	return Interval{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}, ""
}
