package replay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/series"
)

// observedID is the URL of a replayed page in the observation logs.
func observedID(pageID int64) string { return fmt.Sprintf("revisit.invalid/page/%d", pageID) }

// ObservedID is the id replay --write-observations gives a page in its
// logs (a host-and-path URL without white space).
func ObservedID(pageID int64) string { return observedID(pageID) }

// recorder keeps the visit times and update cycles of one crawl.
type recorder struct {
	s     []float64
	cycle []int64
	prev0 float64
	limit int
	over  bool
}

func (r *recorder) Observe(o *estimator.Obs) {
	if o.J == 0 {
		r.prev0 = o.Prev
	}
	if len(r.s) >= r.limit {
		r.over = true
		return
	}
	r.s = append(r.s, o.S)
	r.cycle = append(r.cycle, o.Cycle)
}

// observePage crawls page p with sampler s as a replay does, and keeps
// what the crawler saw as format can carry it (series.Observed, whole
// seconds: ⌊s_j⌋, kept inside the visit's update cycle, several visits in
// one second merged into the last; the previous visit before the first,
// where the page did not exist yet, so that the first visit detects its
// creation; Last-Modified only for formats with ages). The estimates are
// EstimateObserved's on exactly that, followed by the truth rows on the
// same grid; a crawl without a visit gives the truth rows only and no
// observations (nil). t and iv are p's update times and intervals in unit
// (transform.Times, transform.Intervals).
func observePage(ctx context.Context, p *series.Page, t, iv []float64, unit float64, s estimator.Sampler, cfg *estimator.Config, r *rand.Rand, gd *estimator.Guard, format string) ([]estimator.Estimate, *series.Observed, error) {
	rec := &recorder{limit: estimator.MaxObservedVisits}
	n, err := crawl(&sliceUpdates{t: t}, newVisitGen(s, r), t[len(t)-1], []estimator.Observer{rec}, gd)
	if err != nil {
		return nil, nil, err
	}
	if rec.over {
		return nil, nil, &estimator.LimitError{Reason: estimator.SkipMaxVisits, Work: float64(n), Limit: estimator.MaxObservedVisits}
	}
	u := p.Updates
	u0 := u[0]
	o := &series.Observed{ID: observedID(p.ID), Ages: logs.HasAges(format), HasPrev: true, FirstChanged: true,
		Prev: u0 + int64(math.Floor(rec.prev0*unit))}
	var cyc []int64
	for j, sj := range rec.s {
		c := rec.cycle[j]
		ts := u0 + int64(math.Floor(sj*unit))
		ts = max(ts, u[c]) // ⌊s_j⌋ never before the update the crawler saw
		if int(c)+1 < len(u) {
			ts = min(ts, u[c+1]-1) // nor at the next one
		}
		if k := len(o.Visits); k > 0 && o.Visits[k-1].T == ts {
			cyc[k-1] = c // the last visit of the second
			o.Visits[k-1].LastMod = u[c]
			continue
		}
		o.Visits = append(o.Visits, series.Visit{T: ts, LastMod: u[c]})
		cyc = append(cyc, c)
	}
	if len(o.Visits) > 0 && o.Prev >= o.Visits[0].T {
		o.Prev = o.Visits[0].T - 1
	}
	for j := range o.Visits {
		o.Visits[j].Changed = j > 0 && cyc[j] != cyc[j-1]
		if !o.Ages {
			o.Visits[j].LastMod = 0
		}
	}
	if len(o.Visits) == 0 { // no visit in the window (a first visit U·S_0 after the last update): nothing seen
		return truthFromIntervals(iv, estimator.Grid(s.Step(cfg.H), cfg.XMax), s, 0), nil, nil
	}
	o.Visits[0].Changed = true
	oc := estimator.ObservedConfig{Config: *cfg, Unit: unit, Sampler: s.Spec}
	if gd != nil {
		oc.MaxPairs = gd.MaxPairs()
	}
	est, info, err := estimator.EstimateObserved(ctx, o, oc)
	if err != nil {
		if errors.Is(err, estimator.ErrFewVisits) {
			return truthFromIntervals(iv, estimator.Grid(s.Step(cfg.H), cfg.XMax), s, len(o.Visits)), o, nil
		}
		return nil, nil, err
	}
	est = append(est, truthFromIntervals(iv, estimator.Grid(info.Step, info.XMax), s, len(o.Visits))...)
	return est, o, nil
}
