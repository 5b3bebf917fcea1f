package reports

import (
	"math"

	"github.com/revisit-dev/revisit/internal/tables"
)

// Hand-made fixtures. The expected renderings of each cell are derived by
// hand in format_test.go and checked in the golden files.

// Anarchism's history (SOURCES.md): first revision 2001-10-11T20:18:47Z =
// 1002831527 s, last 2010-02-02T03:43:07Z = 1265082187 s (date -u +%s),
// lifetime 262250660 s = 8.31 years of 365.25 days.
func corpusTable() tables.Table {
	return tables.Table{
		ID:      "corpus",
		Title:   "Corpus summary",
		Source:  "dataset demo-out/dataset (2 inputs), seed 1, λ = 2/h, h = 0.05 h",
		Section: 1,
		Notes:   []string{"Pages with fewer than 2 updates are dropped (counted above).", "Rows with a | in a title stay in one cell."},
		Columns: []tables.Column{
			{Name: "page", Kind: tables.String},
			{Name: "updates", Kind: tables.Int, Doc: "revisions after collapsing same-second ones"},
			{Name: "share", Kind: tables.Percent},
			{Name: "size", Kind: tables.Bytes},
			{Name: "lifetime T", Kind: tables.Seconds},
			{Name: "first", Kind: tables.Time},
			{Name: "E[U]", Unit: "h", Kind: tables.Float},
		},
		Rows: [][]any{
			{"Anarchism", int64(15180), 0.254, int64(1910314), 262250660.0, int64(1002831527), 4.80123},
			{"pipe | name", int64(1234567), math.NaN(), int64(0), 2700.0, int64(1704067200), 0.000012346},
			{"Δ ≤ λ_x & 50% {#1}", int64(0), 1.0, int64(999999999), 276480.0, int64(1265082187), 12345.678},
			{"short row", int64(-42), 0.0, int64(-1500), -17280.0},
		},
	}
}

// emptyTable has no rows, notes only.
func emptyTable() tables.Table {
	return tables.Table{
		ID: "empty", Title: "Poisson screen: pages with |v − 1| ≤ 0.1", Section: 4, Order: 2,
		Source: "pages with ≥ 100 updates",
		Notes:  []string{"No page passed the screen."},
		Columns: []tables.Column{
			{Name: "page", Kind: tables.String},
			{Name: "v", Kind: tables.Float, Doc: "coefficient of variation sd(U)/E[U]"},
		},
	}
}

// Figures covering every way of drawing: log-log step curve with a dashed
// fit and non-positive points, linear points, histogram bars on a log y
// axis with an empty bin, a narrow log range, and a figure with no
// positive point at all.
func sampleFigures() []tables.Figure {
	var x, y, fx, fy []float64
	for i := 0; i < 5000; i++ { // Pareto α=1.5, β=1 tail on a grid, 5,000 points (thinned when drawn)
		v := float64(i) * 0.2
		x = append(x, v)
		y = append(y, math.Pow(1+v, -1.5))
	}
	for k := -2.0; k <= 3; k += 0.25 {
		v := math.Pow(10, k)
		fx = append(fx, v)
		fy = append(fy, math.Exp(-v/3))
	}
	return []tables.Figure{
		{ID: "tail", Title: "Aggregate tail F̄_U(x)", Source: "dataset demo", Section: 3, Order: 1,
			XLabel: "interval x (hours)", YLabel: "P(U > x)", LogX: true, LogY: true,
			Caption: "Step: empirical; dashed: fits",
			Curves: []tables.Curve{
				{Name: "empirical", X: x, Y: y, Step: true},
				{Name: "exponential fit", X: fx, Y: fy, Dashed: true},
				{Name: "Pareto fit", X: []float64{0.01, 1000}, Y: []float64{math.Pow(1.01, -1.5), math.Pow(1001, -1.5)}, Dashed: true},
			}},
		{ID: "acf", Title: "ACF of intervals", Section: 4, Order: 3, XLabel: "lag k", YLabel: "ρ(k)",
			Curves: []tables.Curve{{Name: "ρ(k)", X: []float64{1, 2, 3, 4}, Y: []float64{0.5, 0.3, -0.1, 0.05}, Points: true},
				{Name: "c k^−γ", X: []float64{1, 4}, Y: []float64{0.5, 0.125}, Dashed: true}}},
		{ID: "cov-hist", Title: "CoV histogram", Section: 4, Order: 1, XLabel: "v", YLabel: "pages", LogY: true, Bars: true,
			Curves: []tables.Curve{{Name: "pages", X: []float64{0, 0.5, 1, 1.5, 2}, Y: []float64{3, 10, 0, 4, 1}}}},
		{ID: "narrow", Title: "Narrow log range", Section: 6, XLabel: "x (h)", YLabel: "G_U(x)", LogX: true, LogY: true,
			Curves: []tables.Curve{{Name: "G_U", X: []float64{2, 3, 5, 8}, Y: []float64{0.3, 0.4, 0.5, 0.6}, Step: true}}},
		{ID: "many", Title: "Eight curves: legend below the plot", Section: 5, XLabel: "T", YLabel: "WMRD", LogX: true, LogY: true,
			Curves: manyCurves(8)},
		{ID: "nothing", Title: "Nothing positive", Section: 0, XLabel: "T", YLabel: "WMRD", LogX: true, LogY: true,
			Curves: []tables.Curve{{Name: "M1", X: []float64{0, -1}, Y: []float64{1, 2}}}},
		// Anarchism's staleness ECDFs over its one page: a point per curve.
		{ID: "one-point", Title: "Cost of assuming Poisson over one page", Section: 7, XLabel: "ratio", YLabel: "fraction of pages ≤ x", LogX: true,
			Curves: []tables.Curve{{Name: "S", X: []float64{0.42}, Y: []float64{1}, Step: true}, {Name: "Δ", X: []float64{2.5}, Y: []float64{1}, Step: true}}},
		// Yelp's CoV histogram: no page has enough updates.
		{ID: "empty-hist", Title: "CoV of no page", Section: 4, Order: 5, XLabel: "v", YLabel: "pages", Bars: true,
			Curves: []tables.Curve{{Name: "pages", X: []float64{0, 0.1, 0.2}, Y: []float64{0, 0, 0}}}},
		// Anarchism's CoV histogram: one page, in the last bin.
		{ID: "one-count", Title: "CoV of one page", Section: 4, Order: 6, XLabel: "v", YLabel: "pages", Bars: true,
			Curves: []tables.Curve{{Name: "pages", X: []float64{0, 0.1, 0.2}, Y: []float64{0, 0, 1}}}},
		// A line and a lone point: drawn, the point as a glyph.
		{ID: "line-and-point", Title: "A line and a lone point", Section: 7, Order: 2, XLabel: "x", YLabel: "y",
			Curves: []tables.Curve{{Name: "line", X: []float64{0, 1, 2}, Y: []float64{0, 1, 4}}, {Name: "point", X: []float64{1.5}, Y: []float64{2}}}},
	}
}

func sampleBundle() *tables.Bundle {
	return &tables.Bundle{Tables: []tables.Table{corpusTable(), emptyTable()}, Figures: sampleFigures()}
}

// manyCurves makes n power laws y = k·x^(−1/2), k = 1…n, half of them
// dashed, with names long enough to force a single legend column.
func manyCurves(n int) []tables.Curve {
	var out []tables.Curve
	for k := 1; k <= n; k++ {
		c := tables.Curve{Name: "method number " + string(rune('0'+k)) + " with a rather long descriptive name", Dashed: k%2 == 0}
		for _, x := range []float64{100, 1000, 10000, 100000} {
			c.X = append(c.X, x)
			c.Y = append(c.Y, float64(k)/math.Sqrt(x))
		}
		out = append(out, c)
	}
	return out
}
