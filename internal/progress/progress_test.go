package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// Not a terminal: one log line per interval, with rates derived by hand.
func TestLogLines(t *testing.T) {
	var buf bytes.Buffer
	c := &clock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	d := New(&buf, "ingest", false)
	d.now = c.now
	if d.terminal {
		t.Fatal("a bytes.Buffer is not a terminal")
	}
	d.Start(4_000_000)
	c.t = c.t.Add(5 * time.Second)
	d.Add(1_000_000, 50_000_000, 100, 10_000) // before the first interval: silent
	if buf.Len() != 0 {
		t.Fatalf("printed before the interval: %q", buf.String())
	}
	c.t = c.t.Add(5 * time.Second)
	d.Add(1_000_000, 50_000_000, 100, 10_000)
	// 2 MB of 4 MB after 10 s: 50%; 100 MB decompressed = 10 MB/s; 200
	// pages = 20/s, 20,000 revisions = 2,000/s, ETA = 10 s · (4−2)/2 = 10 s.
	want := "ingest: 2.0 MB of 4.0 MB read (50%), 100 MB decompressed (10 MB/s), 200 pages (20/s), 20,000 revisions (2,000/s), ETA 10s, elapsed 10s\n"
	if buf.String() != want {
		t.Fatalf("got  %q\nwant %q", buf.String(), want)
	}
	buf.Reset()
	c.t = c.t.Add(10 * time.Second)
	d.Add(2_000_000, 100_000_000, 0, 0)
	d.Finish()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], "4.0 MB of 4.0 MB read (100%), 200 MB decompressed (10 MB/s)") || strings.Contains(lines[1], "ETA") {
		t.Fatalf("final lines %q", lines)
	}
}

// Plain input (decompressed = stored): the rate is of the bytes read, and
// "decompressed" is not said.
func TestLogLinePlain(t *testing.T) {
	c := &clock{time.Unix(0, 0)}
	d := New(&bytes.Buffer{}, "ingest", false)
	d.now = c.now
	d.Start(3_000_000)
	c.t = c.t.Add(2 * time.Second)
	d.Add(1_000_000, 1_000_000, 3, 1_001)
	if got, want := d.Line(c.t), "ingest: 1.0 MB of 3.0 MB read (33%, 500 kB/s), 3 pages (1/s), 1,001 revisions (500/s), ETA 4s, elapsed 2s"; got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestQuietAndUnknownTotal(t *testing.T) {
	var buf bytes.Buffer
	d := New(&buf, "ingest", true)
	d.Start(-1)
	d.Add(1, 1, 1, 1)
	d.Finish()
	if buf.Len() != 0 {
		t.Fatalf("quiet display wrote %q", buf.String())
	}
	c := &clock{time.Unix(0, 0)}
	d = New(&buf, "ingest", false)
	d.now = c.now
	d.Start(-1)
	c.t = c.t.Add(20 * time.Second)
	d.Add(3_000_000, 3_000_000, 0, 0)
	if got := buf.String(); !strings.HasPrefix(got, "ingest: 3.0 MB read (150 kB/s), 0 pages") || strings.Contains(got, "ETA") || strings.Contains(got, "%") {
		t.Fatalf("unknown total: %q", got)
	}
}

// newBar is a display drawing a bar of the given width into buf, as on a
// terminal.
func newBar(buf *bytes.Buffer, c *clock, width int) *Display {
	d := New(buf, "ingest", false)
	d.now, d.terminal, d.width = c.now, true, width
	return d
}

// The bar line: percentage and bar of the stored bytes (the ETA's base),
// decompressed bytes and their rate, pages and revisions with rates.
func TestBarLine(t *testing.T) {
	c := &clock{time.Unix(0, 0)}
	d := newBar(&bytes.Buffer{}, c, 200)
	d.Start(4_000_000)
	c.t = c.t.Add(10 * time.Second)
	d.Add(1_000_000, 100_000_000, 0, 5_000)
	if got := d.Line(c.t); !strings.HasSuffix(got, ", ETA 30s, elapsed 10s") {
		t.Fatalf("log line %q", got)
	}
	c.t = c.t.Add(-9900 * time.Millisecond) // 0.1 s: ETA 0.3 s
	if got := d.Bar(c.t); !strings.HasSuffix(got, ", ETA <1s") {
		t.Fatalf("short ETA: %q", got)
	}
	c.t = c.t.Add(9900 * time.Millisecond)
	// 25% of a 20-cell bar is 5 cells; 100 MB in 10 s = 10 MB/s; 5,000
	// revisions in 10 s = 500/s; ETA 10 s · 3/1 = 30 s.
	want := "ingest  25% [█████░░░░░░░░░░░░░░░] 1.0/4.0 MB, 100 MB decompressed (10 MB/s), 0 pages, 5,000 revisions (500/s), ETA 30s"
	if got := d.Bar(c.t); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	// A narrow terminal: cut to width − 1 columns, so the line never wraps.
	d.width = 40
	if got := d.Bar(c.t); utf8.RuneCountInString(got) != 39 || !strings.HasPrefix(got, "ingest  25% [█████") {
		t.Fatalf("narrow: %q (%d runes)", got, utf8.RuneCountInString(got))
	}
	// Unknown total: no bar, no percentage, no ETA.
	d = newBar(&bytes.Buffer{}, c, 200)
	d.Start(-1)
	d.start = time.Unix(0, 0)
	d.Add(1_000_000, 1_000_000, 1, 1)
	if got, want := d.Bar(c.t), "ingest  1.0 MB read (100 kB/s), 1 page, 1 revision (0/s), elapsed 10s"; got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

// During a long decompression only bytes come (no pages): the bar is
// redrawn anyway, at most every redraw interval, and Finish leaves it at
// 100 % on its own line.
func TestBarMovesAndFinishes(t *testing.T) {
	var buf bytes.Buffer
	c := &clock{time.Unix(0, 0)}
	d := newBar(&buf, c, 200)
	d.Start(1_000)
	draws := func() int { return strings.Count(buf.String(), "\r") }
	start := draws()
	for i := 0; i < 10; i++ {
		c.t = c.t.Add(250 * time.Millisecond)
		d.Add(90, 9_000, 0, 0)
		d.Add(0, 0, 0, 0) // in the same instant: throttled
	}
	if got := draws() - start; got != 10 {
		t.Fatalf("%d redraws for 10 ticks 250 ms apart, want 10", got)
	}
	if !strings.Contains(buf.String(), " 90% [") {
		t.Fatalf("after 900 of 1,000 bytes: %q", buf.String())
	}
	c.t = c.t.Add(time.Second)
	d.Add(100, 10_000, 1, 15_180)
	// Every stored byte is read, but the stage is not done: 99 %, until Finish.
	if bar := d.Bar(c.t); !strings.HasPrefix(bar, "ingest  99% [███████████████████░]") {
		t.Fatalf("before Finish: %q", bar)
	}
	d.Finish()
	out := buf.String()
	last := out[strings.LastIndex(out, "\r")+1:]
	if !strings.HasPrefix(last, "ingest 100% [████████████████████] 1.0/1.0 kB, 100 kB decompressed") || !strings.HasSuffix(last, "\n") || strings.Contains(last, "ETA") {
		t.Fatalf("final bar %q", last)
	}
}
