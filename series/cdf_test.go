package series

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Hand-computed: H = (0, .5, 1), G = (0, .25, 1):
// Σ|H−G| = 0.25, Σ(H+G)/2 = (0 + .375 + 1) = 1.375, so w = 0.25/1.375;
// κ = 0.25.
func TestWMRDAndKS(t *testing.T) {
	h, g := []float64{0, .5, 1}, []float64{0, .25, 1}
	if w := WMRD(h, g); math.Abs(w-0.25/1.375) > 1e-15 {
		t.Errorf("WMRD = %v", w)
	}
	if k := KS(h, g); k != 0.25 {
		t.Errorf("KS = %v", k)
	}
	for _, bad := range [][2][]float64{{nil, nil}, {{1}, {1, 2}}, {{0, 0}, {0, 0}}} {
		if !math.IsNaN(WMRD(bad[0], bad[1])) {
			t.Errorf("WMRD(%v, %v) not NaN", bad[0], bad[1])
		}
	}
	if !math.IsNaN(KS([]float64{0, math.NaN()}, []float64{0, 1})) {
		t.Error("KS of an undefined estimate is not NaN")
	}
}

func TestCDFAtAndLinear(t *testing.T) {
	c := CDF{X: []float64{0, 1, 2}, P: []float64{0, 0.5, 1}}
	for _, tc := range []struct{ x, at, lin float64 }{
		{-1, 0, 0}, {0, 0, 0}, {0.5, 0, 0.25}, {1, 0.5, 0.5}, {1.5, 0.5, 0.75}, {3, 1, 1},
	} {
		if got := c.At(tc.x); got != tc.at {
			t.Errorf("At(%g) = %g, want %g", tc.x, got, tc.at)
		}
		if got := c.Linear(tc.x); got != tc.lin {
			t.Errorf("Linear(%g) = %g, want %g", tc.x, got, tc.lin)
		}
	}
}

// AtEach and LinearEach walk the grid; their values must be those of At
// and Linear, point for point, on ascending points (grid points, points
// between and outside them), on points that go back or are NaN, and on
// grids that are not ascending (where the walk gives way to the search).
func TestAtEachLinearEachEqualPointwise(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	nan := math.NaN()
	grids := []CDF{
		{X: []float64{0, 1, 2}, P: []float64{0, 0.5, 1}},
		{X: []float64{0, 0.25, 0.25, 1, 3}, P: []float64{0, 0.1, 0.2, 0.7, 1}}, // a repeated point
		{X: []float64{2}, P: []float64{0.3}},
		{},
		{X: []float64{0, 2, 1, 3}, P: []float64{0, 0.2, 0.4, 1}}, // not ascending
		{X: []float64{0, nan, 2}, P: []float64{0, 0.5, 1}},
	}
	for k := 0; k < 200; k++ { // random grids with NaN values
		n := 1 + r.IntN(20)
		c := CDF{X: make([]float64, n), P: make([]float64, n)}
		x := r.Float64() - 0.5
		for i := range c.X {
			c.X[i], c.P[i] = x, r.Float64()
			if r.IntN(10) == 0 {
				c.P[i] = nan
			}
			x += float64(r.IntN(3)) * r.Float64()
		}
		grids = append(grids, c)
	}
	for gi, c := range grids {
		var xs []float64
		for _, x := range c.X {
			xs = append(xs, x, x+1e-9)
		}
		xs = append(xs, -1, 0, 0.5, 1, 1.5, 2, 2.5, 3, 4)
		slices.Sort(xs)
		for k := 0; k < 50; k++ {
			xs = append(xs, xs[len(xs)-1]+r.Float64())
		}
		back := append(slices.Clone(xs), 0.7, 0.2, 5, math.Inf(1), math.Inf(-1), 1)
		for _, pts := range [][]float64{xs, back, append(slices.Clone(back), nan, 0.5)} {
			at := c.AtEach(pts)
			for k, x := range pts {
				if a, b := c.At(x), at[k]; !(a == b || a != a && b != b) {
					t.Fatalf("grid %d %v: AtEach at %g = %g, At = %g", gi, c.X, x, b, a)
				}
			}
			if slices.ContainsFunc(pts, math.IsNaN) {
				continue // Linear(NaN) is not defined (it indexes past the grid)
			}
			lin := c.LinearEach(pts)
			for k, x := range pts {
				if a, b := c.Linear(x), lin[k]; !(a == b || a != a && b != b) {
					t.Fatalf("grid %d %v: LinearEach at %g = %g, Linear = %g", gi, c.X, x, b, a)
				}
			}
		}
	}
}

// KS is math.Max of the distances, NaN and +Inf included: +Inf wins over
// NaN, NaN over any number, in any order.
func TestKSAsMathMax(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range [][]float64{{0.1, 0.3, 0.2}, {0.1, nan, 0.2}, {nan, inf, 0.5}, {inf, nan}, {0, 0}, {-0.5, 0.25}} {
		g := make([]float64, len(c))
		want := 0.0
		for _, d := range c {
			want = math.Max(want, math.Abs(d))
		}
		if got := KS(c, g); !(got == want || got != got && want != want) {
			t.Errorf("KS(%v) = %g, want %g", c, got, want)
		}
	}
}
