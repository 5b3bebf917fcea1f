package analysis

import "github.com/revisit-dev/revisit/series"

// selectPages is pages filtered by opt.Select (--pages, --match, --group),
// before the shard test: every pass over it starts a new tally, and a pass
// that reads every page (not the unit's probe, which stops at the first)
// leaves what it selected in p.Selection; dropped is called with each page
// the selection leaves out. Without a selection it is pages.
func selectPages(opt *Options, pages posSource, p *Partial, dropped func(*series.Page)) posSource {
	if opt.Select == nil {
		return pages
	}
	return func(fn func(int64, *series.Page) error) error {
		tally := opt.Select.Tally()
		err := pages(func(pos int64, pg *series.Page) error {
			if !tally.Keep(pg) {
				dropped(pg)
				return nil
			}
			return fn(pos, pg)
		})
		if err == nil {
			p.Selection = tally.Summary()
		}
		return err
	}
}
