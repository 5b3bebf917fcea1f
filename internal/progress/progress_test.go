package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
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
	d.Add(1_000_000, 100, 10_000) // before the first interval: silent
	if buf.Len() != 0 {
		t.Fatalf("printed before the interval: %q", buf.String())
	}
	c.t = c.t.Add(5 * time.Second)
	d.Add(1_000_000, 100, 10_000)
	// 2 MB of 4 MB after 10 s: 50%, 200 pages = 20/s, 20,000 revisions =
	// 2,000/s, ETA = 10 s · (4−2)/2 = 10 s.
	want := "ingest: 2.0 MB of 4.0 MB (50%), 200 pages (20/s), 20,000 revisions (2,000/s), ETA 10s, elapsed 10s\n"
	if buf.String() != want {
		t.Fatalf("got  %q\nwant %q", buf.String(), want)
	}
	buf.Reset()
	c.t = c.t.Add(10 * time.Second)
	d.Add(2_000_000, 0, 0)
	d.Finish()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], "4.0 MB of 4.0 MB (100%)") || strings.Contains(lines[1], "ETA") {
		t.Fatalf("final lines %q", lines)
	}
}

func TestQuietAndUnknownTotal(t *testing.T) {
	var buf bytes.Buffer
	d := New(&buf, "ingest", true)
	d.Start(-1)
	d.Add(1, 1, 1)
	d.Finish()
	if buf.Len() != 0 {
		t.Fatalf("quiet display wrote %q", buf.String())
	}
	c := &clock{time.Unix(0, 0)}
	d = New(&buf, "ingest", false)
	d.now = c.now
	d.Start(-1)
	c.t = c.t.Add(20 * time.Second)
	d.Add(3_000_000, 0, 0)
	if got := buf.String(); !strings.HasPrefix(got, "ingest: 3.0 MB, 0 pages") || strings.Contains(got, "ETA") || strings.Contains(got, "%") {
		t.Fatalf("unknown total: %q", got)
	}
}
