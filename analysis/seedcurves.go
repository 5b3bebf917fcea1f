package analysis

// The curves of a replay figure when the replay ran several seeds
// (--seeds R): one curve per method, the pointwise mean over the seeds
// with their range as a band, the seeds' own curves kept for the CSV.

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/series"
)

// methodCurve is the curve a replay figure draws of one method, from its
// rows on the figure's page and sampler, one per seed: the row's drawn
// curve (drawnCDF) with one seed, and the truth, which does not depend
// on the seed, from the lowest seed. With R > 1 seeds it is the
// pointwise mean of the seeds' drawn curves, its band (YLo, YHi) their
// range from the lowest to the highest value (seedSpread), and the seeds'
// own curves are kept in Seeds. tail draws 1 − P at x > 0 (tailCurve);
// step draws a step function.
func methodCurve(rs []EstimateRow, step, tail bool) tables.Curve {
	rs = slices.Clone(rs)
	slices.SortStableFunc(rs, func(a, b EstimateRow) int { return cmp.Compare(a.Seed, b.Seed) })
	name := rs[0].Method
	if len(rs) == 1 || rs[0].Method == "truth" {
		return drawnCurve(drawnCDF(rs[0]), name, step, tail)
	}
	cdfs := make([]series.CDF, len(rs))
	for i, r := range rs {
		cdfs[i] = drawnCDF(r)
	}
	x, mean, lo, hi := seedSpread(cdfs, step)
	c := tables.Curve{Name: name, Step: step}
	for i := range x {
		switch {
		case !tail:
			c.X, c.Y = append(c.X, x[i]), append(c.Y, mean[i])
			c.YLo, c.YHi = append(c.YLo, lo[i]), append(c.YHi, hi[i])
		case x[i] > 0 && mean[i] < 1:
			c.X, c.Y = append(c.X, x[i]), append(c.Y, 1-mean[i])
			c.YLo, c.YHi = append(c.YLo, 1-hi[i]), append(c.YHi, 1-lo[i])
		}
	}
	for i, r := range rs {
		s := drawnCurve(cdfs[i], name, step, tail)
		s.Seed = r.Seed
		c.Seeds = append(c.Seeds, s)
	}
	return c
}

// drawnCurve is the curve of one drawn CDF: its tail 1 − P at x > 0, or
// the CDF itself.
func drawnCurve(c series.CDF, name string, step, tail bool) tables.Curve {
	if tail {
		return tailCurve(c, name, step)
	}
	return tables.Curve{Name: name, X: c.X, Y: c.P, Step: step}
}

// seedSpread is the pointwise mean, minimum and maximum of the CDFs cs
// (one per seed) on the grid of the first: the other CDFs evaluated there
// as step functions (series.CDF.At) when step, else linearly
// (series.CDF.Linear) — exactly their values when their grid is the
// same, as it is for the seeds of one page and sampler. Grid points
// outside another CDF's grid, where it has no value, are left out.
func seedSpread(cs []series.CDF, step bool) (x, mean, lo, hi []float64) {
	grid := cs[0].X
	for i, xi := range grid {
		sum, mn, mx := 0.0, math.Inf(1), math.Inf(-1)
		ok := true
		for _, c := range cs {
			var v float64
			switch {
			case len(c.X) == len(grid) && c.X[i] == xi:
				v = c.P[i]
			case len(c.X) == 0 || xi < c.X[0] || xi > c.X[len(c.X)-1]:
				ok = false
			case step:
				v = c.At(xi)
			default:
				v = c.Linear(xi)
			}
			if !ok {
				break
			}
			sum += v
			mn, mx = math.Min(mn, v), math.Max(mx, v)
		}
		if !ok {
			continue
		}
		x = append(x, xi)
		mean = append(mean, sum/float64(len(cs)))
		lo, hi = append(lo, mn), append(hi, mx)
	}
	return x, mean, lo, hi
}

// seedsCaption is the sentence a replay figure's caption adds when the
// replay ran more than one seed (seeds of them): what the curves of the
// methods and their bands are, and where each seed's curve is.
func seedsCaption(seeds int, methods string) string {
	if seeds <= 1 {
		return ""
	}
	return fmt.Sprintf(" %s: the pointwise mean over the replay's %d seeds, the shaded band their range (lowest to highest seed at each x; docs/methods.md#seeds); the truth does not depend on the seed. The figure's CSV keeps every seed's curve (column seed; the mean's rows are marked mean).", methods, seeds)
}
