package schedule

import (
	"fmt"
	"slices"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// ReadTruth reads a dataset's pages with their true age distributions,
// for the oracle plan: G_U(x) = Σ_i min(U_i, x) / Σ_i U_i of each page's
// intervals (SPEC §3) is piecewise linear with knots at the distinct
// intervals, so it is represented exactly, and λ = 1/E[U]. Pages with
// fewer than 2 updates have no interval and are planned like pages that
// never changed. unit is seconds per unit.
func ReadTruth(dir string, unit float64) (*Input, error) {
	ds, err := dataset.Open(dir)
	if err != nil {
		return nil, err
	}
	in := &Input{Unit: unit, UnitName: transform.UnitName(unit), Method: "truth", Source: "true G_U of the dataset " + dir}
	b := newCurveBuilder()
	err = ds.Each(func(p *series.Page) error {
		x, g, lambda, note := TrueCurve(p.Updates, unit)
		in.IDs = append(in.IDs, p.ID)
		in.Titles = append(in.Titles, p.Title)
		in.Lambda = append(in.Lambda, lambda)
		in.Note = append(in.Note, note)
		b.add(x, g)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	if len(in.IDs) == 0 {
		return nil, fmt.Errorf("schedule: dataset %s: no pages", dir)
	}
	in.Curves = b.curves()
	return in, nil
}

// TrueCurve is the exact G_U of update times (Unix seconds, ascending) in
// a unit: knots at the distinct intervals, values from transform.AgeCDF,
// and λ = n/Σ U_i; a note when there is no interval.
func TrueCurve(updates []int64, unit float64) (x, g []float64, lambda float64, note string) {
	u := transform.Intervals(updates, unit)
	if len(u) == 0 {
		return nil, nil, 0, "fewer than 2 updates"
	}
	x = slices.Clone(u)
	slices.Sort(x)
	x = slices.Compact(x)
	if x[0] <= 0 { // distinct updates give positive intervals; be safe
		x = x[1:]
	}
	g = transform.AgeCDF(u, x).P
	return x, g, 1 / transform.MeanInterval(u), ""
}
