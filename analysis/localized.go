package analysis

import (
	"context"
	"fmt"
	"slices"

	"github.com/revisit-dev/revisit/analysis/staleness"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/replay/nhpp"
	"github.com/revisit-dev/revisit/series"
)

// DefaultSelectMax bounds the pages kept in memory for the localized-rate
// (NHPP, SPEC §4.4) and staleness analyses: the busiest pages, so memory
// does not grow with the corpus.
const DefaultSelectMax = 2000

// DefaultSelectBytes bounds the bytes of those pages (pageBytes: 8 bytes
// per update and the page's strings and headers), so that a few pages
// with millions of updates cannot take the memory either: 64 MiB, a third
// of the 192 MiB the commands run within (NHPP holds a second copy of
// the update times while it runs).
const DefaultSelectBytes = 64 << 20

// LocalizedOptions switch on the analyses that need whole update series of
// a selection of pages rather than one streaming pass: localized rates
// (replay/nhpp) and the cost of assuming Poisson (analysis/staleness).
type LocalizedOptions struct {
	NHPP      bool    // SPEC §4.4 windows, Weibull/Duane fits, prediction
	Theta     float64 // consistency threshold of the NHPP windows (0 → 0.1)
	Staleness bool    // exact staleness vs the Poisson prediction
	Delta     float64 // revisit interval Δ in the unit (0 → each page's E[U])
	Epsilon   float64 // staleness target ε (0 → 0.1)
	SelectMax int     // at most this many pages, the busiest (0 → DefaultSelectMax)
	// SelectBytes bounds the bytes of the pages kept (pageBytes; 0 →
	// DefaultSelectBytes): busiestKeeper says which are kept and which
	// of the SelectMax busiest are left out for it.
	SelectBytes int64

	// Start, if set, is called before each enabled analysis with its kind
	// ("nhpp", then "staleness") and the number of pages it covers.
	Start func(kind string, pages int) `json:"-"`
	// Separate, if set, receives each analysis's bundle, by kind, instead
	// of the analysis bundle taking its tables and figures (revisit run
	// writes them as results directories of their own); an error stops
	// the analysis.
	Separate func(kind string, b *tables.Bundle) error `json:"-"`
}

func (o LocalizedOptions) enabled() bool { return o.NHPP || o.Staleness }

// localizedBundle runs the enabled analyses on the kept pages and returns
// their tables and figures (SPEC §7 item 7). skipped are the busiest
// pages the byte budget left out (Skipped): each analysis's tables then
// say so in a note, and its bundle has a table KIND_skipped naming them.
func localizedBundle(ctx context.Context, pages []series.Page, skipped []PageRank, unit float64, opt *Options) (*tables.Bundle, error) {
	b := &tables.Bundle{}
	lo := opt.Localized
	add := func(kind string, kb *tables.Bundle) error {
		if len(skipped) > 0 {
			note := skippedNote(skipped, opt) + "; they are listed in the table " + kind + "_skipped"
			for i := range kb.Tables {
				kb.Tables[i].Notes = append(kb.Tables[i].Notes, note)
			}
			kb.Tables = append(kb.Tables, skippedTable(kind, skipped, opt))
		}
		if lo.Separate != nil {
			return lo.Separate(kind, kb)
		}
		b.Tables = append(b.Tables, kb.Tables...)
		b.Figures = append(b.Figures, kb.Figures...)
		return nil
	}
	start := func(kind string) {
		if lo.Start != nil {
			lo.Start(kind, len(pages))
		}
	}
	if lo.NHPP {
		start("nhpp")
		nb, err := nhpp.Analyze(ctx, pages, unit, nhpp.Options{Theta: lo.Theta, Dataset: opt.Dataset})
		if err != nil {
			return nil, fmt.Errorf("nhpp: %w", err)
		}
		if err := add("nhpp", nb); err != nil {
			return nil, err
		}
	}
	if lo.Staleness {
		start("staleness")
		sb, err := staleness.Analyze(ctx, pages, unit, staleness.Options{Delta: lo.Delta, Epsilon: lo.Epsilon, Seed: opt.Seed, Dataset: opt.Dataset})
		if err != nil {
			return nil, fmt.Errorf("staleness: %w", err)
		}
		if err := add("staleness", sb); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// selectLimits are the count and byte bounds of the busiest pages kept,
// with their defaults.
func selectLimits(opt *Options) (n int, bytes int64) {
	n, bytes = opt.Localized.SelectMax, opt.Localized.SelectBytes
	if n <= 0 {
		n = DefaultSelectMax
	}
	if bytes <= 0 {
		bytes = DefaultSelectBytes
	}
	return n, bytes
}

// skippedNote says how many of the busiest pages the byte budget left
// out, and where they are listed.
func skippedNote(skipped []PageRank, opt *Options) string {
	n, budget := selectLimits(opt)
	var sum int64
	for _, r := range skipped {
		sum += int64(r.Updates)
	}
	return fmt.Sprintf("%d of the %d busiest pages (%s updates) left out: with them the update times kept would exceed %s (8 bytes per update)",
		len(skipped), n, human.Comma(sum), human.Bytes(budget))
}

// skippedTable lists the busiest pages the byte budget left out, for the
// analysis kind ("nhpp", "staleness").
func skippedTable(kind string, skipped []PageRank, opt *Options) tables.Table {
	_, budget := selectLimits(opt)
	t := tables.Table{ID: kind + "_skipped", Title: "Busiest pages left out for the memory budget (" + kind + ")",
		Source:  fmt.Sprintf("dataset %s; the busiest pages are kept from the top down while their update times fit in %s; a page alone above it is passed over", orDash(opt.Dataset), human.Bytes(budget)),
		Section: tables.SectionPolicies, Order: 90,
		Columns: []tables.Column{{Name: "page_id", Kind: tables.Int}, {Name: "title", Kind: tables.String}, {Name: "n_updates", Kind: tables.Int},
			{Name: "bytes", Kind: tables.Bytes}, {Name: "why", Kind: tables.String}},
	}
	for _, r := range skipped {
		why := "the busier pages kept fill the budget"
		if r.Bytes > budget {
			why = "alone above the budget"
		}
		t.Rows = append(t.Rows, []any{r.ID, r.Title, int64(r.Updates), r.Bytes, why})
	}
	return t
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func newLocalizedKeeper(opt *Options) *busiestKeeper {
	if !opt.Localized.enabled() {
		return nil
	}
	n, b := selectLimits(opt)
	return &busiestKeeper{n: n, budget: b}
}

// pageBytes is what keeping page p costs: 8 bytes per update, its
// strings, and 128 bytes for the page's struct and slice headers.
func pageBytes(p *series.Page) int64 {
	return 8*int64(len(p.Updates)) + int64(len(p.Title)+len(p.Source)+len(p.Group)) + 128
}

// PageRank is a page's place among the busiest pages without its series:
// its id, title, number of updates and pageBytes.
type PageRank struct {
	ID      int64
	Title   string
	Updates int
	Bytes   int64
}

func rankOf(p *series.Page) PageRank {
	return PageRank{ID: p.ID, Title: p.Title, Updates: len(p.Updates), Bytes: pageBytes(p)}
}

// busier is the order of the busiest pages (transform.TopKeeper's): more
// updates first, then the smaller id. It is a total order.
func busier(a, b PageRank) bool {
	if a.Updates != b.Updates {
		return a.Updates > b.Updates
	}
	return a.ID < b.ID
}

// busiestKeeper keeps the pages for NHPP and staleness, bounded in count
// (n) and in bytes (budget). Rank the pages from the busiest (busier);
// leave out every page that alone costs more than the budget; the kept
// pages are the longest run from the top of the rest, at most n of them,
// whose pageBytes add up to at most the budget. When the n busiest pages
// fit, these are the n busiest, as when only the count was bounded.
//
// It streams: a page cut from the bottom of the run for the budget
// (the bar) ranks above every page cut after it, so pages ranked below
// the bar are refused as they come, and the kept pages never hold more
// than the budget (and one page) at a time. The n busiest pages' ranks
// (top, kept or not) say which of them were left out (Skipped). A merge
// of shards offers each shard's kept pages, top ranks and bar to a new
// keeper (offerPartial): the run of the union is the run of all pages,
// since a page kept overall is kept in its shard (fewer pages above it
// there), and a shard's bar, which ranks above every page its shard
// left out, is below the end of the overall run too.
type busiestKeeper struct {
	n      int
	budget int64
	pages  []series.Page // the kept run, busiest first
	bytes  int64         // their pageBytes
	bar    *PageRank     // the busiest page cut from the run for the budget; nil: none
	top    []PageRank    // the n busiest pages offered, busiest first
}

// Offer considers one page.
func (k *busiestKeeper) Offer(p *series.Page) {
	r := rankOf(p)
	k.offerRank(r)
	k.offerPage(p, r)
}

// offerRank puts r among the n busiest ranks.
func (k *busiestKeeper) offerRank(r PageRank) {
	if len(k.top) == k.n && (k.n == 0 || !busier(r, k.top[k.n-1])) {
		return
	}
	i, _ := slices.BinarySearchFunc(k.top, r, func(e, t PageRank) int {
		if busier(e, t) {
			return -1
		}
		return 1
	})
	k.top = slices.Insert(k.top, i, r)
	if len(k.top) > k.n {
		k.top = k.top[:k.n]
	}
}

// offerPage considers p (of rank r) for the kept run.
func (k *busiestKeeper) offerPage(p *series.Page, r PageRank) {
	if r.Bytes > k.budget || (k.bar != nil && busier(*k.bar, r)) {
		return
	}
	if len(k.pages) == k.n && (k.n == 0 || !busier(r, rankOf(&k.pages[k.n-1]))) {
		return
	}
	i, _ := slices.BinarySearchFunc(k.pages, r, func(e series.Page, t PageRank) int {
		if busier(rankOf(&e), t) {
			return -1
		}
		return 1
	})
	k.pages = slices.Insert(k.pages, i, *p)
	k.bytes += r.Bytes
	if len(k.pages) > k.n {
		k.bytes -= pageBytes(&k.pages[k.n])
		k.pages[k.n] = series.Page{}
		k.pages = k.pages[:k.n]
	}
	for k.bytes > k.budget {
		last := len(k.pages) - 1
		cut := rankOf(&k.pages[last])
		k.bar = &cut
		k.bytes -= cut.Bytes
		k.pages[last] = series.Page{}
		k.pages = k.pages[:last]
	}
}

// offerBar applies another keeper's bar (a merged shard's): pages ranked
// below it are cut.
func (k *busiestKeeper) offerBar(b *PageRank) {
	if b == nil || (k.bar != nil && busier(*k.bar, *b)) {
		return
	}
	k.bar = b
	for len(k.pages) > 0 {
		last := len(k.pages) - 1
		if r := rankOf(&k.pages[last]); !busier(*b, r) {
			break
		}
		k.bytes -= pageBytes(&k.pages[last])
		k.pages[last] = series.Page{}
		k.pages = k.pages[:last]
	}
}

// offerPartial folds in a shard's keeper as its Partial holds it.
func (k *busiestKeeper) offerPartial(p *Partial) {
	for _, r := range p.KeepTop {
		k.offerRank(r)
	}
	for i := range p.Keep {
		k.offerPage(&p.Keep[i], rankOf(&p.Keep[i]))
	}
	k.offerBar(p.KeepBar)
}

// fill stores the keeper in p (Keep, KeepTop, KeepBar).
func (k *busiestKeeper) fill(p *Partial) {
	p.Keep, p.KeepTop, p.KeepBar = k.pages, k.top, k.bar
}

// Skipped are the pages among the n busiest (top) that are not in kept:
// the ones the byte budget left out, busiest first.
func Skipped(top []PageRank, kept []series.Page) []PageRank {
	in := make(map[int64]bool, len(kept))
	for i := range kept {
		in[kept[i].ID] = true
	}
	var out []PageRank
	for _, r := range top {
		if !in[r.ID] {
			out = append(out, r)
		}
	}
	return out
}
