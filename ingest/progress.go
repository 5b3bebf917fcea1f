package ingest

// Progress: counting the decompressed bytes the parsers read, and
// reporting stored and decompressed bytes, pages and revisions while an
// input is read.

import (
	"context"
	"io"
	"sync/atomic"
	"time"

	"github.com/revisit-dev/revisit/internal/decompress"
)

// liveCounter counts the bytes read through it; Load is safe from another
// goroutine. Once ctx is done it reads nothing more and returns ctx's
// error: a reader that takes in its whole input before its first page
// (generic logs, mediawiki_history, Yelp) stops at its next read when
// Ctrl-C comes, not at the end of a file of many GB.
type liveCounter struct {
	r   io.Reader
	ctx context.Context
	n   atomic.Int64
}

func (c *liveCounter) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// report passes the stored and decompressed bytes read since the last call
// to Progress, with pages and revisions.
func (d *driver) report(r *decompress.Reader, pages, revs int64) {
	if d.opt.Progress == nil {
		return
	}
	c, l := r.Consumed(), d.live.n.Load()
	d.opt.Progress.Add(c-d.lastConsumed, l-d.lastLive, pages, revs)
	d.lastConsumed, d.lastLive = c, l
}

// ticking runs fn (which reads the current input and calls no Progress
// method) in its own goroutine and reports progress every
// ProgressInterval until it returns: a large member passed over or a
// large Yelp business file does not freeze the display.
func (d *driver) ticking(r *decompress.Reader, fn func() error) error {
	if d.opt.Progress == nil {
		return fn()
	}
	done := make(chan error, 1)
	go func() { done <- fn() }()
	t := time.NewTicker(ProgressInterval)
	defer t.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-t.C:
			d.report(r, 0, 0)
		}
	}
}

// reportEnd reports the end of an input of the given stored size: what is
// left of it counts as read (a decompressor may stop before trailing
// bytes), so that the stored bytes reported add up to the total.
func (d *driver) reportEnd(r *decompress.Reader, size int64) {
	if d.opt.Progress == nil {
		return
	}
	d.report(r, 0, 0)
	if size > d.lastConsumed {
		d.opt.Progress.Add(size-d.lastConsumed, 0, 0, 0)
		d.lastConsumed = size
	}
}
