package reports

// Figures as SVG: the plot of a tables.Figure with gonum/plot (what its
// axes can show, one plotter per curve by kind), the data group, and the
// ranges of the data.

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/revisit-dev/revisit/internal/tables"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure size: wide enough for a 4-decade log axis and a legend, small
// enough to sit in a page column; the HTML scales it to the page width.
const (
	figWidth  = 7 * vg.Inch
	figHeight = 4.3 * vg.Inch
	// maxLinePoints is the size from which a line is thinned to what the
	// eye can resolve (points within 0.4 pt of the last one kept, on the
	// page, are merged); the CSV keeps every point.
	maxLinePoints = 1000
)

// SVG renders f as a standalone SVG document with gonum/plot: lines (step
// functions drawn as post-steps, fits and models dashed), points, or bars
// for histograms (curve X = left bin edges, Y = counts); logarithmic axes
// with decade ticks when LogX/LogY; a legend placed in the emptiest corner;
// a duration axis (XUnit, YUnit) in the unit chosen from its data
// (forDisplay).
// Points a log axis cannot show (x ≤ 0 or y ≤ 0) are dropped; notes says
// how many, for the caption. A figure that cannot be drawn returns an
// error, never a panic.
func SVG(f *tables.Figure) (svg []byte, notes []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			svg, notes, err = nil, nil, fmt.Errorf("figure %s: plotting failed: %v", f.ID, r)
		}
	}()
	f = forDisplay(f)
	p, lp, notes, err := buildPlot(f)
	if err != nil {
		return nil, nil, fmt.Errorf("figure %s: %w", f.ID, err)
	}
	sty := p.Legend.TextStyle
	// A short legend goes inside the plot when it fits in its corner;
	// else it goes below the plot (in two columns when the names fit),
	// and the figure grows to hold it.
	var inside *legendBox
	if len(lp.entries) > 0 && !lp.below {
		box := newLegendBox(sty, lp.entries, vg.Length(math.Inf(1)))
		da := p.DataCanvas(plotArea(p, draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: figWidth, Y: figHeight}}}))
		w, h := box.size()
		if w <= insideWidth*(da.Max.X-da.Min.X) && h <= insideHeight*(da.Max.Y-da.Min.Y) {
			inside = &box
		}
	}
	var legends []legendBox
	if inside == nil {
		legends = belowLegends(sty, lp.entries, figWidth-vg.Points(50))
	}
	stripH := vg.Length(0)
	for _, l := range legends {
		_, h := l.size()
		stripH = max(stripH, h)
	}
	if len(legends) > 0 {
		stripH += vg.Points(12)
	}
	c := vgsvg.New(figWidth, figHeight+stripH)
	full := draw.New(c)
	if len(legends) > 0 {
		strip := draw.Crop(full, vg.Points(40), -vg.Points(10), vg.Points(4), -(figHeight + vg.Points(4)))
		colW := (strip.Max.X - strip.Min.X) / vg.Length(len(legends))
		for i, l := range legends {
			l.draw(strip, strip.Min.X+vg.Length(i)*colW, strip.Max.Y)
		}
		full = draw.Crop(full, 0, 0, stripH, 0)
	}
	dc := plotArea(p, full)
	if yLabelApart(p) {
		drawYLabel(p, full, dc)
	}
	p.Draw(dc)
	if inside != nil {
		da := p.DataCanvas(dc)
		w, h := inside.size()
		x, top := da.Max.X-legendInset-w, da.Max.Y-legendInset
		if lp.left {
			x = da.Min.X + legendInset
		}
		if !lp.top {
			top = da.Min.Y + legendInset + h
		}
		inside.draw(da, x, top)
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, nil, fmt.Errorf("figure %s: %w", f.ID, err)
	}
	out := strings.ReplaceAll(buf.String(), "font-family:Liberation Sans;", "font-family:Liberation Sans,Arial,Helvetica,sans-serif;")
	out = strings.ReplaceAll(out, dataGroupOpen, dataGroupClass)
	out = strings.ReplaceAll(out, legendGroupOpen, legendGroupClass)
	return []byte(out), notes, nil
}

// plotArea is the part of the canvas full that p is drawn in: a margin on
// the top and right so that the last tick labels are not cut off (there
// is no title above the plot), and left of it, when yLabelApart, the
// strip drawYLabel writes the y label in.
func plotArea(p *plot.Plot, full draw.Canvas) draw.Canvas {
	dc := draw.Crop(full, 0, -vg.Points(10), 0, -vg.Points(8))
	if yLabelApart(p) {
		lab := p.Y.Label
		dc = draw.Crop(dc, lab.TextStyle.Height(lab.Text)+lab.Padding+vg.Points(6), 0, 0, 0)
	}
	return dc
}

// yLabelApart says that the y axis label is drawn by drawYLabel, not by
// gonum/plot, which places the label's glyph box at the arithmetic middle
// of the y range: on a log axis that lies near the top and makes it
// shrink the plot area by the label's length.
func yLabelApart(p *plot.Plot) bool {
	_, logY := p.Y.Scale.(plot.LogScale)
	return logY && p.Y.Label.Text != ""
}

// drawYLabel draws the y axis label left of the plot area dc (within
// full), centred on the plot area above the x axis, and removes it from
// p.
func drawYLabel(p *plot.Plot, full, dc draw.Canvas) {
	lab := p.Y.Label
	p.Y.Label.Text = ""
	sty := lab.TextStyle
	sty.Rotation += math.Pi / 2
	h := lab.TextStyle.Height(lab.Text)
	desc := lab.TextStyle.FontExtents().Descent
	// The x axis (tick labels, label, paddings) is about 40 pt high: centre
	// the label on the plot area above it.
	y := (dc.Min.Y + vg.Points(40) + dc.Max.Y) / 2
	full.FillText(sty, vg.Point{X: full.Min.X + vg.Points(3) + h - desc, Y: y}, lab.Text)
}

// curvePoints is one curve after dropping the points its axes cannot show.
type curvePoints struct {
	c   tables.Curve
	xys plotter.XYs
}

// dataPlotter wraps a plotter that draws data (a curve, a histogram), so
// that its SVG output sits in a group of its own: drawn inside a no-op
// scale(1,1) group that SVG renames <g class="data">, which lets a test
// (or a reader of the SVG) tell the plotted data from axes and grid.
type dataPlotter struct {
	p interface {
		plot.Plotter
		plot.DataRanger
	}
}

func (d dataPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	c.Push()
	c.Scale(1, 1)
	d.p.Plot(c, p)
	c.Pop()
}

func (d dataPlotter) DataRange() (xmin, xmax, ymin, ymax float64) { return d.p.DataRange() }

func (d dataPlotter) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	if g, ok := d.p.(plot.GlyphBoxer); ok {
		return g.GlyphBoxes(p)
	}
	return nil
}

// dataGroupOpen is how vgsvg writes dataPlotter's group, and
// dataGroupClass what SVG makes of it.
const (
	dataGroupOpen  = `<g transform="scale(1,1)">`
	dataGroupClass = `<g class="data">`
)

// legendPlan is where buildPlot wants a figure's legend: inside the plot
// in a corner (top, left), or below it (below).
type legendPlan struct {
	entries   []legendEntry
	below     bool
	top, left bool
}

// buildPlot makes the plot and plans its legend: in the emptiest corner
// when short, below the plot when longer than maxInsideLegend or when no
// corner is free of data.
func buildPlot(f *tables.Figure) (*plot.Plot, legendPlan, []string, error) {
	p := plot.New()
	setFonts(p)
	// No title inside the plot: the report's heading and caption carry it
	// (as in a paper), and the plot area keeps the space.
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel

	// Keep the points the axes can show.
	var notes []string
	var curves []curvePoints
	droppedX, droppedY, total, outside := 0, 0, 0, 0
	for _, c := range f.Curves {
		n := min(len(c.X), len(c.Y))
		if len(c.X) != len(c.Y) {
			notes = append(notes, fmt.Sprintf("curve %q has %d x and %d y values; the first %d pairs are plotted", c.Name, len(c.X), len(c.Y), n))
		}
		xys := make(plotter.XYs, 0, n)
		for i := range n {
			x, y := c.X[i], c.Y[i]
			if !finite(x) || !finite(y) {
				continue
			}
			total++
			if f.LogX && x <= 0 {
				droppedX++
				continue
			}
			if f.LogY && y <= 0 {
				droppedY++
				continue
			}
			xys = append(xys, plotter.XY{X: x, Y: y})
		}
		if f.YKind == tables.YCorrelation {
			// Nothing beyond the axis of a correlation: a line (a fitted
			// model) ends where it leaves [−1, 1].
			var out int
			xys, out = clipY(xys, -1, 1, c.Points || f.Bars, f.LogX, f.LogY)
			outside += out
		}
		curves = append(curves, curvePoints{c, xys})
	}
	if outside > 0 {
		notes = append(notes, fmt.Sprintf("lines cut where they leave [−1, 1], the range of a correlation (%s points beyond it not shown)", tables.Human(tables.Int, int64(outside))))
	}
	if droppedX > 0 {
		notes = append(notes, fmt.Sprintf("%s of %s points with x ≤ 0 not shown on the logarithmic x axis", tables.Human(tables.Int, int64(droppedX)), tables.Human(tables.Int, int64(total))))
	}
	if droppedY > 0 {
		what := "points"
		if f.Bars {
			what = "bins"
		}
		notes = append(notes, fmt.Sprintf("%s of %s %s with y ≤ 0 not shown on the logarithmic y axis", tables.Human(tables.Int, int64(droppedY)), tables.Human(tables.Int, int64(total)), what))
	}
	kept := 0
	for _, c := range curves {
		kept += len(c.xys)
	}
	logX, logY := f.LogX, f.LogY
	if kept == 0 {
		notes = append(notes, "no points to plot")
		logX, logY = false, false
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicker{}, niceTicker{}
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	}
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	} else if f.Bars {
		p.Y.Tick.Marker = countTicker{} // histograms count whole things
	}
	p.Add(gridLines())

	// Ranges in plot coordinates (log10 on log axes), for thinning and
	// for the legend's corner.
	tx := func(v float64) float64 { return v }
	ty := tx
	if logX {
		tx = math.Log10
	}
	if logY {
		ty = math.Log10
	}
	xr, yr := span(curves, tx, true), span(curves, ty, false)
	// What the legend must not cover: the points, and the edges of bands.
	occupied := append(slices.Clone(curves), bandEdges(f, logX, logY)...)
	bxr, byr := span(occupied, tx, true), span(occupied, ty, false)

	nPoints := 0
	entryOf := make([]*legendEntry, len(curves))
	styles := curveStyles(f.Curves)
	for _, i := range drawOrder(curves) {
		cp := curves[i]
		if len(cp.xys) == 0 {
			continue
		}
		st := styles[i]
		col := st.col
		var thumb plot.Thumbnailer
		switch {
		case f.Bars:
			h := bars(cp.xys, col, logY)
			p.Add(dataPlotter{h})
			thumb = h
		case cp.c.Points || distinct(cp.xys) == 1:
			// A line through one point draws nothing: show the point.
			s, err := plotter.NewScatter(cp.xys)
			if err != nil {
				return nil, legendPlan{}, nil, fmt.Errorf("curve %q: %w", cp.c.Name, err)
			}
			s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: glyphs[nPoints%len(glyphs)]}
			nPoints++
			p.Add(dataPlotter{s})
			thumb = s
		default:
			if band := bandPolygon(cp.c, f.LogX, f.LogY, col); band != nil {
				p.Add(dataPlotter{band})
			}
			xys := cp.xys
			if len(xys) > maxLinePoints {
				xys = thin(xys, tx, ty, xr, yr)
			}
			l, err := plotter.NewLine(xys)
			if err != nil {
				return nil, legendPlan{}, nil, fmt.Errorf("curve %q: %w", cp.c.Name, err)
			}
			l.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.6)}
			if cp.c.Step {
				l.StepStyle = plotter.PostStep
			}
			if st.dash >= 0 {
				l.LineStyle.Dashes = dashes[st.dash]
				l.LineStyle.Width = vg.Points(1.8)
			}
			if isTruth(cp.c.Name) {
				// Drawn last and dashed, so that an estimate lying on
				// the truth shows through the gaps instead of hiding it.
				l.LineStyle.Dashes = truthDash
				l.LineStyle.Width = vg.Points(1.4)
			}
			p.Add(dataPlotter{l})
			thumb = l
		}
		if cp.c.Name != "" {
			entryOf[i] = &legendEntry{cp.c.Name, thumb}
		}
	}
	// The legend lists the curves in the figure's order, whatever the
	// drawing order.
	var entries []legendEntry
	for _, e := range entryOf {
		if e != nil {
			entries = append(entries, *e)
		}
	}
	if logY && f.Bars {
		// Bars start at the axis: leave room for the smallest one.
		if lo := minY(curves); lo > 0 {
			p.Y.Min = lo / 2
		}
	} else if logY {
		if lo, ok := dataFloor(curves); ok {
			p.Y.Min = lo // model curves may fall far below the data: clip them
		}
	}
	if f.YKind == tables.YProbability && kept > 0 {
		// A distribution function's axis shows where it starts and ends:
		// 0 and 1 on a linear axis, 1 at the top of a logarithmic one.
		p.Y.Max = max(p.Y.Max, 1)
		if !logY {
			p.Y.Min = min(p.Y.Min, 0)
		}
	}
	top, left, crowded := legendCorner(occupied, tx, ty, bxr, byr)
	// Long, or no corner free of data: below the plot, never on it.
	below := len(entries) > maxInsideLegend || crowded
	return p, legendPlan{entries: entries, below: below, top: top, left: left}, notes, nil
}

func setFonts(p *plot.Plot) {
	p.Title.TextStyle.Font = font.From(sans, 13)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, 11.5)
		a.Tick.Label.Font = font.From(sans, 10)
	}
	p.Legend.TextStyle.Font = font.From(sans, 10)
}

func gridLines() *plotter.Grid {
	g := plotter.NewGrid()
	light := color.Gray{Y: 0xdd}
	g.Vertical.Color, g.Horizontal.Color = light, light
	g.Vertical.Width, g.Horizontal.Width = vg.Points(0.5), vg.Points(0.5)
	return g
}

// dataFloor is a tenth of the smallest y of the data curves (neither
// dashed fits nor models), when a fit or model goes below it: on a log
// axis an exponential fit falls to 10⁻¹⁰⁰ and would squash the data into a
// sliver. ok is false when there is nothing to clip.
func dataFloor(curves []curvePoints) (lo float64, ok bool) {
	dataMin, allMin := math.Inf(1), math.Inf(1)
	for _, c := range curves {
		for _, pt := range c.xys {
			allMin = math.Min(allMin, pt.Y)
			if !c.c.Dashed {
				dataMin = math.Min(dataMin, pt.Y)
			}
		}
	}
	if math.IsInf(dataMin, 1) || allMin >= dataMin/10 {
		return 0, false
	}
	return dataMin / 10, true
}

// minY is the smallest y of all curves (+Inf when there is none).
func minY(curves []curvePoints) float64 {
	lo := math.Inf(1)
	for _, c := range curves {
		for _, pt := range c.xys {
			lo = math.Min(lo, pt.Y)
		}
	}
	return lo
}

// span is the range of the curves' x (or y) values in plot coordinates.
func span(curves []curvePoints, t func(float64) float64, isX bool) [2]float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range curves {
		for _, pt := range c.xys {
			v := pt.Y
			if isX {
				v = pt.X
			}
			v = t(v)
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if !(hi > lo) {
		return [2]float64{lo - 0.5, lo + 0.5}
	}
	return [2]float64{lo, hi}
}

// distinct counts the different points of xys.
func distinct(xys plotter.XYs) int {
	seen := map[plotter.XY]bool{}
	for _, p := range xys {
		seen[p] = true
	}
	return len(seen)
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
