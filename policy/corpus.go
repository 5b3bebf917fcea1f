package policy

import (
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/series"
)

// Grouping names how pages are grouped into sites.
const (
	ByGroup     = "group"     // series.Page.Group (Wikipedia namespace or wiki, Yelp city, top directory)
	ByNamespace = "namespace" // series.Page.Namespace
	BySource    = "source"    // series.Page.Source
	ByHash      = "hash"      // "hash:K": K synthetic sites by a hash of the page id and title
)

// SiteKey returns the function that names a page's site for a grouping
// spec: "group", "namespace", "source" or "hash:K".
func SiteKey(spec string) (func(p *series.Page) string, error) {
	switch {
	case spec == "" || spec == ByGroup:
		return func(p *series.Page) string {
			if p.Group == "" {
				return "(none)"
			}
			return p.Group
		}, nil
	case spec == ByNamespace:
		return func(p *series.Page) string { return strconv.Itoa(int(p.Namespace)) }, nil
	case spec == BySource:
		return func(p *series.Page) string { return p.Source }, nil
	case strings.HasPrefix(spec, ByHash+":"):
		k, err := strconv.Atoi(strings.TrimPrefix(spec, ByHash+":"))
		if err != nil || k < 1 {
			return nil, fmt.Errorf("grouping %q: want hash:K with K ≥ 1", spec)
		}
		return func(p *series.Page) string {
			h := fnv.New64a()
			fmt.Fprintf(h, "%d\x00%s", p.ID, p.Title)
			return fmt.Sprintf("h%03d", h.Sum64()%uint64(k))
		}, nil
	}
	return nil, fmt.Errorf("unknown grouping %q (want group, namespace, source or hash:K)", spec)
}

// Corpus is the pages of a replay grouped into sites, with the cycle grid.
// Every page counts from Start on, also one whose first update comes later:
// before that update a download of it finds no change.
type Corpus struct {
	Pages []series.Page
	Site  []int    // site index of each page
	Sites [][]int  // page indices of each site, ascending
	Names []string // site names, sorted
	Start int64    // the crawler holds a copy of every page as of Start (Unix s)
	Cycle int64    // cycle length in seconds
	N     int      // number of cycles; cycle c downloads at Start + (c+1)·Cycle
}

// NewCorpus groups pages into sites and lays the cycle grid over
// [start, end] (0: the earliest and latest update over all pages).
func NewCorpus(pages []series.Page, grouping string, cycle, start, end int64) (*Corpus, error) {
	if cycle <= 0 {
		return nil, fmt.Errorf("policy: cycle %d s must be positive", cycle)
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("policy: no pages")
	}
	key, err := SiteKey(grouping)
	if err != nil {
		return nil, err
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	idx := map[string]int{}
	var names []string
	for i := range pages {
		p := &pages[i]
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("policy: %w", err)
		}
		lo = min(lo, p.Updates[0])
		hi = max(hi, p.Updates[len(p.Updates)-1])
		k := key(p)
		if _, ok := idx[k]; !ok {
			idx[k] = 0
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for i, n := range names {
		idx[n] = i
	}
	c := &Corpus{Pages: pages, Site: make([]int, len(pages)), Sites: make([][]int, len(names)), Names: names, Cycle: cycle}
	for i := range pages {
		s := idx[key(&pages[i])]
		c.Site[i] = s
		c.Sites[s] = append(c.Sites[s], i)
	}
	if start == 0 {
		start = lo
	}
	if end == 0 {
		end = hi
	}
	if end <= start {
		return nil, fmt.Errorf("policy: time range [%d, %d] is empty", start, end)
	}
	c.Start = start
	c.N = int((end - start + cycle - 1) / cycle)
	return c, nil
}

// At is the download time of cycle c.
func (c *Corpus) At(cycle int) int64 { return c.Start + int64(cycle+1)*c.Cycle }

// count is the number of updates of page p at or before t.
func (c *Corpus) count(p int, t int64) int {
	u := c.Pages[p].Updates
	return sort.Search(len(u), func(i int) bool { return u[i] > t })
}

// Changed reports whether page p has an update in (since, t].
func (c *Corpus) Changed(p int, since, t int64) bool {
	return c.count(p, t) > c.count(p, since)
}

// MeanSiteSize is the mean number of pages per site, N in √(N r).
func (c *Corpus) MeanSiteSize() float64 { return float64(len(c.Pages)) / float64(len(c.Sites)) }
