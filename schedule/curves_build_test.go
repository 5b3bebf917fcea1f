package schedule

import (
	"slices"
	"testing"
)

// The builder shares one grid while pages agree (empty pages get zeros
// on it) and switches to per-page knots when one differs, keeping every
// page's knots and values.
func TestCurveBuilder(t *testing.T) {
	type pg struct{ x, g []float64 }
	pages := []pg{
		{nil, nil},
		{[]float64{1, 2}, []float64{0.3, 0.6}},
		{nil, nil},
		{[]float64{1, 2}, []float64{0.5, 0.7}},
	}
	b := newCurveBuilder()
	for _, p := range pages[:4] {
		b.add(p.x, p.g)
	}
	c := b.curves()
	if c.X != nil || !slices.Equal(c.Grid, []float64{1, 2}) || c.Len() != 4 {
		t.Fatalf("shared: %+v", c)
	}
	want := [][]float64{{0, 0}, {0.3, 0.6}, {0, 0}, {0.5, 0.7}}
	for i, w := range want {
		if _, g := c.knots(i); !slices.Equal(g, w) {
			t.Errorf("shared page %d: %v, want %v", i, g, w)
		}
	}
	b.add([]float64{0.5, 1, 4}, []float64{0.1, 0.2, 0.9})
	b.add(nil, nil)
	c = b.curves()
	if c.Grid != nil || c.Len() != 6 {
		t.Fatalf("per page: %+v", c)
	}
	wantX := [][]float64{{1, 2}, {1, 2}, {1, 2}, {1, 2}, {0.5, 1, 4}, {}}
	want = append(want, []float64{0.1, 0.2, 0.9}, []float64{})
	for i := range wantX {
		x, g := c.knots(i)
		if !slices.Equal(x, wantX[i]) || !slices.Equal(g, want[i]) {
			t.Errorf("per-page page %d: %v %v, want %v %v", i, x, g, wantX[i], want[i])
		}
	}
}
