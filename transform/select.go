package transform

import (
	"cmp"
	"slices"

	"github.com/revisit-dev/revisit/series"
)

// TopN returns the n pages with the most updates, most first; ties are
// broken by page id so the choice is reproducible. pages is not modified.
func TopN(pages []series.Page, n int) []series.Page {
	idx := make([]int, len(pages))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(len(pages[b].Updates), len(pages[a].Updates)); c != 0 {
			return c
		}
		return cmp.Compare(pages[a].ID, pages[b].ID)
	})
	if n > len(idx) || n < 0 {
		n = len(idx)
	}
	out := make([]series.Page, n)
	for i := range out {
		out[i] = pages[idx[i]]
	}
	return out
}

// AtLeast returns the pages with at least k updates, in their order.
func AtLeast(pages []series.Page, k int) []series.Page {
	var out []series.Page
	for _, p := range pages {
		if len(p.Updates) >= k {
			out = append(out, p)
		}
	}
	return out
}

// TopKeeper keeps the n pages with the most updates seen so far while
// pages stream past, so a selection over a large dataset needs memory for n
// pages only.
type TopKeeper struct {
	n     int
	pages []series.Page // sorted: most updates first
}

// NewTopKeeper keeps at most n pages.
func NewTopKeeper(n int) *TopKeeper { return &TopKeeper{n: n} }

// Offer considers one page.
func (k *TopKeeper) Offer(p *series.Page) {
	less := func(a, b *series.Page) bool { // a ranks before b
		if len(a.Updates) != len(b.Updates) {
			return len(a.Updates) > len(b.Updates)
		}
		return a.ID < b.ID
	}
	if len(k.pages) == k.n && (k.n == 0 || !less(p, &k.pages[k.n-1])) {
		return
	}
	i, _ := slices.BinarySearchFunc(k.pages, p, func(e series.Page, t *series.Page) int {
		if less(&e, t) {
			return -1
		}
		return 1
	})
	k.pages = slices.Insert(k.pages, i, *p)
	if len(k.pages) > k.n {
		k.pages = k.pages[:k.n]
	}
}

// Pages returns the kept pages, most updates first.
func (k *TopKeeper) Pages() []series.Page { return k.pages }

// Aggregate concatenates the intervals of all pages (in unit): the mixture
// in which every interval of every page counts once (SPEC §3).
func Aggregate(pages []series.Page, unit float64) []float64 {
	var out []float64
	for _, p := range pages {
		out = append(out, Intervals(p.Updates, unit)...)
	}
	return out
}
