package replay

import (
	"github.com/revisit-dev/revisit/estimator"
	"math/rand/v2"
)

// updateSource yields update times in increasing order; ok is false after
// the last one.
type updateSource interface{ next() (t float64, ok bool) }

// sliceUpdates yields the update times of a stored page.
type sliceUpdates struct {
	t []float64
	i int
}

func (s *sliceUpdates) next() (float64, bool) {
	if s.i >= len(s.t) {
		return 0, false
	}
	s.i++
	return s.t[s.i-1], true
}

// renewalUpdates yields the updates of a renewal process that starts with
// an update at 0 and has i.i.d. intervals from dist; it never ends (the
// crawl stops at its window end). Sum records the intervals drawn so the
// caller can check the path.
type renewalUpdates struct {
	next_ func(*rand.Rand) float64
	r     *rand.Rand
	cur   float64
	first bool
}

func (s *renewalUpdates) next() (float64, bool) {
	if !s.first {
		s.first = true
		return 0, true
	}
	s.cur += s.next_(s.r)
	return s.cur, true
}

// crawl is the one merge pass of SPEC §4 over sorted update times and visit
// times: O(updates + visits), no search per visit. The first update is the
// start of the window; visits after end are not made. It returns the number
// of visits. Every estimator.PollEvery steps it asks gd (nil: never) whether to stop
// (context cancelled, limits exceeded) and then returns gd's reason.
func crawl(up updateSource, vis visitSource, end float64, obs []estimator.Observer, gd *estimator.Guard) (int, error) {
	cur, ok := up.next()
	if !ok {
		return 0, nil
	}
	nxt, more := up.next()
	prevS, havePrev := 0.0, false // the previous visit, if any was drawn
	var cycle int64
	prev := int64(-1)
	j := 0
	steps := 0
	o := new(estimator.Obs) // one for all visits (observers do not keep it): &Obs{} per visit would escape, 48 bytes each
	for s := vis.next(); s <= end; s = vis.next() {
		if steps++; steps%estimator.PollEvery == 0 {
			if err := gd.Poll(j); err != nil {
				return j, err
			}
		}
		if s < cur { // before the window: not a visit
			prevS, havePrev = s, true
			continue
		}
		for more && nxt <= s {
			cur = nxt
			cycle++
			nxt, more = up.next()
			if steps++; steps%estimator.PollEvery == 0 {
				if err := gd.Poll(j); err != nil {
					return j, err
				}
			}
		}
		if !havePrev {
			prevS = vis.before() // the virtual visit before the first
		}
		*o = estimator.Obs{J: j, S: s, A: s - cur, Cycle: cycle, Q: j > 0 && cycle != prev, Prev: prevS}
		for _, e := range obs {
			e.Observe(o)
		}
		prev, prevS, havePrev = cycle, s, true
		j++
	}
	return j, gd.Poll(j)
}
