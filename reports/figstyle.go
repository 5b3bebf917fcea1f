package reports

// Figure styling: the palette, dash patterns, glyphs and font, the fixed
// style of each method, policy and fit family, the style of every other
// curve, and the order curves are drawn in (the truth on top).

import (
	"image/color"
	"strings"

	"github.com/revisit-dev/revisit/internal/tables"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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
