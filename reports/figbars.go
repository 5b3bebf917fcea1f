package reports

// Histograms: (left edge, count) points drawn as bars, and the width of
// a bin.

import (
	"image/color"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// bars turns (left edge, count) points into histogram bins; a bin ends
// where the next begins, the last one is as wide as the one before it.
func bars(xys plotter.XYs, col color.RGBA, logY bool) *plotter.Histogram {
	bins := make([]plotter.HistogramBin, len(xys))
	for i, pt := range xys {
		var w float64
		switch {
		case i+1 < len(xys):
			w = xys[i+1].X - pt.X
		case i > 0:
			w = pt.X - xys[i-1].X
		default:
			w = 1
		}
		if w <= 0 {
			w = 1
		}
		bins[i] = plotter.HistogramBin{Min: pt.X, Max: pt.X + w, Weight: pt.Y}
	}
	fill := color.NRGBA{R: col.R, G: col.G, B: col.B, A: 0x90}
	h := &plotter.Histogram{Bins: bins, FillColor: fill, LogY: logY}
	h.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(0.8)}
	return h
}

// barWidth is the width of histogram bin i whose left edges are xs, as
// bars draws it.
func barWidth(xs []float64, i int) float64 {
	var w float64
	switch {
	case i+1 < len(xs):
		w = xs[i+1] - xs[i]
	case i > 0:
		w = xs[i] - xs[i-1]
	}
	if !(w > 0) {
		w = 1
	}
	return w
}
