package replay

import (
	"cmp"
	"slices"

	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/series"
)

// The default method comparison rests on a seeded random sample of the
// pages with enough intervals to be evidence (Options.Sample), not on
// the busiest pages: the busiest pages of a corpus are not a sample of
// it, and a mean error over them says nothing of the others. The sample
// is a simple random sample without replacement: the Sample eligible
// pages with the smallest keys SampleKey(seed, id), a hash of the page id
// and --seed. So it depends on nothing but the seed and the eligible
// pages (not on their order, nor on how they are split into shards: a
// shard keeps its own smallest keys, and the merge the smallest of
// those), and the mean over the sampled pages estimates the mean over
// every eligible page without bias, which the intervals over pages of
// analysis are about. It is not stratified: strata by activity would
// need weights in every mean and interval, and a simple sample already
// spreads over the pages in proportion. The sampled pages are replayed
// busiest first, as --top orders them, so that the figures and the pages
// keeping full curves are the busiest of the sample.

// Skip reasons of pages left out of a sample (Meta.Skipped).
const (
	SkipFewIntervals = "fewer_intervals_than_sample" // fewer than SampleIntervals intervals: not eligible
	SkipNotInSample  = "not_in_sample"               // eligible, not drawn
)

// SampleKey is the sampling key of page id under seed:
// SplitMix64(id ⊕ SplitMix64(seed ⊕ 0x53616d706c65)) ("Sample"); the
// Sample eligible pages with the smallest keys are the sample.
func SampleKey(seed uint64, id int64) uint64 {
	return shard.Hash(id ^ int64(shard.Hash(int64(seed^0x53616d706c65))))
}

// smallestKeys keeps the n values offered with the smallest keys, in
// ascending order of key.
type smallestKeys[T any] struct {
	n    int
	keys []uint64
	vals []T
}

// Offer considers v with key key (kept as given).
func (k *smallestKeys[T]) Offer(key uint64, v T) {
	if len(k.keys) == k.n && (k.n == 0 || key >= k.keys[k.n-1]) {
		return
	}
	i, _ := slices.BinarySearch(k.keys, key)
	k.keys = slices.Insert(k.keys, i, key)
	k.vals = slices.Insert(k.vals, i, v)
	if len(k.keys) > k.n {
		k.keys, k.vals = k.keys[:k.n], k.vals[:k.n]
	}
}

// sampleKeeper keeps the n pages with the smallest sampling keys offered
// to it.
type sampleKeeper struct {
	seed uint64
	smallestKeys[series.Page]
}

func newSampleKeeper(n int, seed uint64) *sampleKeeper {
	return &sampleKeeper{seed: seed, smallestKeys: smallestKeys[series.Page]{n: n}}
}

// Offer considers one page (copied when kept).
func (k *sampleKeeper) Offer(p *series.Page) { k.smallestKeys.Offer(SampleKey(k.seed, p.ID), *p) }

// Pages returns the sampled pages busiest first (transform.TopKeeper's
// order: most updates, then the smaller id).
func (k *sampleKeeper) Pages() []series.Page {
	out := slices.Clone(k.vals)
	slices.SortFunc(out, func(a, b series.Page) int {
		return cmp.Or(cmp.Compare(len(b.Updates), len(a.Updates)), cmp.Compare(a.ID, b.ID))
	})
	return out
}
