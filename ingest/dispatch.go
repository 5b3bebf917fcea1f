package ingest

// Per-source dispatch: the reader for each kind of stream, and streaming
// its pages from a parsing goroutine in batches to page or merge.

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/mediawiki"
	"github.com/revisit-dev/revisit/ingest/mwhistory"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/decompress"
	"github.com/revisit-dev/revisit/series"
)

func (d *driver) sourceOptions(name string) source.Options {
	return source.Options{File: name, SkipBad: d.opt.SkipBad, OnBad: d.onBad,
		MaxRevisions: d.opt.maxRevisions(), MaxLineBytes: d.opt.maxLineBytes()}
}

// newReader builds the reader for one stream.
func (d *driver) newReader(r *decompress.Reader, name, kind string) (source.Reader, error) {
	switch kind {
	case KindMediaWiki:
		mo := mediawiki.Options{Options: d.sourceOptions(name), Source: d.opt.Source, IsBot: d.isBot, SHA1: d.opt.DropReverts}
		if d.ns != nil {
			mo.Keep = d.keepNamespace
		}
		return mediawiki.NewReader(d.live, mo), nil
	case KindMWHistory:
		return mwhistory.NewReader(d.live, mwhistory.Options{Options: d.sourceOptions(name), Source: d.opt.Source,
			IsBot: d.isBot, Reverts: d.opt.DropReverts}), nil
	case KindGeneric:
		g := d.opt.Generic
		if g.Source == "" {
			g.Source = d.opt.Source
		}
		g.FileName = name
		g.SkipLines = d.skipLines
		if m := r.MemberName(); m != "" {
			g.FileName = m
		} else if r.Name() != "<stdin>" {
			g.FileName = r.Name()
		}
		gr, err := generic.NewReader(d.live, g, d.sourceOptions(name))
		if err != nil {
			var pe *source.ParseError
			if errors.As(err, &pe) {
				return nil, err
			}
			return nil, optionError(err)
		}
		return gr, nil
	}
	return d.newYelpReader(r, name, kind)
}

// stream runs the reader in its own goroutine (so parsing overlaps with
// filtering and Parquet encoding here) and handles its pages in batches.
func (d *driver) stream(ctx context.Context, r *decompress.Reader, name, kind string) error {
	src, err := d.newReader(r, name, kind)
	if err != nil {
		return err
	}
	d.wikiRead = d.wikiRead || hasNamespaces(kind)
	checkRelative := kind == KindGeneric && d.opt.Generic.TimeOrigin.IsZero()
	type batch struct {
		pages []*series.RawPage
		err   error
	}
	ch := make(chan batch, 4)
	stop := make(chan struct{})
	go func() {
		defer close(ch)
		b := make([]*series.RawPage, 0, batchSize)
		for {
			p, err := src.Next()
			if errors.Is(err, io.EOF) {
				err = nil
			}
			if p != nil {
				b = append(b, p)
			}
			if err != nil || p == nil || len(b) == batchSize {
				select {
				case ch <- batch{b, err}:
				case <-stop:
					return
				}
				if err != nil || p == nil {
					return
				}
				b = make([]*series.RawPage, 0, batchSize)
			}
		}
	}()
	defer func() {
		close(stop)
		for range ch { // let the parser stop at its next batch
		}
	}()
	grouped := kind == KindMediaWiki
	// While the parser works on one long page (or gathers a whole
	// ungrouped input) no batch comes: the ticks keep the display moving,
	// with the revisions of the page being read when the reader tells them
	// (liveSent: revisions so reported since the last batch, which are
	// taken off the next batch's count, so that the revisions reported add
	// up to those of the batches).
	var tick <-chan time.Time
	if d.opt.Progress != nil {
		t := time.NewTicker(ProgressInterval)
		defer t.Stop()
		tick = t.C
	}
	live, _ := src.(interface{ PageRevisions() int64 })
	var liveSent int64
	for {
		var b batch
		select {
		case <-tick:
			var more int64
			if live != nil {
				if v := live.PageRevisions(); v > liveSent {
					more, liveSent = v-liveSent, v
				}
			}
			d.report(r, 0, more)
			continue
		case <-ctx.Done():
			// The parser stops at its next read (liveCounter).
			return ctx.Err()
		case bb, ok := <-ch:
			if !ok {
				if gr, ok := src.(*generic.Reader); ok {
					st := gr.Stats()
					d.titleChanges += st.TitleChanges
					d.skippedLines += st.SkipLines
					d.originUsed = d.originUsed || !d.opt.Generic.TimeOrigin.IsZero()
					numeric := st.TimeLayout == generic.LayoutEpoch || st.TimeLayout == generic.LayoutEpochMS
					if checkRelative && numeric && st.TimesFound && st.FirstTime >= 0 && st.FirstTime < relativeBelow {
						d.relative = append(d.relative, name)
					}
				}
				if mr, ok := src.(*mediawiki.Reader); ok {
					d.textSHA1 += mr.TextHashed()
				}
				if mr, ok := src.(*mwhistory.Reader); ok {
					st := mr.Stats()
					d.mwOther += st.OtherEvents
					d.counts.RevisionsRead += st.NoPageID
					d.addSkip(SkipNoPageID, st.NoPageID)
				}
				return nil
			}
			b = bb
		}
		var revs int64
		for _, p := range b.pages {
			revs += int64(len(p.Revisions))
			revs += p.TooMany
			if grouped {
				if err := d.page(p, kind, name); err != nil {
					return err
				}
			} else if err := d.merge(p, kind, name); err != nil {
				return err
			}
		}
		d.report(r, int64(len(b.pages)), revs-liveSent)
		liveSent = 0
		if b.err != nil {
			if err := ctx.Err(); err != nil {
				return err // the parser's read error is the cancel
			}
			return b.err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}
