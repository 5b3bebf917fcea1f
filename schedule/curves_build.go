package schedule

import "slices"

// curveBuilder collects pages' knots and values into Curves, sharing one
// grid for as long as every page has the same knots (constant-Δ
// samplers) and switching to per-page knots when one differs.
type curveBuilder struct {
	c      Curves
	shared bool
}

func newCurveBuilder() *curveBuilder {
	return &curveBuilder{c: Curves{Off: []int{0}}, shared: true}
}

// add appends a page (x, g may be empty: Ĝ ≡ 0 on no knots). In shared
// mode a page without knots gets zeros on the shared grid.
func (b *curveBuilder) add(x, g []float64) {
	c := &b.c
	n := c.Len()
	if b.shared {
		switch {
		case len(x) == 0 && c.Grid != nil:
			c.G = append(c.G, make([]float64, len(c.Grid))...)
			c.Off = append(c.Off, len(c.G))
			return
		case len(x) == 0:
			// no grid yet: an empty page, given zeros once a grid comes
			c.Off = append(c.Off, len(c.G))
			return
		case c.Grid == nil:
			c.Grid = slices.Clone(x)
			// earlier empty pages get zeros on this grid
			for i := 0; i < n; i++ {
				c.G = append(c.G, make([]float64, len(x))...)
				c.Off[i+1] = len(c.G)
			}
			c.G = append(c.G, g...)
			c.Off = append(c.Off, len(c.G))
			return
		case slices.Equal(x, c.Grid):
			c.G = append(c.G, g...)
			c.Off = append(c.Off, len(c.G))
			return
		}
		// Switch to per-page knots.
		b.shared = false
		c.X = make([]float64, 0, len(c.G)+len(x))
		for i := 0; i < n; i++ {
			if c.Off[i+1] > c.Off[i] {
				c.X = append(c.X, c.Grid...)
			}
		}
		c.Grid = nil
	}
	c.X = append(c.X, x...)
	c.G = append(c.G, g...)
	c.Off = append(c.Off, len(c.G))
}

func (b *curveBuilder) curves() Curves {
	if b.shared && b.c.Grid == nil {
		// No page had knots: per-page (empty) knots.
		b.c.X = []float64{}
	}
	return b.c
}
