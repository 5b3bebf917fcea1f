package replay

import (
	"slices"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimates"
)

// fullCurves says which pages keep their whole curves (Options.Curves):
// every page (all), the first n pages of the replay's own ranking (the
// Top pages it keeps, most updates first: ranked), or the pages of ids,
// the n busiest of the dataset found by a pass over its update counts
// (dataset.Reader.EachHead) before the replay
// (a streaming replay, or a shard, which must agree with the unsharded
// replay on pages it does not see).
type fullCurves struct {
	all    bool
	ranked int
	ids    map[int64]bool
}

// keep reports whether page id, the rank-th of the replay's ranking (−1
// when the replay streams), keeps its whole curves.
func (f *fullCurves) keep(id int64, rank int) bool {
	switch {
	case f.all:
		return true
	case f.ids != nil:
		return f.ids[id]
	default:
		return rank >= 0 && rank < f.ranked
	}
}

// chooseFullCurves decides fullCurves: with compact curves, the n busiest
// pages (transform.TopKeeper's order: most updates, then the smaller id)
// among those with at least minUpdates and 2 updates. ranked says that the
// replay ranks every eligible page itself (Top, unsharded), so that no
// pass is needed.
//
// With a sample (sample.n > 0), which only a shard asks of it, every page
// that is among the n busiest of the sample's pages up to its own
// sampling key keeps its curves whole: a superset of the n busiest of the
// whole dataset's sample among ds's pages, which is all a shard reading
// its own parts can know (Merge compacts the others; fullCurvesOf).
func chooseFullCurves(ds *dataset.Reader, c estimates.Curves, n int, ranked bool, minUpdates int, sample sampleSpec) (*fullCurves, error) {
	if c == estimates.CurvesFull {
		return &fullCurves{all: true}, nil
	}
	if n == 0 || ranked {
		return &fullCurves{ranked: n}, nil
	}
	keep := newTopIDs(n)
	sampled := smallestKeys[topID]{n: sample.n}
	// Only the page_id, title and n_updates columns: the updates are not
	// decoded.
	if err := ds.EachHead(func(h dataset.PageHead) error {
		if h.Updates < int64(minUpdates) || h.Updates < 2 {
			return nil
		}
		if sample.n == 0 {
			keep.offer(h.ID, int(h.Updates))
			return nil
		}
		if h.Updates-1 < int64(sample.intervals) {
			return nil
		}
		sampled.Offer(SampleKey(sample.seed, h.ID), topID{h.ID, int(h.Updates)})
		return nil
	}); err != nil {
		return nil, err
	}
	f := &fullCurves{ids: map[int64]bool{}}
	if sample.n > 0 {
		// The whole sample's pages among ds's are those of ds's sample
		// below some sampling key, a prefix of sampled.vals (in key
		// order), whose busiest are among the pages that enter the
		// busiest so far as the prefix grows.
		for _, d := range sampled.vals {
			keep.offer(d.id, d.updates)
			if slices.ContainsFunc(keep.top, func(e topID) bool { return e.id == d.id }) {
				f.ids[d.id] = true
			}
		}
		return f, nil
	}
	for _, e := range keep.top {
		f.ids[e.id] = true
	}
	return f, nil
}

// topIDs keeps the ids of the n pages with the most updates, in
// transform.TopKeeper's order, without keeping the pages.
type topIDs struct {
	n   int
	top []topID // best first
}

type topID struct {
	id      int64
	updates int
}

func newTopIDs(n int) *topIDs { return &topIDs{n: n} }

func (k *topIDs) offer(id int64, updates int) {
	e := topID{id, updates}
	before := func(a, b topID) bool { // a ranks before b
		if a.updates != b.updates {
			return a.updates > b.updates
		}
		return a.id < b.id
	}
	if len(k.top) == k.n && !before(e, k.top[k.n-1]) {
		return
	}
	i := len(k.top)
	for i > 0 && before(e, k.top[i-1]) {
		i--
	}
	k.top = append(k.top, topID{})
	copy(k.top[i+1:], k.top[i:])
	k.top[i] = e
	if len(k.top) > k.n {
		k.top = k.top[:k.n]
	}
}

// sampleSpec is a replay's sample (Options.Sample, SampleIntervals, Seed);
// n = 0 without one.
type sampleSpec struct {
	n, intervals int
	seed         uint64
}
