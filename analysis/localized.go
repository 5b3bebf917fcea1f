package analysis

import (
	"context"
	"fmt"
	"slices"

	"github.com/revisit-dev/revisit/analysis/nhpp"
	"github.com/revisit-dev/revisit/analysis/staleness"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/series"
)

// DefaultSelectMax bounds the pages kept in memory for the localized-rate
// (NHPP, SPEC §4.4) and staleness analyses: the busiest pages, so memory
// does not grow with the corpus.
const DefaultSelectMax = 2000

// DefaultSelectBytes bounds the bytes of those pages (pageBytes: 8 bytes
// per update), so that a few pages with millions of updates cannot take
// the memory either: 48 MiB, a quarter of the 192 MiB the commands run
// within (NHPP holds a second copy of the update times while it runs,
// and busiestKeeper up to 7/8 more while the budget is not exceeded).
const DefaultSelectBytes = 48 << 20

// LocalizedOptions switch on the analyses that need whole update series of
// a selection of pages rather than one streaming pass: localized rates
// (analysis/nhpp) and the cost of assuming Poisson (analysis/staleness).
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
	// ("nhpp", then "staleness") and the number of pages it covers: the
	// caller's progress line (revisit run names the stage as it begins,
	// and these two take most of analyze's time on a large corpus). It
	// is a report of progress only; the results are returned.
	Start func(kind string, pages int) `json:"-"`
}

// KindBundle is the tables and figures of one localized analysis, by kind
// ("nhpp", "staleness"): Result.Localized with Options.LocalizedApart.
type KindBundle struct {
	Kind   string
	Bundle *tables.Bundle
}

func (o LocalizedOptions) enabled() bool { return o.NHPP || o.Staleness }

// localizedBundles runs the enabled analyses on the kept pages and returns
// their tables and figures, one bundle per analysis in the order they ran
// (SPEC §7 item 7). skipped are the busiest pages the byte budget left out
// (Skipped): each analysis's tables then say so in a note, and its bundle
// has a table KIND_skipped naming them.
func localizedBundles(ctx context.Context, pages []series.Page, skipped []PageRank, unit float64, opt *Options) ([]KindBundle, error) {
	var bs []KindBundle
	lo := opt.Localized
	add := func(kind string, kb *tables.Bundle) {
		if len(skipped) > 0 {
			note := skippedNote(skipped, opt) + "; they are listed in the table " + kind + "_skipped"
			for i := range kb.Tables {
				kb.Tables[i].Notes = append(kb.Tables[i].Notes, note)
			}
			kb.Tables = append(kb.Tables, skippedTable(kind, skipped, opt))
		}
		bs = append(bs, KindBundle{Kind: kind, Bundle: kb})
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
		add("nhpp", nb)
	}
	if lo.Staleness {
		start("staleness")
		sb, err := staleness.Analyze(ctx, pages, unit, staleness.Options{Delta: lo.Delta, Epsilon: lo.Epsilon, Seed: opt.Seed, Dataset: opt.Dataset})
		if err != nil {
			return nil, fmt.Errorf("staleness: %w", err)
		}
		add("staleness", sb)
	}
	return bs, nil
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
	return fmt.Sprintf("%d of the %d busiest pages (%s updates) left out: with them the update times kept would exceed %s (8 bytes per update; analyze --select-mib raises it)",
		len(skipped), n, human.Comma(sum), human.Bytes(budget))
}

// skippedTable lists the busiest pages the byte budget left out, for the
// analysis kind ("nhpp", "staleness").
func skippedTable(kind string, skipped []PageRank, opt *Options) tables.Table {
	_, budget := selectLimits(opt)
	t := tables.Table{ID: kind + "_skipped", Title: "Busiest pages left out for the memory budget (" + kind + ")",
		Source:  fmt.Sprintf("dataset %s; the update times of the busiest pages exceed %s: pages above an eighth of it are passed over, the others kept from the busiest down while they fit", orDash(opt.Dataset), human.Bytes(budget)),
		Section: tables.SectionPolicies, Order: 90,
		Columns: []tables.Column{{Name: "page_id", Kind: tables.Int}, {Name: "title", Kind: tables.String}, {Name: "n_updates", Kind: tables.Int},
			{Name: "bytes", Kind: tables.Bytes}, {Name: "why", Kind: tables.String}},
	}
	for _, r := range skipped {
		why := "the busier pages kept fill the budget"
		if r.Bytes > budget/8 {
			why = "a giant: above an eighth of the budget"
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

// pageBytes is what keeping page p costs: 8 bytes per update and 384
// for its title and headers. It grows with the updates alone, so that a
// busier page never costs less (busiestKeeper relies on it).
func pageBytes(p *series.Page) int64 {
	return 8*int64(len(p.Updates)) + 384
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
// (n) and in bytes (budget). Rank the pages from the busiest (busier).
// When the n busiest fit in the budget, they are kept: the pages kept
// before there was a byte bound. Otherwise a page costing more than an
// eighth of the budget (a giant) is passed over, and of the others the
// longest run from the top, at most n pages, whose pageBytes add up to
// at most the budget is kept.
//
// It streams. Since a busier page never costs less, the bytes of the n
// busiest seen so far only grow, so once they exceed the budget the
// final n busiest do too (over). Before that it holds the n busiest
// pages (top) and, below them, as many other non-giants as there are
// giants among them (extra, at most 7 since each giant is above an
// eighth of the budget): together, the n busiest non-giants, from which
// the run is taken when the budget is exceeded. After that it holds the
// run; a page cut from the bottom of the run for the budget (the bar)
// ranks above every page cut after it, so pages ranked below the bar are
// refused as they come. Memory: the budget, and the extra pages (at most
// 7/8 of it) until it is exceeded. The n busiest ranks (ranks) say which
// of them were left out (Skipped).
//
// A merge of shards offers each shard's ranks, pages and bar to a new
// keeper (offerPartial): the n busiest of all are among the shards' n
// busiest, the n busiest non-giants among theirs, and a page of the run
// of all pages is in its shard's run (fewer pages above it there); a
// shard's bar ranks above every page its shard left out of its run, so
// the run of all ends above it too.
type busiestKeeper struct {
	n      int
	budget int64
	ranks  []PageRank // the n busiest pages offered, busiest first
	rbytes int64      // their pageBytes
	over   bool       // rbytes exceeded the budget: giants are passed over, and pages holds the run

	top    []series.Page // !over: the n busiest pages, busiest first
	giants int           // !over: giants among them
	extra  []series.Page // !over: the busiest non-giants below top, at most giants of them

	pages []series.Page // over: the kept run, busiest first
	bytes int64         // over: its pageBytes
	bar   *PageRank     // over: the busiest page cut from the run for the budget; nil: none
}

func (k *busiestKeeper) giant(r PageRank) bool { return r.Bytes > k.budget/8 }

// Offer considers one page.
func (k *busiestKeeper) Offer(p *series.Page) {
	r := rankOf(p)
	k.offerRank(r)
	k.offerPage(p, r)
}

// insertByRank inserts p (of rank r) into pages, which are busiest first.
func insertByRank(pages []series.Page, p *series.Page, r PageRank) []series.Page {
	i, _ := slices.BinarySearchFunc(pages, r, func(e series.Page, t PageRank) int {
		if busier(rankOf(&e), t) {
			return -1
		}
		return 1
	})
	return slices.Insert(pages, i, *p)
}

// offerRank puts r among the n busiest ranks, and switches to over when
// their bytes exceed the budget.
func (k *busiestKeeper) offerRank(r PageRank) {
	if len(k.ranks) == k.n && (k.n == 0 || !busier(r, k.ranks[k.n-1])) {
		return
	}
	i, _ := slices.BinarySearchFunc(k.ranks, r, func(e, t PageRank) int {
		if busier(e, t) {
			return -1
		}
		return 1
	})
	k.ranks = slices.Insert(k.ranks, i, r)
	k.rbytes += r.Bytes
	if len(k.ranks) > k.n {
		k.rbytes -= k.ranks[k.n].Bytes
		k.ranks = k.ranks[:k.n]
	}
	if !k.over && k.rbytes > k.budget {
		k.switchOver()
	}
}

// switchOver starts the run from the n busiest non-giants held (top and
// extra).
func (k *busiestKeeper) switchOver() {
	held := append(k.top, k.extra...) // extra ranks below every page of top
	k.over, k.top, k.extra, k.giants = true, nil, nil, 0
	for i := range held {
		k.offerPage(&held[i], rankOf(&held[i]))
	}
}

// offerPage considers p (of rank r) for the pages held.
func (k *busiestKeeper) offerPage(p *series.Page, r PageRank) {
	if !k.over {
		k.offerTop(p, r)
		return
	}
	if k.giant(r) || (k.bar != nil && busier(*k.bar, r)) {
		return
	}
	if len(k.pages) == k.n && (k.n == 0 || !busier(r, rankOf(&k.pages[k.n-1]))) {
		return
	}
	k.pages = insertByRank(k.pages, p, r)
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

// offerTop is offerPage before the budget is exceeded: p goes into top
// (pushing its last page to extra) or into extra.
func (k *busiestKeeper) offerTop(p *series.Page, r PageRank) {
	if len(k.top) < k.n || (k.n > 0 && busier(r, rankOf(&k.top[k.n-1]))) {
		k.top = insertByRank(k.top, p, r)
		if k.giant(r) {
			k.giants++
		}
		if len(k.top) > k.n {
			last := k.top[k.n]
			k.top[k.n] = series.Page{}
			k.top = k.top[:k.n]
			if lr := rankOf(&last); k.giant(lr) {
				k.giants--
			} else {
				k.extra = insertByRank(k.extra, &last, lr)
			}
		}
	} else if !k.giant(r) {
		k.extra = insertByRank(k.extra, p, r)
	}
	for len(k.extra) > k.giants {
		k.extra[len(k.extra)-1] = series.Page{}
		k.extra = k.extra[:len(k.extra)-1]
	}
}

// offerBar applies another keeper's bar (a merged shard's): pages ranked
// below it are cut. Only a keeper over the budget has a bar, and the
// merge is then over it too.
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

// offerPartial folds in a shard's keeper as its Partial holds it (fill).
func (k *busiestKeeper) offerPartial(p *Partial) {
	for _, r := range p.KeepTop {
		k.offerRank(r)
	}
	for i := range p.Keep {
		k.offerPage(&p.Keep[i], rankOf(&p.Keep[i]))
	}
	k.offerBar(p.KeepBar)
}

// fill stores the keeper in p: Keep holds the pages held (under the
// budget: the n busiest and the extra pages, for a merge), KeepTop the n
// busiest ranks, KeepBar the bar, KeepOver whether the budget was
// exceeded. KeptPages(p) are the pages analysed.
func (k *busiestKeeper) fill(p *Partial) {
	p.KeepTop, p.KeepOver, p.KeepBar = k.ranks, k.over, k.bar
	if k.over {
		p.Keep = k.pages
	} else {
		p.Keep = append(slices.Clip(k.top), k.extra...)
	}
}

// KeptPages are the busiest pages kept in p for NHPP and staleness: the
// run when the budget was exceeded, else the n busiest (Keep without the
// extra pages a merge would need).
func KeptPages(p *Partial) []series.Page {
	if p.KeepOver {
		return p.Keep
	}
	return p.Keep[:min(len(p.Keep), len(p.KeepTop))]
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
