// Package progress shows how far a long stage is: a progress bar on a
// terminal (bytes of the total, pages/s, revisions/s, ETA; humanized) and
// plain periodic log lines when stderr is not a terminal, nothing when quiet.
//
// It knows nothing about what is being read; stages report stored bytes,
// pages and revisions through Start, Add and Finish.
package progress

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/schollz/progressbar/v3"
)

// Display is a progress display. The zero value is not usable: use New.
// Its methods are called from one goroutine.
type Display struct {
	w        io.Writer
	label    string
	terminal bool
	quiet    bool
	interval time.Duration // between log lines
	now      func() time.Time

	bar                *progressbar.ProgressBar
	start, last        time.Time
	lastDesc           time.Time
	total              int64
	bytes, pages, revs int64
}

// LogInterval is the time between two log lines when not on a terminal.
const LogInterval = 10 * time.Second

// New returns a display writing to w (normally os.Stderr): a bar when w is a
// terminal, log lines every LogInterval otherwise, nothing when quiet.
func New(w io.Writer, label string, quiet bool) *Display {
	return &Display{w: w, label: label, terminal: IsTerminal(w), quiet: quiet, interval: LogInterval, now: time.Now}
}

// IsTerminal reports whether w is a character device (a terminal).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Start begins the display; total is the number of bytes expected, or −1
// when unknown (the bar then shows a spinner and no ETA).
func (d *Display) Start(total int64) {
	d.start = d.now()
	d.last = d.start
	d.total = total
	if d.quiet || !d.terminal {
		return
	}
	d.bar = progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(d.w),
		progressbar.OptionSetDescription(d.label),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowTotalBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetWidth(24),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionSetRenderBlankState(true),
	)
}

// Add records work done since the last call.
func (d *Display) Add(bytes, pages, revisions int64) {
	d.bytes += bytes
	d.pages += pages
	d.revs += revisions
	if d.quiet {
		return
	}
	now := d.now()
	if d.bar != nil {
		d.bar.Add64(bytes)
		if now.Sub(d.lastDesc) >= 250*time.Millisecond {
			d.lastDesc = now
			d.bar.Describe(d.label + " " + d.rates(now))
		}
		return
	}
	if now.Sub(d.last) >= d.interval {
		d.last = now
		fmt.Fprintln(d.w, d.Line(now))
	}
}

func (d *Display) rates(now time.Time) string {
	sec := now.Sub(d.start).Seconds()
	if sec <= 0 {
		sec = 1e-9
	}
	return fmt.Sprintf("%s pages (%s/s), %s revisions (%s/s)",
		humanize.Comma(d.pages), humanize.Comma(int64(float64(d.pages)/sec)),
		humanize.Comma(d.revs), humanize.Comma(int64(float64(d.revs)/sec)))
}

// Line is the log line for the state at time now: bytes of the total,
// percentage, pages and revisions with their rates, and the ETA.
func (d *Display) Line(now time.Time) string {
	el := now.Sub(d.start)
	s := d.label + ": " + humanize.Bytes(uint64(d.bytes))
	if d.total > 0 {
		s += fmt.Sprintf(" of %s (%.0f%%)", humanize.Bytes(uint64(d.total)), 100*float64(d.bytes)/float64(d.total))
	}
	s += ", " + d.rates(now)
	if d.total > 0 && d.bytes > 0 && d.bytes < d.total {
		eta := time.Duration(float64(el) * float64(d.total-d.bytes) / float64(d.bytes))
		s += ", ETA " + eta.Round(time.Second).String()
	}
	return s + ", elapsed " + el.Round(time.Second).String()
}

// Finish completes the bar (or prints a last log line if any was printed).
func (d *Display) Finish() {
	if d.quiet {
		return
	}
	if d.bar != nil {
		d.bar.Describe(d.label + " " + d.rates(d.now()))
		d.bar.Finish()
		fmt.Fprintln(d.w)
		return
	}
	if d.last != d.start {
		fmt.Fprintln(d.w, d.Line(d.now()))
	}
}
