package schedule

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/revisit-dev/revisit/model"
)

// DefaultBoot is the resamples of the pages for a paired difference's
// interval when ValidateOptions.Boot is 0 (schedule's --boot): 2,000
// leave 50 resamples beyond each end of the 95 % percentile interval, so
// that its ends move little from one seed to another.
const DefaultBoot = 2000

// pair is the paired difference a − b of two rows' realised freshness
// per page (mean over the seeds), importance-weighted: at the first
// origin with its percentile-bootstrap interval over the pages (the same
// resamples for every pair: drawn from the first seed), and at each
// origin.
func (v *Validation) pair(a, b *ValidationRow, w []float64) Pair {
	p := Pair{A: a.Plan, B: b.Plan}
	for k := range a.page {
		d := diffMean(a.page[k], b.page[k], w, nil)
		p.AtOrigin = append(p.AtOrigin, d)
		if d > 0 {
			p.Ahead++
		}
	}
	p.Diff = p.AtOrigin[0]
	boot := v.Opt.Boot
	if boot <= 0 {
		boot = DefaultBoot
	}
	r := model.NewRand(v.Opt.Seeds[0], 0xb007)
	n := len(a.page[0])
	idx := make([]int, n)
	ds := make([]float64, boot)
	for j := range ds {
		for i := range idx {
			idx[i] = r.IntN(n)
		}
		ds[j] = diffMean(a.page[0], b.page[0], w, idx)
	}
	slices.Sort(ds)
	p.Lo, p.Hi = quantileSorted(ds, 0.025), quantileSorted(ds, 0.975)
	return p
}

// diffMean is Σ w_i (a_i − b_i) / Σ w_i over the pages idx (nil: all),
// pages where either is NaN left out.
func diffMean(a, b, w []float64, idx []int) float64 {
	num, den := 0.0, 0.0
	add := func(i int) {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		if d := a[i] - b[i]; !math.IsNaN(d) && wi > 0 {
			num += wi * d
			den += wi
		}
	}
	if idx == nil {
		for i := range a {
			add(i)
		}
	} else {
		for _, i := range idx {
			add(i)
		}
	}
	return num / den
}

// quantileSorted is the q-quantile of sorted xs (linear between order
// statistics).
func quantileSorted(xs []float64, q float64) float64 {
	pos := q * float64(len(xs)-1)
	k := int(pos)
	if k+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[k] + (pos-float64(k))*(xs[k+1]-xs[k])
}

// decided says whether a − b is a win of a: its interval over the pages
// above 0 and a ahead at every origin.
func (p Pair) decided() bool { return p.Lo > 0 && p.Ahead == len(p.AtOrigin) }

// pairs fills v.Pairs (gu against every other row, or the first plan's
// when gu was not computed) and v.Verdict.
func (v *Validation) pairs(w []float64) {
	ref := &v.Rows[0]
	for k := range v.Rows {
		if v.Rows[k].Plan == PlanGU {
			ref = &v.Rows[k]
		}
	}
	for k := range v.Rows {
		if r := &v.Rows[k]; r != ref {
			v.Pairs = append(v.Pairs, v.pair(ref, r, w))
		}
	}
	v.Verdict = v.verdict(w)
}

// verdict is one sentence: which estimated plan wins (the best realised
// freshness at the first origin), by how many points over each other one
// with the intervals that carry it, against which the win is undecided
// (the interval over the pages holds 0, or it is not ahead at every
// origin), and how far the oracle is above it.
func (v *Validation) verdict(w []float64) string {
	var best *ValidationRow
	var est []*ValidationRow
	var oracle *ValidationRow
	for k := range v.Rows {
		r := &v.Rows[k]
		switch r.Plan {
		case PlanOracle:
			oracle = r
		case PlanOracleTrain:
		default:
			est = append(est, r)
			if best == nil || r.Mean > best.Mean {
				best = r
			}
		}
	}
	if best == nil {
		return ""
	}
	origins := len(v.Origins)
	var b strings.Builder
	fmt.Fprintf(&b, "%s wins on these %d pages with %.1f %% realised freshness", best.Plan, v.Pages, 100*best.Mean)
	var won, open []string
	for _, r := range est {
		if r == best {
			continue
		}
		p := v.pair(best, r, w)
		s := fmt.Sprintf("%s by %+.2f points (%+.2f to %+.2f over pages; ahead at %d of %d origins)", r.Plan, 100*p.Diff, 100*p.Lo, 100*p.Hi, p.Ahead, origins)
		if p.decided() {
			won = append(won, s)
		} else {
			open = append(open, s)
		}
	}
	if len(won) > 0 {
		fmt.Fprintf(&b, ", ahead of %s", strings.Join(won, ", "))
	}
	b.WriteString(".")
	if len(open) > 0 {
		fmt.Fprintf(&b, " Undecided against %s.", strings.Join(open, ", "))
	}
	if len(won) == 0 && len(open) == 0 {
		b.Reset()
		fmt.Fprintf(&b, "%s alone: %.1f %% realised freshness.", best.Plan, 100*best.Mean)
	}
	if oracle != nil {
		p := v.pair(oracle, best, w)
		fmt.Fprintf(&b, " The oracle is %+.2f points above it.", 100*p.Diff)
	}
	return b.String()
}

// Where is a group of pages of the decomposition of a paired difference
// (Validation.Where): the pages whose update rate changed alike between
// the windows, and their share of the difference.
type Where struct {
	Group string
	Pages int
	// Weight is the group's share of the importance.
	Weight float64
	// A and B are the two plans' realised freshness on the group's pages;
	// Points the group's part of A − B over all pages (the parts add up
	// to the difference).
	A, B, Points float64
}

// rateGroups are the groups of where, by the ratio of a page's update
// rate in the evaluation window to that in its training window.
var rateGroups = []struct {
	name   string
	lo, hi float64 // ratio in [lo, hi)
}{
	{"rate fell more than 4×", 0, 0.25},
	{"rate fell 2–4×", 0.25, 0.5},
	{"rate within 2×", 0.5, 2},
	{"rate rose 2–4×", 2, 4},
	{"rate rose more than 4×", 4, math.Inf(1)},
}

// where decomposes a − b at the first origin by how each page's update
// rate changed from its training window [first update, t0) to the
// evaluation window [t0, t1) (pages created after the split apart): the
// measured part of each kind of change in the difference.
func (v *Validation) where(a, b *ValidationRow, all [][]float64, t0, t1 float64, w []float64) []Where {
	groups := make([]Where, len(rateGroups)+1)
	groups[len(rateGroups)].Group = "created after the split"
	for k, g := range rateGroups {
		groups[k].Group = g.name
	}
	total := 0.0
	for i := range all {
		total += weightOf(w, i)
	}
	for i, ts := range all {
		k := len(rateGroups)
		if len(ts) > 0 && ts[0] < t0 {
			first := ts[0]
			nt, ne := 0, 0
			for _, u := range ts {
				switch {
				case u < t0:
					nt++
				case u < t1:
					ne++
				}
			}
			ratio := (float64(ne) / (t1 - t0)) / (float64(nt) / (t0 - first))
			for j, g := range rateGroups {
				if ratio >= g.lo && ratio < g.hi {
					k = j
				}
			}
		}
		wi := weightOf(w, i)
		g := &groups[k]
		g.Pages++
		g.Weight += wi / total
		g.A += wi * a.page[0][i]
		g.B += wi * b.page[0][i]
		g.Points += wi * (a.page[0][i] - b.page[0][i]) / total
	}
	var out []Where
	for _, g := range groups {
		if g.Pages == 0 {
			continue
		}
		den := g.Weight * total
		g.A, g.B = g.A/den, g.B/den
		out = append(out, g)
	}
	return out
}

func weightOf(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}
