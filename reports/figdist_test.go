package reports

import (
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

// A distribution function is drawn on [0, 1] whatever its values: a flat
// 0 (a URL with no change seen: rate 0, G_U = 0 on its grid) gets the
// axis of a probability, not the −1…1 the data alone would give.
func TestDistributionAxisIsZeroOne(t *testing.T) {
	flat := tables.Curve{Name: "poisson-mle", X: []float64{0, 1, 2, 3}, Y: []float64{0, 0, 0, 0}}
	for _, dist := range []bool{false, true} {
		f := tables.Figure{ID: "g", XLabel: "x", XUnit: "h", YLabel: "G_U(x)", Curves: []tables.Curve{flat}}
		if dist {
			f.YKind = tables.YProbability
		}
		p, _, _, err := buildPlot(&f)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Y.Min == 0 && p.Y.Max == 1; got != dist {
			t.Errorf("distribution %v: y axis %g…%g", dist, p.Y.Min, p.Y.Max)
		}
	}
}
