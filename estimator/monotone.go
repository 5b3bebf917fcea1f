package estimator

import (
	"math"
	"slices"

	"github.com/revisit-dev/revisit/series"
)

// The monotone projection (docs/methods.md#monotone): an estimate of a
// distribution function need not be one. M6's G_6(y_n) = Z(y_n)/W(y_n) is
// a ratio per bin, so on sparse or clustered captures it goes up and down
// (on a real archive's captures, 560 decreasing steps, the largest −0.63),
// and F_U recovered from a derivative (RecoverF) may rise and fall back
// to 0. What is drawn, what F_U is recovered from and what a verdict is
// taken on is the nearest distribution function instead: the weighted
// least-squares non-decreasing fit of the values, clipped to [0, 1]. The
// raw values stay in estimates.parquet and in replay's errors against the
// truth (the paper's tables).

// Isotonic is the weighted least-squares non-decreasing fit of y (isotonic
// regression):
//
//	z = argmin_{z_1 ≤ … ≤ z_n} Σ_i w_i (y_i − z_i)²,
//
// by pool-adjacent-violators (PAVA): scan left to right keeping blocks of
// pooled points with their weighted mean; when a block's mean is below
// the previous block's, merge the two, repeatedly. Every z_i is then the
// weighted mean of its block, z_i = max_{j ≤ i} min_{k ≥ i} ȳ_{j…k} (the
// min–max formula). O(n).
//
// w nil means equal weights. Points with weight ≤ 0 or a NaN value take no
// part in the fit; each gets the fitted value of the nearest fitted point
// before it, and points before the first fitted one keep their value,
// raised to the running maximum and lowered to the first fitted value
// (NaN: that value), so that z is non-decreasing. With no fitted point
// at all, z is y.
func Isotonic(y []float64, w []float64) []float64 {
	n := len(y)
	z := make([]float64, n)
	weight := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	type block struct {
		sw, swy float64 // Σ w, Σ w·y
		first   int     // index in idx of the block's first point
	}
	idx := make([]int, 0, n) // the fitted points
	var bs []block
	for i, v := range y {
		wi := weight(i)
		if !(wi > 0) || math.IsNaN(v) || math.IsInf(wi, 0) {
			continue
		}
		idx = append(idx, i)
		bs = append(bs, block{sw: wi, swy: wi * v, first: len(idx) - 1})
		for len(bs) > 1 {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			if a.swy/a.sw <= b.swy/b.sw {
				break
			}
			bs = bs[:len(bs)-1]
			bs[len(bs)-1] = block{sw: a.sw + b.sw, swy: a.swy + b.swy, first: a.first}
		}
	}
	if len(idx) == 0 {
		copy(z, y)
		return z
	}
	for k, b := range bs {
		end := len(idx)
		if k+1 < len(bs) {
			end = bs[k+1].first
		}
		m := b.swy / b.sw
		for _, i := range idx[b.first:end] {
			z[i] = m
		}
	}
	fitted := func(i int) bool {
		return weight(i) > 0 && !math.IsNaN(y[i]) && !math.IsInf(weight(i), 0)
	}
	first := idx[0]
	run := math.Inf(-1)
	for i := 0; i < first; i++ { // before the first fitted point
		v := y[i]
		if math.IsNaN(v) {
			v = z[first]
		}
		run = max(run, v)
		z[i] = min(run, z[first])
	}
	for i := first + 1; i < n; i++ {
		if !fitted(i) {
			z[i] = z[i-1]
		}
	}
	return z
}

// MonotoneCDF is the projection of an estimate c onto the distribution
// functions on its grid: Isotonic(c.P, w) clipped to [0, 1] (clipping the
// unconstrained isotonic fit gives the least-squares fit under the box
// constraints too: the fit is a step function of block means, and a block
// mean outside [0, 1] moves to the bound nearest). w is the evidence
// behind each value (nil: equal weights). An estimate undefined
// everywhere (NaN) is returned as is.
func MonotoneCDF(c series.CDF, w []int64) series.CDF {
	if w == nil || len(w) != len(c.P) {
		// equal weights: values already a distribution function (no NaN,
		// in [0, 1], not −0, non-decreasing) are their own fit, each a
		// block of one, 1·y/1 = y; a copy of them saves the fit
		// (Poisson baselines' exponentials, G-M4's ECDF)
		if isDistribution(c.P) {
			c.P = slices.Clone(c.P)
			return c
		}
	}
	var wf []float64
	if w != nil && len(w) == len(c.P) {
		wf = make([]float64, len(w))
		for i, v := range w {
			wf[i] = float64(v)
		}
	}
	p := Isotonic(c.P, wf)
	for i, v := range p {
		if !math.IsNaN(v) {
			p[i] = min(1, max(0, v))
		}
	}
	c.P = p
	return c
}

// isDistribution: p is non-decreasing, within [0, 1], without NaN or −0
// (which clipping makes +0).
func isDistribution(p []float64) bool {
	prev := 0.0
	for _, v := range p {
		if !(v >= prev && v <= 1) || math.Signbit(v) {
			return false
		}
		prev = v
	}
	return true
}

// Monotone is est with every row projected onto a distribution function
// (MonotoneCDF, weighted by the row's Evidence when it has one), and the
// F_U rows recovered from G_U (a Recoverable method's) recovered again
// from the projected G_U with opt, at the bin midpoints for bin means
// (BinMeans), then projected themselves. A recovery that fails on the
// projection gives an undefined F_U with the error as its note; a
// recovered one says its mean in unitName (Config.UnitName). est is not
// modified.
func Monotone(est []Estimate, opt RecoverOptions, unitName string) []Estimate {
	out := make([]Estimate, len(est))
	var reg Registry
	for i := range est {
		e := est[i]
		e.CDF = MonotoneCDF(e.CDF, e.Evidence)
		out[i] = e
	}
	for i := range out {
		e := &out[i]
		d, ok := reg.Lookup(e.Method)
		if e.Kind != KindF || !ok || !d.Recoverable {
			continue
		}
		var g *Estimate
		for k := range out {
			if out[k].Kind == KindG && out[k].Method == e.Method && out[k].Sampler == e.Sampler && out[k].PageID == e.PageID {
				g = &out[k]
				break
			}
		}
		if g == nil {
			continue
		}
		recover := RecoverF
		if g.BinMeans {
			recover = recoverMidpoints
		}
		rec, err := recover(g.CDF, opt)
		if err != nil {
			p := make([]float64, len(e.CDF.X))
			for k := range p {
				p[k] = math.NaN()
			}
			e.CDF.P, e.Rate, e.H, e.Note = p, math.NaN(), rec.H, err.Error()
			continue
		}
		e.CDF = MonotoneCDF(rec.F, nil)
		e.CDF.Method = e.Method
		e.Rate, e.H = 1/rec.MeanU, rec.H
		e.Note = durationNote("E[U]", rec.MeanU, unitName)
	}
	return out
}
