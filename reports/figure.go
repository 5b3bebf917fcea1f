package reports

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
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

// palette is Okabe and Ito's colour-blind-safe palette (without yellow,
// which is unreadable on white), then grey.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xff}, // blue
	{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	{0x00, 0x9E, 0x73, 0xff}, // bluish green
	{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xff}, // orange
	{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	{0x00, 0x00, 0x00, 0xff}, // black
	{0x88, 0x88, 0x88, 0xff}, // grey
}

// dashes are the patterns of dashed (fit, model) curves, in turn.
var dashes = [][]vg.Length{
	{vg.Points(6), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)},
	{vg.Points(4), vg.Points(4)},
}

var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.CrossGlyph{},
	draw.RingGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{}, draw.PlusGlyph{},
}

// sans is the plot font: Liberation Sans, metric-compatible with Arial and
// Helvetica, which the SVG names as fallbacks for viewers without it.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// SVG renders f as a standalone SVG document with gonum/plot: lines (step
// functions drawn as post-steps, fits and models dashed), points, or bars
// for histograms (curve X = left bin edges, Y = counts); logarithmic axes
// with decade ticks when LogX/LogY; a legend placed in the emptiest corner.
// Points a log axis cannot show (x ≤ 0 or y ≤ 0) are dropped; notes says
// how many, for the caption. A figure that cannot be drawn returns an
// error, never a panic.
func SVG(f *tables.Figure) (svg []byte, notes []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			svg, notes, err = nil, nil, fmt.Errorf("figure %s: plotting failed: %v", f.ID, r)
		}
	}()
	p, below, notes, err := buildPlot(f)
	if err != nil {
		return nil, nil, fmt.Errorf("figure %s: %w", f.ID, err)
	}
	// A long legend goes below the plot (in two columns when the names
	// fit), and the figure grows to hold it.
	legends := belowLegends(p.Legend.TextStyle, below, figWidth-vg.Points(50))
	stripH := vg.Length(0)
	for _, l := range legends {
		r := l.Rectangle(draw.Canvas{})
		stripH = max(stripH, r.Max.Y-r.Min.Y)
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
			l.Draw(draw.Crop(strip, vg.Length(i)*colW, -colW*vg.Length(len(legends)-1-i), 0, 0))
		}
		full = draw.Crop(full, 0, 0, stripH, 0)
	}
	// A margin on the top and right so that the last tick labels are not
	// cut off (there is no title above the plot).
	dc := draw.Crop(full, 0, -vg.Points(10), 0, -vg.Points(8))
	if _, logY := p.Y.Scale.(plot.LogScale); logY && p.Y.Label.Text != "" {
		dc = drawYLabel(p, dc)
	}
	p.Draw(dc)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, nil, fmt.Errorf("figure %s: %w", f.ID, err)
	}
	out := strings.ReplaceAll(buf.String(), "font-family:Liberation Sans;", "font-family:Liberation Sans,Arial,Helvetica,sans-serif;")
	out = strings.ReplaceAll(out, dataGroupOpen, dataGroupClass)
	return []byte(out), notes, nil
}

// drawYLabel draws the y axis label itself, in a strip cropped off the
// left of dc, and removes it from p: gonum/plot places the label's glyph
// box at the arithmetic middle of the y range, which on a log axis lies
// near the top and makes it shrink the plot area by the label's length.
func drawYLabel(p *plot.Plot, dc draw.Canvas) draw.Canvas {
	lab := p.Y.Label
	p.Y.Label.Text = ""
	sty := lab.TextStyle
	sty.Rotation += math.Pi / 2
	h := lab.TextStyle.Height(lab.Text)
	desc := lab.TextStyle.FontExtents().Descent
	// The x axis (tick labels, label, paddings) is about 40 pt high: centre
	// the label on the plot area above it.
	y := (dc.Min.Y + vg.Points(40) + dc.Max.Y) / 2
	dc.FillText(sty, vg.Point{X: dc.Min.X + vg.Points(3) + h - desc, Y: y}, lab.Text)
	return draw.Crop(dc, h+lab.Padding+vg.Points(6), 0, 0, 0)
}

// curvePoints is one curve after dropping the points its axes cannot show.
type curvePoints struct {
	c   tables.Curve
	xys plotter.XYs
}

// curveStyle is how one curve is drawn: a palette colour and a dash
// pattern (an index into dashes, -1 for a solid line).
type curveStyle struct {
	col  color.RGBA
	dash int
}

// Palette indices, for fixedStyles.
const (
	cBlue = iota
	cVermillion
	cGreen
	cPurple
	cOrange
	cSky
	cBlack
	cGrey
)

// fixedStyles is the one style of each method, policy and fit family in
// every figure (names compared in lower case, without a trailing " fit"),
// so that M4 or the Pareto fit looks the same wherever it appears; the
// styles inside each group all differ. The truth and the oracle are
// black and solid; the Poisson baselines are dashed.
var fixedStyles = map[string]curveStyle{
	// Fit families: dashed, never blue (the data they fit is blue).
	"exponential": {palette[cVermillion], 0},
	"weibull":     {palette[cGreen], 1},
	"lognormal":   {palette[cPurple], 2},
	"pareto":      {palette[cOrange], 3},
	// Methods.
	"truth":       {palette[cBlack], -1},
	"m1":          {palette[cVermillion], -1},
	"m2":          {palette[cBlue], -1},
	"m3":          {palette[cOrange], -1},
	"m4":          {palette[cGreen], -1},
	"m5":          {palette[cSky], -1},
	"m6":          {palette[cPurple], -1},
	"g-m4":        {palette[cGreen], 3},
	"naive":       {palette[cGrey], 0},
	"cho":         {palette[cVermillion], 1},
	"matloff":     {palette[cBlue], 1},
	"age-mle":     {palette[cOrange], 2},
	"poisson-mle": {palette[cSky], 2},
	// Download policies.
	"oracle":       {palette[cBlack], -1},
	"adaptive":     {palette[cBlue], -1},
	"greedy":       {palette[cVermillion], -1},
	"proportional": {palette[cGreen], -1},
	"subset":       {palette[cPurple], -1},
	"frequency":    {palette[cOrange], -1},
	"round-robin":  {palette[cSky], -1},
}

// fixedStyle is the fixed style of a curve named after a method, policy
// or fit family ("M4", "pareto fit", "Weibull"), if it has one.
func fixedStyle(name string) (curveStyle, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.TrimSuffix(n, " fit")
	st, ok := fixedStyles[n]
	return st, ok
}

// curveStyles gives every curve of a figure its style, no two alike:
// curves named after a method, policy or fit family take their fixed
// style (fixedStyles); a dashed fit or model named after an earlier curve
// ("page 7 fit, H = 0.6" after "page 7 (v = 1.00)") takes that curve's
// colour with a dash pattern of its own, so that each fit reads as
// belonging to its data; any other curve takes the first palette colour
// no curve of the figure uses yet (solid, or the next dash pattern when
// dashed), and once all colours are taken the first unused pair of colour
// and dash pattern. A fixed style already taken in the figure (two
// curves named "M4") is treated as unknown.
func curveStyles(cs []tables.Curve) []curveStyle {
	key := func(name string) string {
		cut := len(name)
		for _, sep := range []string{" (", " fit", ","} {
			if i := strings.Index(name, sep); i >= 0 && i < cut {
				cut = i
			}
		}
		return strings.TrimSpace(name[:cut])
	}
	out := make([]curveStyle, len(cs))
	done := make([]bool, len(cs))
	used := map[curveStyle]bool{}
	colourUsed := map[color.RGBA]bool{}
	take := func(i int, st curveStyle) {
		out[i], done[i] = st, true
		used[st], colourUsed[st.col] = true, true
	}
	for i, c := range cs {
		if st, ok := fixedStyle(c.Name); ok && !used[st] {
			take(i, st)
		}
	}
	byKey := map[string]color.RGBA{}
	nDashed := 0
	for i, c := range cs {
		k := key(c.Name)
		if done[i] {
			if k != "" && !c.Dashed {
				byKey[k] = out[i].col
			}
			continue
		}
		firstDash := func(col color.RGBA) (int, bool) {
			for d := range dashes {
				j := (nDashed + d) % len(dashes)
				if !used[curveStyle{col, j}] {
					return j, true
				}
			}
			return 0, false
		}
		if col, ok := byKey[k]; ok && c.Dashed && k != "" {
			if d, ok := firstDash(col); ok {
				nDashed++
				take(i, curveStyle{col, d})
				continue
			}
		}
		found := false
		for _, col := range palette {
			if colourUsed[col] {
				continue
			}
			st := curveStyle{col, -1}
			if c.Dashed {
				st.dash = nDashed % len(dashes)
				nDashed++
			}
			take(i, st)
			found = true
			break
		}
		if !found {
			st, ok := freeStyle(used, c.Dashed)
			if !ok { // more than 40 curves: styles repeat
				st = curveStyle{palette[i%len(palette)], -1}
			}
			take(i, st)
		}
		if k != "" && !c.Dashed {
			byKey[k] = out[i].col
		}
	}
	return out
}

// freeStyle is, once every colour is taken, the first pair of colour and
// dash pattern no curve uses: colours in palette order, each solid first
// for a solid curve, dashed first (in dashes order) for a dashed one.
func freeStyle(used map[curveStyle]bool, dashed bool) (curveStyle, bool) {
	var order []int
	if !dashed {
		order = append(order, -1)
	}
	for d := range dashes {
		order = append(order, d)
	}
	if dashed {
		order = append(order, -1)
	}
	for _, col := range palette {
		for _, d := range order {
			if st := (curveStyle{col, d}); !used[st] {
				return st, true
			}
		}
	}
	return curveStyle{}, false
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

// buildPlot makes the plot; the legend is in it when short, returned as
// entries to draw below it when longer than maxInsideLegend.
func buildPlot(f *tables.Figure) (*plot.Plot, []legendEntry, []string, error) {
	p := plot.New()
	setFonts(p)
	// No title inside the plot: the report's heading and caption carry it
	// (as in a paper), and the plot area keeps the space.
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel

	// Keep the points the axes can show.
	var notes []string
	var curves []curvePoints
	droppedX, droppedY, total := 0, 0, 0
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
		curves = append(curves, curvePoints{c, xys})
	}
	if droppedX > 0 {
		notes = append(notes, fmt.Sprintf("%s of %s points with x ≤ 0 not shown on the logarithmic x axis", Human(tables.Int, int64(droppedX)), Human(tables.Int, int64(total))))
	}
	if droppedY > 0 {
		what := "points"
		if f.Bars {
			what = "bins"
		}
		notes = append(notes, fmt.Sprintf("%s of %s %s with y ≤ 0 not shown on the logarithmic y axis", Human(tables.Int, int64(droppedY)), Human(tables.Int, int64(total)), what))
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
				return nil, nil, nil, fmt.Errorf("curve %q: %w", cp.c.Name, err)
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
				return nil, nil, nil, fmt.Errorf("curve %q: %w", cp.c.Name, err)
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
	top, left, crowded := legendCorner(occupied, tx, ty, bxr, byr)
	if len(entries) > maxInsideLegend || (crowded && len(entries) > 0) {
		// Long, or no corner free of data: below the plot, never on it.
		return p, entries, notes, nil
	}
	for _, e := range entries {
		p.Legend.Add(e.name, e.thumb)
	}
	p.Legend.Top, p.Legend.Left = top, left
	p.Legend.Padding = vg.Points(3)
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(-6), vg.Points(-6)
	if p.Legend.Left {
		p.Legend.XOffs = vg.Points(6)
	}
	if !p.Legend.Top {
		p.Legend.YOffs = vg.Points(6)
	}
	return p, nil, notes, nil
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

// thin drops the points of a long line that lie within 0.4 pt (on the
// page) of the last point kept, keeping the first and last.
func thin(xys plotter.XYs, tx, ty func(float64) float64, xr, yr [2]float64) plotter.XYs {
	const eps = 0.4
	sx := float64(figWidth.Points()) / (xr[1] - xr[0])
	sy := float64(figHeight.Points()) / (yr[1] - yr[0])
	out := plotter.XYs{xys[0]}
	lx, ly := tx(xys[0].X)*sx, ty(xys[0].Y)*sy
	for i := 1; i < len(xys)-1; i++ {
		x, y := tx(xys[i].X)*sx, ty(xys[i].Y)*sy
		if math.Abs(x-lx) < eps && math.Abs(y-ly) < eps {
			continue
		}
		out = append(out, xys[i])
		lx, ly = x, y
	}
	return append(out, xys[len(xys)-1])
}

// bandPolygon is the shaded band (YLo to YHi) of a curve that has one, in
// its colour at 20 % opacity, without outline; nil without a band or
// with fewer than two points a log axis can show.
func bandPolygon(c tables.Curve, logX, logY bool, col color.RGBA) *plotter.Polygon {
	if !c.HasBand() {
		return nil
	}
	var up, down plotter.XYs
	for i := range min(len(c.X), len(c.Y)) {
		x, lo, hi := c.X[i], c.YLo[i], c.YHi[i]
		if !finite(x) || !finite(lo) || !finite(hi) || logX && x <= 0 || logY && lo <= 0 {
			continue
		}
		up = append(up, plotter.XY{X: x, Y: hi})
		down = append(down, plotter.XY{X: x, Y: lo})
	}
	if len(up) < 2 {
		return nil
	}
	for i, j := 0, len(down)-1; i < j; i, j = i+1, j-1 {
		down[i], down[j] = down[j], down[i]
	}
	poly, err := plotter.NewPolygon(append(up, down...))
	if err != nil {
		return nil
	}
	poly.Color = color.NRGBA{R: col.R, G: col.G, B: col.B, A: 0x33}
	poly.LineStyle.Width = 0
	return poly
}

// bandEdges are the lower and upper edges of the bands of f's curves, as
// points (for the legend's corner: a band is data too).
func bandEdges(f *tables.Figure, logX, logY bool) []curvePoints {
	var out []curvePoints
	for _, c := range f.Curves {
		if !c.HasBand() {
			continue
		}
		var xys plotter.XYs
		for i := range min(len(c.X), len(c.Y)) {
			x := c.X[i]
			if !finite(x) || logX && x <= 0 {
				continue
			}
			for _, y := range []float64{c.YLo[i], c.YHi[i]} {
				if finite(y) && !(logY && y <= 0) {
					xys = append(xys, plotter.XY{X: x, Y: y})
				}
			}
		}
		out = append(out, curvePoints{c, xys})
	}
	return out
}

// truthDash is the dash of a truth curve, drawn over the estimates.
var truthDash = []vg.Length{vg.Points(5), vg.Points(3)}

// isTruth tells whether a curve is the truth the other curves estimate.
func isTruth(name string) bool { return strings.EqualFold(strings.TrimSpace(name), "truth") }

// drawOrder is the order the curves are drawn in: the figure's, with the
// truth last, on top of the estimates.
func drawOrder(curves []curvePoints) []int {
	var order, last []int
	for i, c := range curves {
		if isTruth(c.c.Name) {
			last = append(last, i)
		} else {
			order = append(order, i)
		}
	}
	return append(order, last...)
}

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

// logTicks marks decades on a logarithmic axis, labelling 10^k (and 2 and 5
// times it, or every integer multiple, when that leaves fewer than three
// labels on the axis); an axis spanning less than a decade gets the round
// numbers of a linear axis.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi >= lo) || math.IsInf(hi, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	if hi < 10*lo {
		// Less than a decade: ordinary round numbers (0.7, 0.8, …, 1.4)
		// label it better than decades would.
		return niceTicks(lo, hi)
	}
	k0, k1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	inRange := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	if n := k1 - k0; n > 12 { // many decades: label every step-th, no minor ticks
		step := (n + 9) / 10
		var ticks []plot.Tick
		for k := k0; k <= k1; k++ {
			if v := math.Pow(10, float64(k)); inRange(v) {
				t := plot.Tick{Value: v}
				if (k-k0)%step == 0 {
					t.Label = tickLabel(1, k)
				}
				ticks = append(ticks, t)
			}
		}
		return labelTop(ticks, lo, hi)
	}
	for _, labelled := range [][]int{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		var ticks []plot.Tick
		nl := 0
		for k := k0; k <= k1; k++ {
			for m := 1; m <= 9; m++ {
				v := float64(m) * math.Pow(10, float64(k))
				if !inRange(v) {
					continue
				}
				t := plot.Tick{Value: v}
				for _, l := range labelled {
					if m == l {
						t.Label = tickLabel(m, k)
						nl++
					}
				}
				ticks = append(ticks, t)
			}
		}
		if nl >= 3 {
			return labelTop(ticks, lo, hi)
		}
	}
	return plot.DefaultTicks{}.Ticks(lo, hi)
}

// minTopGap is the least distance, as a fraction of a logarithmic axis,
// between the top tick and the label below it for both to be labelled.
const minTopGap = 0.08

// labelTop makes the highest tick of a logarithmic axis a labelled one,
// so that a reader sees what the top of the axis is worth: an unlabelled
// top tick (0.3 above the label 0.2) gets its label when it lies at least
// minTopGap of the axis above the last label, else the unlabelled ticks
// above the last label are dropped (2000 just above 1000).
func labelTop(ticks []plot.Tick, lo, hi float64) []plot.Tick {
	if len(ticks) == 0 || ticks[len(ticks)-1].Label != "" {
		return ticks
	}
	last := -1
	for i, t := range ticks {
		if t.Label != "" {
			last = i
		}
	}
	if last < 0 {
		return ticks
	}
	top := &ticks[len(ticks)-1]
	if math.Log10(top.Value/ticks[last].Value) >= minTopGap*math.Log10(hi/lo) {
		k := int(math.Floor(math.Log10(top.Value) + 1e-9))
		m := int(math.Round(top.Value / math.Pow(10, float64(k))))
		top.Label = tickLabel(m, k)
		return ticks
	}
	return ticks[:last+1]
}

// niceTicker marks a linear axis with niceTicks.
type niceTicker struct{}

func (niceTicker) Ticks(lo, hi float64) []plot.Tick { return niceTicks(lo, hi) }

// countTicker marks the linear count axis of a histogram: whole numbers
// only (0 1 2 3 pages, not 0.0 0.5 1.0 … 3.0).
type countTicker struct{}

func (countTicker) Ticks(lo, hi float64) []plot.Tick { return countTicks(lo, hi) }

// countTicks is niceTicks without fractional steps: below a span of 5 it
// labels every whole number in [lo, hi].
func countTicks(lo, hi float64) []plot.Tick {
	if hi-lo >= 5 {
		return niceTicks(lo, hi)
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo - 1e-9); v <= hi*(1+1e-9)+1e-9; v++ {
		if v == 0 {
			v = 0 // −0 from Ceil of a tiny negative prints as "-0"
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ticks
}

// niceTicks labels [lo, hi] with 3 to 7 round numbers spaced 1, 2, 2.5 or
// 5 × 10^k apart (decimals as the step needs: 0.25, 2.5, 25, 2,500;
// thousands separators from 10,000), with minor ticks halfway between
// labels and none above the last label, so the top tick is labelled.
func niceTicks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if !(span > 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	mag := math.Pow(10, math.Floor(math.Log10(span/5)))
	step, dec := 0.0, 0
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		step = m * mag
		dec = max(0, -int(math.Floor(math.Log10(step)+1e-9)))
		if m == 2.5 && step < 10 { // 0.25, 2.5: one decimal more; 25, 2500: none
			dec++
		}
		if span/step <= 7 {
			break
		}
	}
	var ticks []plot.Tick
	first := math.Ceil(lo/step - 1e-9)
	for i := 0; ; i++ {
		v := (first + float64(i)) * step
		if v > hi*(1+1e-9) {
			break
		}
		label := strconv.FormatFloat(v, 'f', dec, 64)
		if dec == 0 && math.Max(math.Abs(lo), math.Abs(hi)) >= 1e4 {
			label = strings.Replace(human.Comma(int64(math.Round(v))), "−", "-", 1)
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
		// A minor tick halfway to the next label, if that label is on
		// the axis: the top tick is always a labelled one.
		if next := v + step; next <= hi*(1+1e-9) {
			ticks = append(ticks, plot.Tick{Value: v + step/2})
		}
	}
	return ticks
}

// tickLabel prints m×10^k: plainly between 0.001 and 10,000, else as
// "10⁵" or "2×10⁻⁴".
func tickLabel(m, k int) string {
	if k >= -3 && k <= 4 {
		return strconv.FormatFloat(float64(m)*math.Pow(10, float64(k)), 'f', max(0, -k), 64)
	}
	e := "10" + superscript(k)
	if m == 1 {
		return e
	}
	return strconv.Itoa(m) + "×" + e
}

func superscript(k int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	sup := []rune(digits)
	var b strings.Builder
	if k < 0 {
		b.WriteRune('⁻')
		k = -k
	}
	for _, c := range strconv.Itoa(k) {
		b.WriteRune(sup[c-'0'])
	}
	return b.String()
}

// distinct counts the different points of xys.
func distinct(xys plotter.XYs) int {
	seen := map[plotter.XY]bool{}
	for _, p := range xys {
		seen[p] = true
	}
	return len(seen)
}

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
