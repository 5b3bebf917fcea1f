package reports

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// box is a rectangle in the SVG's drawing coordinates (points, y up: the
// figure's content sits in one group that flips y).
type box struct{ x0, y0, x1, y1 float64 }

// overlaps says whether a and b share more than the 0.01 pt the SVG's
// five significant digits may shift an edge by.
func (a box) overlaps(b box) bool {
	const eps = 0.01
	return a.x0+eps < b.x1 && b.x0+eps < a.x1 && a.y0+eps < b.y1 && b.y0+eps < a.y1
}

// svgText is one <text> of an SVG: its content and its box, measured with
// the font metrics gonum/plot lays text out with (Liberation Sans at the
// text's size), widened by widen (textSlack for a legend's labels).
type svgText struct {
	s string
	b box
}

var (
	svgSize    = regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`)
	textElem   = regexp.MustCompile(`(?s)<text x="([-0-9.e]+)" y="([-0-9.e]+)" transform="scale\(1, -1\)"(.*?)>(.*?)</text>`)
	fontSize   = regexp.MustCompile(`font-size:([0-9.]+)px`)
	rotated    = regexp.MustCompile(`(?s)<g transform="rotate\([^"]*\)">.*?</g>`)
	legendElem = regexp.MustCompile(`(?s)<g class="legend">(.*?)</g>`)
	pathElem   = regexp.MustCompile(`<path d="([^"]*)"`)
	number     = regexp.MustCompile(`-?[0-9.]+(?:e-?[0-9]+)?`)
)

// svgWidth is the width of an SVG in points.
func svgWidth(t *testing.T, svg string) float64 {
	t.Helper()
	m := svgSize.FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no <svg width height> in %.200s", svg)
	}
	w, _ := strconv.ParseFloat(m[1], 64)
	return w
}

// texts are the unrotated <text> elements of s (the y axis label,
// rotated, is left out), each measured as gonum/plot measures it, times
// widen.
func texts(t *testing.T, s string, widen float64) []svgText {
	t.Helper()
	s = rotated.ReplaceAllString(s, "")
	var out []svgText
	for _, m := range textElem.FindAllStringSubmatch(s, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		size := 10.0
		if fs := fontSize.FindStringSubmatch(m[3]); fs != nil {
			size, _ = strconv.ParseFloat(fs[1], 64)
		}
		str := html.UnescapeString(m[4])
		sty := text.Style{Font: font.From(sans, vg.Length(size)), Handler: plot.DefaultTextHandler}
		e := sty.FontExtents()
		w := float64(sty.Width(str)) * widen
		// The text is drawn flipped back: its baseline is at −y.
		out = append(out, svgText{str, box{x, -y - float64(e.Descent), x + w, -y + float64(e.Ascent)}})
	}
	return out
}

// swatches are the boxes of the paths (swatches) of one legend group.
func swatches(g string) []box {
	var out []box
	for _, m := range pathElem.FindAllStringSubmatch(g, -1) {
		b := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
		// Commands M x,y / L x,y / A rx,ry rot large sweep x,y: every
		// end point, and for arcs (glyphs) a radius around it.
		for _, seg := range regexp.MustCompile(`[MLAZ][^MLAZ]*`).FindAllString(m[1], -1) {
			v := number.FindAllString(seg, -1)
			var f []float64
			for _, s := range v {
				x, _ := strconv.ParseFloat(s, 64)
				f = append(f, x)
			}
			pad := 0.0
			if seg[0] == 'A' && len(f) >= 7 {
				pad = f[0]
				f = f[5:7]
			}
			for i := 0; i+1 < len(f); i += 2 {
				b.x0, b.x1 = math.Min(b.x0, f[i]-pad), math.Max(b.x1, f[i]+pad)
				b.y0, b.y1 = math.Min(b.y0, f[i+1]-pad), math.Max(b.y1, f[i+1]+pad)
			}
		}
		if b.x0 <= b.x1 {
			out = append(out, b)
		}
	}
	return out
}

// checkLabels checks an SVG as a viewer sees it: every label lies inside
// its width (a legend's labels even drawn textSlack wider, as a fallback
// font may), every legend has as many labels as want (or more, wrapped
// names taking two lines) and no label of a legend overlaps another label
// or a swatch. It returns the legends' labels.
func checkLabels(t *testing.T, name, svg string) []string {
	t.Helper()
	w := svgWidth(t, svg)
	for _, tx := range texts(t, svg, 1) {
		if tx.b.x0 < 0 || tx.b.x1 > w {
			t.Errorf("%s: label %q spans x = %.1f…%.1f, outside the figure's width %.1f", name, tx.s, tx.b.x0, tx.b.x1, w)
		}
	}
	var labels []string
	for _, g := range legendElem.FindAllStringSubmatch(svg, -1) {
		ts, sw := texts(t, g[1], textSlack), swatches(g[1])
		for i, a := range ts {
			labels = append(labels, a.s)
			if a.b.x1 > w {
				t.Errorf("%s: legend label %q, %g× wider, ends at x = %.1f, beyond the figure's width %.1f", name, a.s, textSlack, a.b.x1, w)
			}
			for _, b := range ts[i+1:] {
				if a.b.overlaps(b.b) {
					t.Errorf("%s: legend labels %q and %q overlap", name, a.s, b.s)
				}
			}
			for _, s := range sw {
				if a.b.overlaps(s) {
					t.Errorf("%s: legend label %q (%.1f…%.1f, %g× wider) overlaps a swatch at %.1f…%.1f", name, a.s, a.b.x0, a.b.x1, textSlack, s.x0, s.x1)
				}
			}
		}
		for i, a := range sw {
			for _, b := range sw[i+1:] {
				if a.overlaps(b) && !(a == b) {
					t.Errorf("%s: two swatches overlap: %v, %v", name, a, b)
				}
			}
		}
	}
	return labels
}

// Legends as a viewer sees them: a label never runs off the figure, even
// a page title too long for a line (the legend of acf_closest on Yelp
// business names, cut at the right edge before) or in a font 25 % wider
// than the layout's; a label never covers a swatch, however wide the
// font (the right-hand legends of nhpp_top_counts and cov_histogram,
// whose right-aligned labels ran over their swatches in DejaVu Sans).
func TestLegendLabelsInsideAndApart(t *testing.T) {
	long := "The Original Pancake House and Family Restaurant of Greater Springfield, Downtown Location (est. 1953)"
	var acf []tables.Curve
	for i, title := range []string{long, "skwiki", "Anarchism", "Talk:Pilsbury Block", "iswiki"} {
		k := []float64{1, 2, 3, 5, 8, 13, 21, 34, 55, 89}
		var rho, fit []float64
		for _, x := range k {
			rho = append(rho, 0.5*math.Pow(x, -0.3)*(1+0.1*float64(i)))
			fit = append(fit, 0.5*math.Pow(x, -0.3))
		}
		acf = append(acf, tables.Curve{Name: fmt.Sprintf("%s (v = 1.%d3)", title, i), X: k, Y: rho, Points: true},
			tables.Curve{Name: fmt.Sprintf("%s fit, γ = 0.69 (H: too few (104 < 128 intervals))", title), X: k, Y: fit, Dashed: true})
	}
	var tm, n []float64
	for i := range 50 {
		tm = append(tm, float64(i))
		n = append(n, 8000*(1-math.Exp(-float64(i)/15)))
	}
	edges, counts := []float64{}, []float64{}
	for i := range 50 {
		edges = append(edges, float64(i)/10)
		counts = append(counts, float64((i*7)%5))
	}
	counts[49] = 6
	figs := []tables.Figure{
		{ID: "acf_closest", XLabel: "lag k", YLabel: "ρ(k)", LogX: true, LogY: true, YKind: tables.YCorrelation, Curves: acf},
		// Data rising to the top right: the legend goes bottom right.
		{ID: "nhpp_top_counts", XLabel: "time since the first update", XUnit: "h", YLabel: "updates N(t)", Curves: []tables.Curve{
			{Name: "updates", X: tm, Y: n, Step: true}, {Name: "Weibull corrected, per window", X: tm, Y: n, Dashed: true}}},
		// Bars everywhere but the top right.
		{ID: "cov_histogram", XLabel: "v = sd(U)/E[U]", YLabel: "pages", Bars: true, Curves: []tables.Curve{{Name: "pages", X: edges, Y: counts, OpenLast: true}}},
	}
	want := map[string]int{"acf_closest": 10, "nhpp_top_counts": 2, "cov_histogram": 1}
	for _, f := range sampleFigures() {
		if Unplottable(&f) == "" {
			figs = append(figs, f)
		}
	}
	figs = append(figs, tables.Figure{ID: "many", Curves: manyCurves(12)})
	for _, f := range figs {
		svg, _, err := SVG(&f)
		if err != nil {
			t.Fatal(err)
		}
		labels := checkLabels(t, f.ID, string(svg))
		if len(labels) < want[f.ID] {
			t.Errorf("%s: %d legend labels, want at least %d (one per curve): %q", f.ID, len(labels), want[f.ID], labels)
		}
		if f.ID == "acf_closest" && !strings.Contains(strings.Join(labels, " "), long+" (v = 1.03)") {
			t.Errorf("acf_closest: the long title is not in the legend whole: %q", labels)
		}
	}
}

// yTickLabels are the labelled ticks of p's y axis between its bounds.
func yTickLabels(p *plot.Plot) map[float64]string {
	out := map[float64]string{}
	for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if tk.Label != "" {
			out[tk.Value] = tk.Label
		}
	}
	return out
}

// A correlation's axis stays within [−1, 1]: a power-law fit c·k^{−γ}
// with c = 3, γ = 1/2 (3 at k = 1, as acf_closest drew up to ρ = 3) is
// cut where it crosses 1, at k = c^{1/γ} = 9 exactly on log-log axes
// (the line is straight there), and nothing beyond is drawn; on a
// linear axis the bound is −1 below as well. The data, within
// [−1, 1], are untouched.
func TestCorrelationAxisClipsFits(t *testing.T) {
	var k, rho, fit []float64
	for x := 1.0; x <= 100; x++ {
		k = append(k, x)
		rho = append(rho, 0.6*math.Pow(x, -0.4))
		fit = append(fit, 3*math.Pow(x, -0.5))
	}
	f := tables.Figure{ID: "acf", XLabel: "lag k", YLabel: "ρ(k)", LogX: true, LogY: true, YKind: tables.YCorrelation,
		Curves: []tables.Curve{{Name: "page (v = 1.00)", X: k, Y: rho, Points: true}, {Name: "page fit, H = 0.75", X: k, Y: fit, Dashed: true}}}
	p, _, notes, err := buildPlot(&f)
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Max > 1 {
		t.Errorf("correlation axis up to %g, want at most 1", p.Y.Max)
	}
	for v, l := range yTickLabels(p) {
		if v > 1 {
			t.Errorf("correlation axis labelled %q at %g > 1", l, v)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "[−1, 1]") {
		t.Errorf("notes %q, want one saying the fit was cut at the range of a correlation", notes)
	}
	clipped, out := clipY(plotterXYs(k, fit), -1, 1, false, true, true)
	if out != 8 { // k = 1 … 8 lie above 1
		t.Errorf("%d points beyond 1, want 8", out)
	}
	if first := clipped[0]; math.Abs(first.X-9) > 1e-9 || first.Y != 1 {
		t.Errorf("the fit starts at (%g, %g), want the crossing (9, 1)", first.X, first.Y)
	}
	if n := len(clipped); n != 92 || clipped[n-1].X != 100 {
		t.Errorf("%d points kept ending at k = %g, want 92 (9…100)", n, clipped[n-1].X)
	}
	// Linear axes: the line y = 2x − 3 from x = 0 to 4 keeps (1, −1) …
	// (2, 1).
	lin, _ := clipY(plotterXYs([]float64{0, 4}, []float64{-3, 5}), -1, 1, false, false, false)
	if len(lin) != 2 || lin[0].X != 1 || lin[0].Y != -1 || lin[1].X != 2 || lin[1].Y != 1 {
		t.Errorf("linear clip = %v, want (1, −1) (2, 1)", lin)
	}
	// Points beyond the bounds are dropped, not moved.
	pts, out := clipY(plotterXYs([]float64{1, 2, 3}, []float64{0.5, 1.5, -0.2}), -1, 1, true, false, false)
	if len(pts) != 2 || out != 1 {
		t.Errorf("points clip kept %v (%d out), want 2 kept, 1 out", pts, out)
	}
}

// A distribution function's axis shows where it starts and ends: a
// linear axis is labelled at 0 and 1 (F(x) of top_f_from_m2 from 0.15 to
// 1 was labelled 0.2 … 1.0), a logarithmic one (a survival function)
// ends at a labelled 1 (top_g_m3_m4's ended at 0.9).
func TestProbabilityAxisLabelsZeroAndOne(t *testing.T) {
	x := []float64{0.004, 0.01, 0.1, 1, 10, 50}
	lin := tables.Figure{ID: "f", LogX: true, XLabel: "interval x", YLabel: "F(x)", YKind: tables.YProbability,
		Curves: []tables.Curve{{Name: "M2", X: x, Y: []float64{0.15, 0.3, 0.6, 0.9, 0.99, 1}}}}
	logy := tables.Figure{ID: "g", LogX: true, LogY: true, XLabel: "age x", YLabel: "1 − G(x)", YKind: tables.YProbability,
		Curves: []tables.Curve{{Name: "truth", X: x, Y: []float64{0.93, 0.8, 0.4, 0.1, 0.01, 0.001}}}}
	for _, c := range []struct {
		f    tables.Figure
		want []float64
	}{{lin, []float64{0, 1}}, {logy, []float64{1}}} {
		p, _, _, err := buildPlot(&c.f)
		if err != nil {
			t.Fatal(err)
		}
		labels := yTickLabels(p)
		for _, v := range c.want {
			l, ok := labels[v]
			if !ok {
				t.Errorf("%s: y axis %g…%g has no label at %g: %v", c.f.ID, p.Y.Min, p.Y.Max, v, labels)
				continue
			}
			if got, err := strconv.ParseFloat(l, 64); err != nil || got != v {
				t.Errorf("%s: the label at %g reads %q", c.f.ID, v, l)
			}
		}
		svg, _, err := SVG(&c.f)
		if err != nil {
			t.Fatal(err)
		}
		checkLabels(t, c.f.ID, string(svg))
	}
}

// Negative numbers in a figure's text are set with the minus sign U+2212:
// a fit's γ = −0.01 in its legend (acf_closest printed "-0.01") and the
// tick labels of a negative axis; hyphens stay hyphens (COVID-19, G-M4,
// dates).
func TestFigureTextMinusSign(t *testing.T) {
	f := tables.Figure{ID: "m", XLabel: "lag k", YLabel: "ρ(k)", Curves: []tables.Curve{
		{Name: "COVID-19 fit, γ = -0.01 (H = 1.01 outside [0, 1]: not a valid Hurst exponent)", X: []float64{1, 2, 3}, Y: []float64{-0.5, 0.1, 0.4}},
		{Name: "G-M4", X: []float64{1, 2, 3}, Y: []float64{-0.2, 0, 0.2}}}}
	svg, _, err := SVG(&f)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, tx := range texts(t, string(svg), 1) {
		all = append(all, tx.s)
		if regexp.MustCompile(`(^|[^\pL\pN.)\]])-[.]?[0-9]`).MatchString(tx.s) {
			t.Errorf("text %q has a hyphen-minus for a minus sign", tx.s)
		}
	}
	joined := strings.Join(all, "|")
	for _, want := range []string{"γ = −0.01", "COVID-19", "G-M4", "−0.4"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %q among the SVG's texts %q", want, all)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"-0.01", "−0.01"}, {"[-1, 1]", "[−1, 1]"}, {"x = -.5", "x = −.5"}, {"2020-01-23", "2020-01-23"},
		{"COVID-19", "COVID-19"}, {"1e-05", "1e-05"}, {"k^{-γ}", "k^{-γ}"}, {"a - b", "a - b"}, {"(-3)", "(−3)"},
	} {
		if got := minusSigns(c.in); got != c.want {
			t.Errorf("minusSigns(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func plotterXYs(x, y []float64) plotter.XYs {
	out := make(plotter.XYs, len(x))
	for i := range x {
		out[i] = plotter.XY{X: x[i], Y: y[i]}
	}
	return out
}

// wrapText keeps every character, breaks at spaces, cuts a word longer
// than a line, and ends even when a line has no room for one character.
func TestWrapText(t *testing.T) {
	sty := text.Style{Font: font.From(sans, 10), Handler: plot.DefaultTextHandler}
	for _, c := range []struct {
		s    string
		room vg.Length
	}{
		{"short", 1000}, {"The Original Pancake House and Family Restaurant of Greater Springfield", 120},
		{"Donaudampfschifffahrtsgesellschaftskapitänsmütze fit, H = 0.61", 60}, {"abc def", 0.5},
	} {
		lines := wrapText(sty, c.s, c.room)
		if strings.ReplaceAll(strings.Join(lines, ""), " ", "") != strings.ReplaceAll(c.s, " ", "") {
			t.Errorf("wrap(%q, %g) = %q loses characters", c.s, c.room, lines)
		}
		for _, l := range lines {
			if slackWidth(sty, l) > c.room && len([]rune(l)) > 1 {
				t.Errorf("wrap(%q, %g): line %q is %.1f wide", c.s, c.room, l, slackWidth(sty, l))
			}
		}
	}
}
