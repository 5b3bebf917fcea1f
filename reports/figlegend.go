package reports

// Legends: inside the plot in the emptiest corner when short and small,
// below it in one or two columns otherwise. revisit draws them itself
// (not with gonum's plot.Legend) so that a viewer's font cannot push a
// label over a swatch or off the figure: every swatch sits left of its
// text, the text is left-aligned after it, and the room a label is given
// is its width in the layout's font times textSlack.

import (
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legendEntry is one entry of a legend: a curve's name and its swatch.
type legendEntry struct {
	name  string
	thumb plot.Thumbnailer
}

// Legend geometry: the swatch's width, the gap between swatch and text,
// the space between entries, and the inset of a legend from the plot's
// edges.
const (
	swatchWidth = vg.Length(20)
	swatchGap   = vg.Length(4)
	entryGap    = vg.Length(3)
	legendInset = vg.Length(6)
)

// textSlack is how much wider than the layout measures it (Liberation
// Sans, gonum's font) a label may be drawn by a viewer: the SVG names
// Liberation Sans, then Arial and Helvetica, which share its metrics, but a
// viewer with none of them falls back to another sans-serif, and DejaVu
// Sans, the usual one on Linux, is up to 23 % wider.
const textSlack = 1.25

// legendBox is a legend laid out: each entry's name wrapped into lines
// that fit the width it was given.
type legendBox struct {
	sty     text.Style
	entries []legendEntry
	lines   [][]string
}

// newLegendBox lays out entries in sty so that no line of text, widened
// by textSlack, makes the box wider than maxW: longer names are wrapped
// at spaces (a word longer than the line, at characters).
func newLegendBox(sty text.Style, entries []legendEntry, maxW vg.Length) legendBox {
	b := legendBox{sty: sty, entries: entries}
	room := maxW - swatchWidth - swatchGap
	for _, e := range entries {
		b.lines = append(b.lines, wrapText(sty, e.name, room))
	}
	return b
}

// slackWidth is the room a line of text is given: its width times
// textSlack.
func slackWidth(sty text.Style, s string) vg.Length { return sty.Width(s) * textSlack }

// wrapText splits s into lines whose slackWidth is at most room.
func wrapText(sty text.Style, s string, room vg.Length) []string {
	if slackWidth(sty, s) <= room {
		return []string{s}
	}
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		next := w
		if cur != "" {
			next = cur + " " + w
		}
		if slackWidth(sty, next) <= room {
			cur = next
			continue
		}
		if cur != "" {
			lines = append(lines, cur)
		}
		// A word too long for a line of its own is cut where it fills
		// one (after one character at least).
		for r := []rune(w); len(r) > 1 && slackWidth(sty, w) > room; r = []rune(w) {
			n := len(r) - 1
			for n > 1 && slackWidth(sty, string(r[:n])) > room {
				n--
			}
			lines = append(lines, string(r[:n]))
			w = string(r[n:])
		}
		cur = w
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// lineHeight is the height of one line of legend text: the font's
// ascent, descent and line gap.
func (b legendBox) lineHeight() vg.Length { return b.sty.FontExtents().Height }

// size is the box's width (the widest line with its slack, after the
// swatch) and height.
func (b legendBox) size() (w, h vg.Length) {
	for i, ls := range b.lines {
		for _, l := range ls {
			w = max(w, swatchWidth+swatchGap+slackWidth(b.sty, l))
		}
		h += vg.Length(len(ls)) * b.lineHeight()
		if i > 0 {
			h += entryGap
		}
	}
	return w, h
}

// draw draws the box with its top left corner at (x, top), inside a
// group that SVG marks <g class="legend">.
func (b legendBox) draw(c draw.Canvas, x, top vg.Length) {
	c.Push()
	c.Translate(vg.Point{})
	defer c.Pop()
	lh := b.lineHeight()
	sty := b.sty
	sty.XAlign, sty.YAlign = draw.XLeft, 0
	y := top
	for i, e := range b.entries {
		icon := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: y - lh}, Max: vg.Point{X: x + swatchWidth, Y: y}}}
		e.thumb.Thumbnail(&icon)
		for _, l := range b.lines[i] {
			// The baseline is y − ascent; plain text puts a one-line
			// text's baseline at pt.Y + size − ascent.
			c.FillText(sty, vg.Point{X: x + swatchWidth + swatchGap, Y: y - sty.Font.Size}, l)
			y -= lh
		}
		y -= entryGap
	}
}

// legendGroupOpen is how vgsvg writes legendBox's group, and
// legendGroupClass what SVG makes of it.
const (
	legendGroupOpen  = `<g transform="translate(0, 0)">`
	legendGroupClass = `<g class="legend">`
)

// belowLegends lays a long legend out below the plot, in a strip of width
// w: two columns when every name fits in half of it, else one column
// whose longer names wrap.
func belowLegends(sty text.Style, entries []legendEntry, w vg.Length) []legendBox {
	if len(entries) == 0 {
		return nil
	}
	cols := 2
	for _, e := range entries {
		if swatchWidth+swatchGap+slackWidth(sty, e.name) > w/2 {
			cols = 1
		}
	}
	rows := (len(entries) + cols - 1) / cols
	var out []legendBox
	for i := range cols {
		part := entries[min(i*rows, len(entries)):min((i+1)*rows, len(entries))]
		out = append(out, newLegendBox(sty, part, w/vg.Length(cols)))
	}
	return out
}

// maxInsideLegend is the longest legend drawn inside the plot area, and
// insideWidth and insideHeight the largest share of the data area's
// width and height a legend may take there (the corner legendCorner
// chooses is a third of each axis).
const (
	maxInsideLegend = 5
	insideWidth     = 0.45
	insideHeight    = 0.4
)

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
