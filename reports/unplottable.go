package reports

// Unplottable: the sentence that replaces a figure with nothing worth
// drawing (a lone point, an empty or one-value histogram).

import (
	"fmt"
	"strings"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
)

// Unplottable says why f cannot make a figure worth drawing, or returns
// "" when it can. A plot needs two points: a figure is replaced by this
// sentence when no curve has two distinct points its axes can show
// (finite, and positive on a logarithmic axis), and a histogram when it
// counts fewer than two things. The sentence gives the lone point's
// values, so that nothing is lost: "Not drawn: every curve has a single
// point (a line needs two): S exact / S Poisson at ratio = 0.42,
// fraction ≤ x = 1."
func Unplottable(f *tables.Figure) string {
	type pt struct {
		name string
		x, y float64
	}
	f = forDisplay(f) // a duration axis in the unit the plot would use
	var singles []pt
	total, hidden := 0.0, 0
	var bin [2]float64
	open := false // the lone value's bin is a histogram's open last bin
	for _, c := range f.Curves {
		n := min(len(c.X), len(c.Y))
		seen := map[[2]float64]bool{}
		var last [2]float64
		for i := range n {
			x, y := c.X[i], c.Y[i]
			if !finite(x) || !finite(y) {
				continue
			}
			if f.Bars {
				if y > 0 {
					total += y
					bin = [2]float64{x, x + barWidth(c.X, i)}
					open = c.OpenLast && i == n-1
				}
				continue
			}
			if f.LogX && x <= 0 || f.LogY && y <= 0 {
				hidden++
				continue
			}
			seen[[2]float64{x, y}] = true
			last = [2]float64{x, y}
		}
		if f.Bars {
			continue
		}
		switch len(seen) {
		case 0:
		case 1:
			singles = append(singles, pt{c.Name, last[0], last[1]})
		default:
			return ""
		}
	}
	label := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	xl, yl := label(f.XLabel, "x"), label(f.YLabel, "y")
	if f.Bars {
		switch {
		case total == 0:
			return fmt.Sprintf("Not drawn: the histogram is empty (no %s to count).", yl)
		case total == 1 && open:
			return fmt.Sprintf("Not drawn: the histogram would hold a single value (%s = 1), in its last bin, which counts every %s from %s up.", yl, xl, human.Float(bin[0]))
		case total == 1:
			return fmt.Sprintf("Not drawn: the histogram would hold a single value (%s = 1), in the bin from %s to %s of %s.", yl, human.Float(bin[0]), human.Float(bin[1]), xl)
		}
		return ""
	}
	if len(singles) == 0 {
		if hidden > 0 {
			return fmt.Sprintf("Not drawn: no point with a positive value to show on the logarithmic axes (%s left out).", human.Count(int64(hidden), "point", "points"))
		}
		return "Not drawn: there is no point to plot."
	}
	var parts []string
	for _, p := range singles {
		s := fmt.Sprintf("%s = %s, %s = %s", xl, human.Float(p.x), yl, human.Float(p.y))
		if p.name != "" {
			s = p.name + " at " + s
		}
		parts = append(parts, s)
	}
	what := "the figure has a single point"
	if len(singles) > 1 {
		what = "every curve has a single point (a line needs two)"
	}
	return "Not drawn: " + what + ": " + strings.Join(parts, "; ") + "."
}
