package schedule

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// ReadTruth reads a dataset's pages with their exact age distributions
// over the dataset's span, for the oracle plan: each page's time-average
// age distribution over [first update, last update] of all pages
// (WindowCurve: its intervals, and the quiet time from its last update to
// the end of the span, and before its first update as age +∞), exact and
// piecewise linear, and λ = its updates over the span. unit is seconds
// per unit.
func ReadTruth(dir string, unit float64) (*Input, error) {
	src, err := OpenTruth(dir, unit)
	if err != nil {
		return nil, err
	}
	return src.read()
}

// OpenTruth opens a dataset as a Source of its pages' exact age
// distributions over its span (see ReadTruth).
func OpenTruth(dir string, unit float64) (*Source, error) {
	if _, err := dataset.Open(dir); err != nil {
		return nil, err
	}
	return &Source{dir: dir, truth: true, Unit: unit, UnitName: transform.UnitName(unit), Method: "truth", Desc: "exact age distributions over the span of the dataset " + dir}, nil
}

func (s *Source) eachTruth(fn PageFunc) error {
	ds, err := dataset.Open(s.dir)
	if err != nil {
		return err
	}
	first, last, ok, err := ds.Span()
	if err != nil {
		return fmt.Errorf("schedule: %w", err)
	}
	if !ok {
		return fmt.Errorf("schedule: dataset %s: no pages", s.dir)
	}
	if last <= first {
		return fmt.Errorf("schedule: dataset %s: the updates span no time", s.dir)
	}
	t1 := float64(last-first) / s.Unit
	var times []float64
	var sp SourcePage
	err = ds.Each(func(p *series.Page) error {
		times = times[:0]
		for _, u := range p.Updates {
			times = append(times, float64(u-first)/s.Unit)
		}
		x, g, lambda := WindowCurve(times, 0, t1)
		sp = SourcePage{ID: p.ID, Title: p.Title, X: x, G: g, Lambda: lambda, Watched: t1}
		return fn(&sp)
	})
	if err != nil {
		return fmt.Errorf("schedule: %w", err)
	}
	return nil
}

// EachName streams the pages' ids and titles in the order of Each; for a
// dataset without decoding the updates or building the curves
// (dataset.Reader.EachHead), for estimates by Each.
func (s *Source) EachName(fn func(id int64, title string) error) error {
	if !s.truth {
		return s.Each(func(p *SourcePage) error { return fn(p.ID, p.Title) })
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

// WindowCurve is the exact time-average age distribution of a page over
// the window [t0, t1) (SPEC §4.6): Ĝ(x) = |{t ∈ [t0, t1) : A(t) ≤ x}| /
// (t1 − t0), A(t) the time since the last update at or before t, +∞
// before the first (times ascending, in units; updates before t0 count:
// they set the age at t0). It counts the head (t0 to the first update in
// the window, at the age carried in from before t0), every interval, and
// the tail (the last update to t1, where the page stays quiet); time
// before the page's first update counts as age +∞, so Ĝ(∞) < 1 then. For
// any updates, stationary or not, a page visited every Δ with a uniform
// phase is fresh a fraction (1/Δ)∫₀^Δ (1 − Ĝ) of the window (Realized
// computes the same number from the updates). Each stretch between
// updates, of ages [p, q], adds slope 1/(t1 − t0) on [p, q], so Ĝ is
// piecewise linear with knots at the stretches' ends; it need not be
// concave (the head starts at an age p > 0). The last knot repeats the
// value of the one before, so that Ĝ stays flat beyond it (Curves go on
// with their last slope). λ is the number of updates in [t0, t1) over
// t1 − t0, the initial slope ĝ(0⁺) and the Poisson rate's censored MLE
// (events over exposure, the quiet tail included). x and g are empty
// when no update lies before t1 (the page is fresh all along).
func WindowCurve(times []float64, t0, t1 float64) (x, g []float64, lambda float64) {
	T := t1 - t0
	if !(T > 0) {
		return nil, nil, 0
	}
	j := sort.Search(len(times), func(k int) bool { return times[k] > t0 }) - 1 // last update ≤ t0
	if j < 0 {
		j = 0 // no update at or before t0: the stretch before the first is age +∞
		if len(times) == 0 || times[0] >= t1 {
			return nil, nil, 0
		}
	}
	// Every stretch but the head starts at age 0 and ends at its length q;
	// the head, when the last update before t0 is before it, has ages
	// [hp, hq] with hp > 0.
	hp, hq := math.Inf(1), math.Inf(1)
	var q []float64
	n := 0
	for ; j < len(times) && times[j] < t1; j++ {
		b := t1
		if j+1 < len(times) {
			b = math.Min(t1, times[j+1])
		}
		switch {
		case times[j] >= t0:
			n++
			if b > times[j] {
				q = append(q, b-times[j])
			}
		case b > t0:
			hp, hq = t0-times[j], b-times[j]
		}
	}
	slices.Sort(q)
	// Sweep the breakpoints in order: the slope (in stretches) starts at
	// len(q), falls by one at each q, rises by one at hp and falls at hq.
	x = make([]float64, 0, len(q)+3)
	g = make([]float64, 0, len(q)+3)
	at, slope, v := 0.0, float64(len(q)), 0.0
	step := func(to, d float64) {
		if to > at {
			v = math.Min(1, v+slope*(to-at)/T) // ≤ 1 up to rounding
			at = to
			if len(x) > 0 && x[len(x)-1] == at {
				g[len(g)-1] = v
			} else {
				x, g = append(x, at), append(g, v)
			}
		}
		slope += d
	}
	head := [2]struct{ at, d float64 }{{hp, 1}, {hq, -1}}
	k := 0 // the next of the head's two breakpoints
	for _, e := range q {
		for ; k < 2 && head[k].at <= e; k++ {
			step(head[k].at, head[k].d)
		}
		step(e, -1)
	}
	for ; k < 2 && !math.IsInf(head[k].at, 1); k++ {
		step(head[k].at, head[k].d)
	}
	if len(x) == 0 {
		return nil, nil, float64(n) / T
	}
	x, g = append(x, 2*x[len(x)-1]), append(g, g[len(g)-1])
	return x, g, float64(n) / T
}
