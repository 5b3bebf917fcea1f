package reports

// Lines: thinning a long line to what the eye resolves, and the shaded
// band (YLo to YHi) of a curve that has one.

import (
	"image/color"
	"math"

	"github.com/revisit-dev/revisit/internal/tables"
	"gonum.org/v1/plot/plotter"
)

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

// clipY keeps what of xys lies within lo ≤ y ≤ hi. As points (points),
// those outside are dropped; as a line, a segment that crosses a bound
// ends on it, at the crossing interpolated in plot coordinates (log10 on
// a log axis, where a power law is straight), and what lies beyond is
// dropped (a line that leaves and comes back is joined along the bound).
// out counts the points dropped.
func clipY(xys plotter.XYs, lo, hi float64, points, logX, logY bool) (kept plotter.XYs, out int) {
	in := func(y float64) bool { return y >= lo && y <= hi }
	for _, p := range xys {
		if !in(p.Y) {
			out++
		}
	}
	if out == 0 {
		return xys, 0
	}
	if points {
		for _, p := range xys {
			if in(p.Y) {
				kept = append(kept, p)
			}
		}
		return kept, out
	}
	tx, ix := func(v float64) float64 { return v }, func(v float64) float64 { return v }
	ty, iy := tx, ix
	if logX {
		tx, ix = math.Log10, func(v float64) float64 { return math.Pow(10, v) }
	}
	tlo, thi := lo, hi
	if logY {
		ty, iy = math.Log10, func(v float64) float64 { return math.Pow(10, v) }
		tlo, thi = math.Inf(-1), math.Log10(hi) // a log axis holds no y ≤ 0
	}
	for i, b := range xys {
		if i == 0 {
			if in(b.Y) {
				kept = append(kept, b)
			}
			continue
		}
		a := xys[i-1]
		ya, yb := ty(a.Y), ty(b.Y)
		t0, t1 := 0.0, 1.0
		if ya != yb {
			tl, th := (tlo-ya)/(yb-ya), (thi-ya)/(yb-ya)
			t0, t1 = max(0, min(tl, th)), min(1, max(tl, th))
		} else if !in(a.Y) {
			continue
		}
		if t0 > t1 {
			continue // the segment lies beyond a bound
		}
		at := func(t float64) plotter.XY {
			xa, xb := tx(a.X), tx(b.X)
			// Clamped: a crossing lies on its bound, not a rounding off it.
			return plotter.XY{X: ix(xa + t*(xb-xa)), Y: min(hi, max(lo, iy(ya+t*(yb-ya))))}
		}
		if t0 > 0 && t0 < 1 {
			kept = append(kept, at(t0)) // entering (at t0 = 1, b itself)
		}
		if t1 < 1 {
			kept = append(kept, at(t1))
		} else {
			kept = append(kept, b)
		}
	}
	return kept, out
}
