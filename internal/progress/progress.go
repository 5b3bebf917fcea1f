// Package progress shows how far a long stage is: a one-line bar on a
// terminal and plain periodic log lines when stderr is not a terminal,
// nothing when quiet.
//
// It knows nothing about what is being read; stages report stored
// (compressed) bytes, decompressed bytes, pages and revisions through
// Start, Add and Finish. The percentage, the bar and the ETA follow the
// stored bytes, the only quantity whose total is known before the end (the
// ETA is elapsed · (total − read) / read, which holds while the compression
// ratio is stable); the work itself is shown as decompressed bytes per
// second and pages and revisions per second (averages since Start). Counts
// have thousands separators.
package progress

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/revisit-dev/revisit/internal/human"
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
	width    int // terminal columns

	start, last, lastDraw time.Time
	drawn                 bool // a bar line is on the terminal
	finished              bool
	total                 int64
	stored, dec           int64
	pages, revs           int64
}

// LogInterval is the time between two log lines when not on a terminal;
// RedrawInterval the shortest time between two redraws of the bar.
const (
	LogInterval    = 10 * time.Second
	RedrawInterval = 200 * time.Millisecond
)

// barCells is the width of the bar itself, in characters.
const barCells = 20

// New returns a display writing to w (normally os.Stderr): a bar when w is a
// terminal, log lines every LogInterval otherwise, nothing when quiet.
func New(w io.Writer, label string, quiet bool) *Display {
	d := &Display{w: w, label: label, terminal: IsTerminal(w), quiet: quiet, interval: LogInterval, now: time.Now, width: 100}
	if d.terminal {
		d.width = termWidth(w)
	}
	return d
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

// termWidth is the width of the terminal w: its window size where the
// system tells it, else $COLUMNS, else 100.
func termWidth(w io.Writer) int {
	if n := sysWidth(w); n > 0 {
		return n
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 100
}

// Start begins the display; total is the number of stored bytes expected,
// or −1 when unknown (the bar then shows no percentage and no ETA).
func (d *Display) Start(total int64) {
	d.start = d.now()
	d.last = d.start
	d.total = total
	if d.quiet || !d.terminal {
		return
	}
	d.draw(d.start)
}

// Add records work done since the last call: stored bytes read,
// decompressed bytes parsed, pages and revisions. On a terminal the bar is
// redrawn when RedrawInterval has passed since the last redraw, so a stage
// that calls Add with bytes alone (a long page being decompressed) keeps
// it moving.
func (d *Display) Add(stored, decompressed, pages, revisions int64) {
	d.stored += stored
	d.dec += decompressed
	d.pages += pages
	d.revs += revisions
	if d.quiet {
		return
	}
	now := d.now()
	if d.terminal {
		if now.Sub(d.lastDraw) >= RedrawInterval {
			d.draw(now)
		}
		return
	}
	if now.Sub(d.last) >= d.interval {
		d.last = now
		fmt.Fprintln(d.w, d.Line(now))
	}
}

// draw writes the bar over the current terminal line.
func (d *Display) draw(now time.Time) {
	d.lastDraw = now
	d.drawn = true
	fmt.Fprint(d.w, "\r"+d.Bar(now)+"\x1b[K")
}

// work is the bytes part after the stored bytes: ", 100 MB decompressed
// (10 MB/s)" when the input was compressed, else " (rate)" of the bytes
// read, to put inside or after the stored part.
func (d *Display) work(elapsed time.Duration) (rate, decompressed string) {
	if d.dec > d.stored {
		return "", fmt.Sprintf(", %s decompressed (%s)", human.Bytes(d.dec), human.ByteRate(d.dec, elapsed))
	}
	return human.ByteRate(d.stored, elapsed), ""
}

// eta is the time left by the stored bytes, or 0 when unknown or done.
func (d *Display) eta(now time.Time) time.Duration {
	if d.total <= 0 || d.stored <= 0 || d.stored >= d.total {
		return 0
	}
	return time.Duration(float64(now.Sub(d.start)) * float64(d.total-d.stored) / float64(d.stored))
}

// percent is the stored bytes' percentage of the total, at most 99 until
// Finish: the stored bytes are read ahead of the decompressor (buffers of a
// MB or so), so all of them are read while the end of a large stream is
// still being decompressed and parsed.
func (d *Display) percent() int64 {
	if d.finished {
		return min(100, 100*d.stored/d.total)
	}
	return min(99, 100*d.stored/d.total)
}

// etaText is the ETA for people: "ETA 12s", or "ETA <1s".
func etaText(eta time.Duration) string {
	if eta < time.Second {
		return "ETA <1s"
	}
	return "ETA " + eta.Round(time.Second).String()
}

// Line is the log line for the state at time now: stored bytes of the
// total and the percentage, decompressed bytes and their rate, pages and
// revisions with their rates, the ETA and the time elapsed.
func (d *Display) Line(now time.Time) string {
	elapsed := now.Sub(d.start)
	rate, dec := d.work(elapsed)
	var in []string
	s := d.label + ": " + human.Bytes(d.stored)
	if d.total > 0 {
		s += " of " + human.Bytes(d.total)
		in = append(in, fmt.Sprintf("%d%%", d.percent()))
	}
	s += " read"
	if rate != "" {
		in = append(in, rate)
	}
	if len(in) > 0 {
		s += " (" + strings.Join(in, ", ") + ")"
	}
	s += dec + fmt.Sprintf(", %s pages (%s/s), %s revisions (%s/s)",
		human.Comma(d.pages), human.Rate(d.pages, elapsed), human.Comma(d.revs), human.Rate(d.revs, elapsed))
	if eta := d.eta(now); eta > 0 {
		s += ", " + etaText(eta)
	}
	return s + ", elapsed " + elapsed.Round(time.Second).String()
}

// Bar is the terminal line for the state at time now, cut to one column
// less than the terminal's width so that it never wraps: the percentage
// and a bar of the stored bytes, stored of total bytes, decompressed bytes
// and their rate, pages, revisions and their rate, and the ETA (the time
// elapsed when the total is unknown or reached).
func (d *Display) Bar(now time.Time) string {
	elapsed := now.Sub(d.start)
	rate, dec := d.work(elapsed)
	var s string
	if d.total > 0 {
		p := d.percent()
		cells := int(p * barCells / 100)
		s = fmt.Sprintf("%s %3d%% [%s%s] %s", d.label, p, strings.Repeat("█", cells), strings.Repeat("░", barCells-cells), ofTotal(d.stored, d.total))
	} else {
		s = d.label + "  " + human.Bytes(d.stored) + " read"
	}
	if rate != "" {
		s += " (" + rate + ")"
	}
	s += dec + ", " + plural(d.pages, "page") + ", " + plural(d.revs, "revision") + " (" + human.Rate(d.revs, elapsed) + "/s)"
	if eta := d.eta(now); eta > 0 {
		s += ", " + etaText(eta)
	} else {
		s += ", elapsed " + elapsed.Round(time.Second).String()
	}
	if max := d.width - 1; max > 0 && utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max])
	}
	return s
}

// ofTotal is "1.0/4.0 MB", or "900 kB/4.0 MB" when the units differ.
func ofTotal(v, total int64) string {
	a, b := human.Bytes(v), human.Bytes(total)
	an, au, _ := strings.Cut(a, " ")
	_, bu, _ := strings.Cut(b, " ")
	if au == bu {
		return an + "/" + b
	}
	return a + "/" + b
}

func plural(v int64, what string) string { return human.Count(v, what, what+"s") }

// Finish completes the display: the bar drawn a last time (at 100 % when
// every byte was reported) and ended with a newline, or a last log line if
// any was printed.
func (d *Display) Finish() {
	d.finished = true
	if d.quiet {
		return
	}
	if d.terminal {
		d.draw(d.now())
		fmt.Fprintln(d.w)
		return
	}
	if d.last != d.start {
		fmt.Fprintln(d.w, d.Line(d.now()))
	}
}
