package schedule

import (
	"math"
)

// real is the storage of knots and D values: float64 for in-memory
// problems, float32 for the compact store of large inputs (store.go). The
// arithmetic is float64 either way.
type real interface{ ~float32 | ~float64 }

// Curves holds the age distributions Ĝ_i of n pages as piecewise-linear
// functions through knots 0 < x_1 < … < x_K, with the implicit knot
// G(0) = 0 (an age distribution has no atom at 0). Page i's values are
// G[Off[i]:Off[i+1]] at the knots X[Off[i]:Off[i+1]], or at Grid when X
// is nil (every page on one shared grid, as a constant-Δ sampler gives;
// then Off[i+1] − Off[i] = len(Grid)). Flat slices, so that 18 M pages
// cost no per-page slice headers.
type Curves struct {
	Grid []float64
	X    []float64
	G    []float64
	Off  []int
}

// Len is the number of pages.
func (c *Curves) Len() int {
	if len(c.Off) == 0 {
		return 0
	}
	return len(c.Off) - 1
}

// knots returns page i's knots and values.
func (c *Curves) knots(i int) (x, g []float64) {
	a, b := c.Off[i], c.Off[i+1]
	if c.X == nil {
		return c.Grid, c.G[a:b]
	}
	return c.X[a:b], c.G[a:b]
}

// Concave projects the values g at knots x (ascending, > 0) onto the
// concave, non-decreasing functions with values in [0, 1] through the
// origin, in place: the least concave majorant of the points
// {(0, 0), (x_k, g_k)} on its grid (upper hull), made non-decreasing
// (flat after its maximum, which keeps it concave) and clipped to [0, 1]
// (a minimum of concave functions is concave). An age distribution G_U is
// concave, its density (1 − F_U(x))/E[U] never increasing; estimates need
// not be. NaN values are left as they are (the caller rejects them).
func Concave(x, g []float64) { concave(x, g, nil) }

// concave is Concave with a scratch slice for the hull (returned for
// reuse), so that projecting millions of pages allocates once.
func concave(x, g []float64, hull []int32) []int32 {
	n := len(g)
	if n == 0 {
		return hull
	}
	// Upper hull by a monotone chain over (0,0), (x_0,g_0), …; hull holds
	// indices into the points, -1 for the origin.
	hull = hull[:0]
	px := func(i int32) float64 {
		if i < 0 {
			return 0
		}
		return x[i]
	}
	py := func(i int32) float64 {
		if i < 0 {
			return 0
		}
		return g[i]
	}
	hull = append(hull, -1)
	for k := int32(0); k < int32(n); k++ {
		for len(hull) >= 2 {
			a, b := hull[len(hull)-2], hull[len(hull)-1]
			// b lies on or below the chord a→k: drop it.
			if (py(b)-py(a))*(px(k)-px(a)) <= (py(k)-py(a))*(px(b)-px(a)) {
				hull = hull[:len(hull)-1]
				continue
			}
			break
		}
		hull = append(hull, k)
	}
	// Evaluate the hull's chords at every knot, right to left so that
	// the values still needed (hull vertices) are not yet overwritten.
	h := len(hull) - 1
	for k := n - 1; k >= 0; k-- {
		for h > 0 && px(hull[h-1]) >= x[k] {
			h--
		}
		a, b := hull[h-1], hull[h]
		if int(b) == k {
			continue
		}
		xa, ya, xb, yb := px(a), py(a), px(b), py(b)
		g[k] = ya + (yb-ya)*(x[k]-xa)/(xb-xa)
	}
	run := 0.0
	for k := range g {
		run = math.Max(run, g[k])
		g[k] = math.Min(run, 1)
	}
	return hull
}

// ToD replaces the values g of a concave, non-decreasing Ĝ (after
// Concave) at knots x by D at the same knots, in place, and returns
// D(∞). D is the derivative of the freshness F in the visit rate, as a
// function of Δ = 1/f:
//
//	F'(f) = ∫₀^Δ (1 − G) − Δ(1 − G(Δ)) = ∫₀^Δ (G(Δ) − G(t)) dt = D(Δ),
//
// with dD/dΔ = Δ g(Δ) ≥ 0: on a segment of slope s starting at x_k,
// D(Δ) = D_k + s(Δ² − x_k²)/2. Beyond the last knot Ĝ goes on with its
// last slope until it reaches 1 (or stays flat if that slope is 0), so
// D(∞) = D_K + s(x*² − x_K²)/2 with x* = x_K + (1 − G_K)/s. D(∞) =
// F'(0⁺) is the largest marginal value of a visit: a page whose weighted
// D(∞) is below the multiplier gets no visits.
func ToD(x, g []float64) (dInf float64) {
	px, pg, d, s := 0.0, 0.0, 0.0, 0.0
	for k := range g {
		if x[k] > px {
			s = (g[k] - pg) / (x[k] - px)
		}
		d += s * (x[k]*x[k] - px*px) / 2
		px, pg = x[k], g[k]
		g[k] = d
	}
	if s > 0 && pg < 1 {
		xs := px + (1-pg)/s
		d += s * (xs*xs - px*px) / 2
	}
	return d
}

// invD solves D(Δ) = t on knots x with D values d (ToD) and D(∞) = dInf:
// +Inf when t ≥ dInf (no visit is worth its cost), 0 when t ≤ 0.
func invD[T real](x, d []T, dInf, t float64) float64 {
	if !(t > 0) {
		return 0
	}
	if t >= dInf {
		return math.Inf(1)
	}
	// first k with d[k] ≥ t (sort.SearchFloat64s)
	k, hi := 0, len(d)
	for k < hi {
		h := int(uint(k+hi) >> 1)
		if !(float64(d[h]) >= t) {
			k = h + 1
		} else {
			hi = h
		}
	}
	var x0, d0 float64
	var x1, d1 float64
	switch {
	case k < len(d):
		if k > 0 {
			x0, d0 = float64(x[k-1]), float64(d[k-1])
		}
		x1, d1 = float64(x[k]), float64(d[k])
	default: // beyond the last knot: the extension with the last slope
		n := len(d)
		x1, d1 = float64(x[n-1]), float64(d[n-1])
		if n > 1 {
			x0, d0 = float64(x[n-2]), float64(d[n-2])
		}
		// s from the last segment; D(Δ) = d1 + s(Δ² − x1²)/2.
		s := 2 * (d1 - d0) / (x1*x1 - x0*x0)
		return math.Sqrt(x1*x1 + 2*(t-d1)/s)
	}
	s := 2 * (d1 - d0) / (x1*x1 - x0*x0)
	return math.Sqrt(x0*x0 + 2*(t-d0)/s)
}

// gAt recovers Ĝ(Δ) and H(Δ) = ∫₀^Δ (1 − Ĝ) from the D values (ToD) by
// walking the segments: s_k = 2(D_k − D_{k−1})/(x_k² − x_{k−1}²).
func gAt[T real](x, d []T, delta float64) (g, h float64) {
	px, pd, s := 0.0, 0.0, 0.0
	for k := range d {
		xk, dk := float64(x[k]), float64(d[k])
		if xk > px {
			s = 2 * (dk - pd) / (xk*xk - px*px)
		}
		if delta <= xk {
			return segment(g, h, s, delta-px)
		}
		g, h = segment(g, h, s, xk-px)
		px, pd = xk, dk
	}
	// Extension with the last slope, capped at 1.
	return segment(g, h, s, delta-px)
}

// segment advances (Ĝ, H) over a length l of slope s, Ĝ capped at 1.
func segment(g, h, s, l float64) (float64, float64) {
	if s > 0 && g+s*l > 1 {
		m := (1 - g) / s // reaches 1 after m
		return 1, h + m*(1-g) - s*m*m/2
	}
	return g + s*l, h + l*(1-g) - s*l*l/2
}
