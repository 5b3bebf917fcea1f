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
	src, err := OpenTruth(dir, unit)
	if err != nil {
		return nil, err
	}
	return src.read()
}

// OpenTruth opens a dataset as a Source of its pages' true G_U (see
// ReadTruth).
func OpenTruth(dir string, unit float64) (*Source, error) {
	if _, err := dataset.Open(dir); err != nil {
		return nil, err
	}
	return &Source{dir: dir, truth: true, Unit: unit, UnitName: transform.UnitName(unit), Method: "truth", Desc: "true G_U of the dataset " + dir}, nil
}

func (s *Source) eachTruth(fn PageFunc) error {
	ds, err := dataset.Open(s.dir)
	if err != nil {
		return err
	}
	pages := 0
	err = ds.Each(func(p *series.Page) error {
		x, g, lambda, note := TrueCurve(p.Updates, s.Unit)
		pages++
		return fn(p.ID, p.Title, x, g, lambda, note)
	})
	if err != nil {
		return fmt.Errorf("schedule: %w", err)
	}
	if pages == 0 {
		return fmt.Errorf("schedule: dataset %s: no pages", s.dir)
	}
	return nil
}

// EachName streams the pages' ids and titles in the order of Each; for a
// dataset without decoding the updates or building the curves
// (dataset.Reader.EachHead), for estimates by Each.
func (s *Source) EachName(fn func(id int64, title string) error) error {
	if !s.truth {
		return s.Each(func(id int64, title string, _, _ []float64, _ float64, _ string) error { return fn(id, title) })
	}
	ds, err := dataset.Open(s.dir)
	if err != nil {
		return err
	}
	err = ds.EachHead(func(h dataset.PageHead) error {
		if err := s.stopped(); err != nil {
			return err
		}
		return fn(h.ID, h.Title)
	})
	if err != nil {
		return fmt.Errorf("schedule: %w", err)
	}
	return nil
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
