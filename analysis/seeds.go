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

// rangeKS picks a range's κ of a summary: its interval over seeds and
// the per-seed values E_{m,r}.
type rangeKS func(MethodSummary) (Interval, []float64)

// defaultKS is κ on the default range (each page's x_max), meanKS on
// x ≤ 10·E[U].
func defaultKS(m MethodSummary) (Interval, []float64) { return m.KS, m.SeedKS }
func meanKS(m MethodSummary) (Interval, []float64)    { return m.KSMean, m.SeedKSMean }

// versus compares method with its rival among ms (one sampler and kind):
// the method of lowest mean κ (by of), or, when method is that one, the
// runner-up. d is the paired difference κ_method − κ_rival over seeds
// (PairedDiff); lowest is the method of lowest mean κ. With no rival,
// rival is "" and d NaN.
func versus(ms []MethodSummary, method string, of rangeKS) (lowest, rival string, d Interval) {
	d = Interval{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	var order []MethodSummary
	for _, m := range ms {
		if iv, _ := of(m); !math.IsNaN(iv.Mean) {
			order = append(order, m)
		}
	}
	if len(order) == 0 {
		return "", "", d
	}
	slices.SortStableFunc(order, func(a, b MethodSummary) int {
		x, _ := of(a)
		y, _ := of(b)
		return cmp.Compare(x.Mean, y.Mean)
	})
	lowest = order[0].Method
	var self, other *MethodSummary
	for i := range order {
		switch {
		case order[i].Method == method && self == nil:
			self = &order[i]
		case other == nil && (order[i].Method == lowest || method == lowest):
			other = &order[i]
		}
	}
	if self == nil || other == nil {
		return lowest, "", d
	}
	_, a := of(*self)
	_, b := of(*other)
	return lowest, other.Method, PairedDiff(a, b)
}
