package reports

// Legend placement: inside the plot in the emptiest corner when short,
// below it in one or two columns when long or when no corner is free.

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// legendEntry is one line of a legend drawn below the plot.
type legendEntry struct {
	name  string
	thumb plot.Thumbnailer
}

// belowLegends splits a long legend into two columns of width w/2, or
// keeps one column when a name would not fit in half the width.
func belowLegends(sty text.Style, entries []legendEntry, w vg.Length) []*plot.Legend {
	if len(entries) == 0 {
		return nil
	}
	cols := 2
	for _, e := range entries {
		if sty.Width(e.name)*1.15+vg.Points(30) > w/2 { // 15 %: a browser without Liberation Sans draws wider text
			cols = 1
		}
	}
	rows := (len(entries) + cols - 1) / cols
	var out []*plot.Legend
	for i := 0; i < cols; i++ {
		l := plot.NewLegend()
		l.TextStyle = sty
		l.Top, l.Left, l.Padding = true, true, vg.Points(2)
		for _, e := range entries[min(i*rows, len(entries)):min((i+1)*rows, len(entries))] {
			l.Add(e.name, e.thumb)
		}
		out = append(out, &l)
	}
	return out
}

// maxInsideLegend is the longest legend drawn inside the plot area.
const maxInsideLegend = 5

// legendCorner picks the corner of the plot (top/bottom, left/right) whose
// third of each axis holds the fewest points; ties go to top right, then
// top left, bottom right, bottom left. crowded says that even that corner
// holds points, so that a legend there would cover data.
func legendCorner(curves []curvePoints, tx, ty func(float64) float64, xr, yr [2]float64) (top, left, crowded bool) {
	var n [4]int // TR, TL, BR, BL
	for _, c := range curves {
		for _, pt := range c.xys {
			u := (tx(pt.X) - xr[0]) / (xr[1] - xr[0])
			v := (ty(pt.Y) - yr[0]) / (yr[1] - yr[0])
			switch {
			case u >= 0.55 && v >= 0.6:
				n[0]++
			case u <= 0.45 && v >= 0.6:
				n[1]++
			case u >= 0.55 && v <= 0.4:
				n[2]++
			case u <= 0.45 && v <= 0.4:
				n[3]++
			}
		}
	}
	best := 0
	for i := 1; i < 4; i++ {
		if n[i] < n[best] {
			best = i
		}
	}
	return best < 2, best == 1 || best == 3, n[best] > 0
}
