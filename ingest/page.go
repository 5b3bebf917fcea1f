package ingest

// Pages: merging the pages of ungrouped readers across inputs, the
// revision cap, and the filters of SPEC §1.1 applied to each page, counted,
// before it is written.

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/series"
)

// bigPage is the number of updates from which a page is large enough that
// its write is preceded by a garbage collection (see page).
const bigPage = 1 << 20

type mergeKey struct {
	source string
	id     int64
}

// merge collects a page of an ungrouped reader; the same (source, id) from
// several inputs (a business in the review and the tip file) becomes one page.
// The revision cap applies to the merged page: past it, the page's
// revisions are counted, not kept (see page).
func (d *driver) merge(p *series.RawPage, kind, name string) error {
	k := mergeKey{p.Source, p.ID}
	q, ok := d.merged[k]
	if !ok {
		d.merged[k] = p
		d.mergeOrder = append(d.mergeOrder, k)
		d.kinds[k] = kind
		d.files[k] = name
		return nil
	}
	if q.TooMany > 0 || p.TooMany > 0 {
		q.TooMany = revisionCount(q) + revisionCount(p)
		q.Revisions = nil
		dropFlags(q)
		return nil
	}
	if max := d.opt.maxRevisions(); int64(len(q.Revisions)+len(p.Revisions)) > max {
		if !d.opt.SkipBad {
			return d.tooMany(p, name, int64(len(q.Revisions)+len(p.Revisions)), "with the earlier inputs")
		}
		q.TooMany = int64(len(q.Revisions) + len(p.Revisions))
		q.Revisions = nil
		dropFlags(q)
		return nil
	}
	appendRevisions(q, p)
	return nil
}

// revisionCount is the number of revisions a page had as read.
func revisionCount(p *series.RawPage) int64 {
	if p.TooMany > 0 {
		return p.TooMany
	}
	return int64(len(p.Revisions))
}

// tooMany reports page p of file, with n revisions, as over the revision
// cap (reason "too-many-revisions"): the error without SkipBad, else
// counted with its revisions.
func (d *driver) tooMany(p *series.RawPage, file string, n int64, where string) error {
	if where != "" {
		where = " " + where
	}
	pe := &source.ParseError{File: file, Offset: p.Offset, Line: p.Line, Page: p.Title, Reason: "too-many-revisions", Revisions: n,
		Err: fmt.Errorf("%s revisions%s, more than the limit of %s (--max-revisions-per-page)", human.Comma(n), where, human.Comma(d.opt.maxRevisions()))}
	if p.Line > 0 {
		pe.Offset = -1
	}
	so := d.sourceOptions(file)
	return so.Bad(pe)
}

// flushMerged writes the pages held to the end, stopping at a cancel
// (millions of objects of a large log take a while to write).
func (d *driver) flushMerged(ctx context.Context) error {
	for i, k := range d.mergeOrder {
		if i%batchSize == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		p := d.merged[k]
		delete(d.merged, k)
		d.joinBusiness(p, d.kinds[k])
		if err := d.page(p, d.kinds[k], d.files[k]); err != nil {
			return err
		}
	}
	d.mergeOrder = nil
	return nil
}

// keepNamespace reports whether the namespace filter keeps ns (d.ns not nil).
func (d *driver) keepNamespace(ns int32) bool {
	_, ok := slices.BinarySearch(d.ns, ns)
	return ok
}

func (d *driver) skip(reason SkipReason, p *series.RawPage) {
	d.addSkip(reason, 1)
	d.addSkip(SkipRevisionsOfSkippedPages, int64(len(p.Revisions)))
}

// page applies the filters of SPEC §1.1 in order — namespace, redirect,
// revision filters (--drop-reverts/--drop-bots/--drop-minor, see
// wikifilter.go), time range (on revisions), collapsing, minimum updates,
// id uniqueness —
// counting each, and writes what is left.
func (d *driver) page(p *series.RawPage, kind, file string) error {
	c := &d.counts
	if p.Truncated {
		d.noteTruncated(p, file)
	}
	if p.TooMany > 0 {
		// Over the revision cap: the reader dropped the revisions.
		if hasNamespaces(kind) && d.ns != nil && !d.keepNamespace(p.Namespace) {
			// Left out for its namespace anyway, which is no error.
			c.PagesRead++
			c.RevisionsRead += p.TooMany
			d.addSkip(SkipNamespace, 1)
			d.addSkip(SkipRevisionsOfSkippedPages, p.TooMany)
			return nil
		}
		return d.tooMany(p, file, p.TooMany, "")
	}
	c.PagesRead++
	c.RevisionsRead += int64(len(p.Revisions))
	if hasNamespaces(kind) && d.ns != nil && !d.keepNamespace(p.Namespace) {
		d.skip(SkipNamespace, p)
		return nil
	}
	if d.opt.NoRedirects && p.Redirect {
		d.skip(SkipRedirect, p)
		return nil
	}
	if !d.filterRevisions(p) {
		return nil
	}
	if d.hasSince || d.hasUntil {
		kept := p.Revisions[:0]
		for _, t := range p.Revisions {
			if (!d.hasSince || t >= d.since) && (!d.hasUntil || t < d.until) {
				kept = append(kept, t)
			}
		}
		if out := len(p.Revisions) - len(kept); out > 0 {
			d.addSkip(SkipRevisionsOutsideTimeRange, int64(out))
			p.Revisions = kept
			p.Anonymous, p.Minor = nil, nil // no longer aligned
		}
		if len(kept) == 0 {
			d.skip(SkipTimeRange, p)
			return nil
		}
	}
	// Neither the flags nor the revisions as read are stored: the updates
	// take the revisions' memory (8 bytes per revision less at the write).
	p.Anonymous, p.Minor = nil, nil
	nrev := int64(len(p.Revisions))
	pg := p.NormalizeInPlace()
	if pg.NUpdates() < d.opt.MinUpdates {
		d.addSkip(SkipMinUpdates, 1)
		d.addSkip(SkipRevisionsOfSkippedPages, nrev)
		return nil
	}
	if pg.SourceID == "" && (kind == KindMediaWiki || kind == KindMWHistory) {
		pg.SourceID = strconv.FormatInt(pg.ID, 10) // before a clash of ids hashes ID
	}
	id, dup := d.ids.claim(pg.Source, pg.ID)
	if dup {
		what := fmt.Sprintf("page id %d of %s", pg.ID, pg.Source)
		if kind != KindMediaWiki && kind != KindMWHistory {
			// A hashed id means nothing to people: the object's name does.
			what = fmt.Sprintf("object %s of %s", named(p.Title, p.Group), pg.Source)
		}
		pe := &source.ParseError{File: file, Offset: p.Offset, Line: p.Line, Page: p.Title, Reason: "duplicate-page",
			Err: fmt.Errorf("%s was already read (overlapping inputs?)", what)}
		if p.Line > 0 {
			pe.Offset = -1
		}
		so := d.sourceOptions(file)
		if err := so.Bad(pe); err != nil {
			return err
		}
		d.addSkip(SkipRevisionsOfSkippedPages, nrev)
		return nil
	}
	pg.ID = id
	if len(pg.Updates) >= bigPage {
		// The garbage of reading a large page (append's copies) is of
		// the order of the page; collecting it before the writer
		// allocates its buffers keeps the peak near the live size.
		runtime.GC()
	}
	if err := d.w.Write(&pg); err != nil {
		return err
	}
	if p.Truncated {
		d.truncated[len(d.truncated)-1].Kept = true
	}
	d.noteTimes(&pg)
	c.PagesKept++
	c.RevisionsKept += nrev
	c.Updates += int64(len(pg.Updates))
	c.Collapsed += pg.Collapsed
	if pg.Resolution >= dayResolution {
		c.PagesDaily++
		c.CollapsedSameDay += pg.Collapsed
	}
	return nil
}

// named is a page's name for people: its title quoted, with its group
// when known ("Joe's Diner" (Tempe)).
func named(title, group string) string {
	if group != "" {
		return fmt.Sprintf("%q (%s)", title, group)
	}
	return fmt.Sprintf("%q", title)
}
