//go:build unix

package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/revisit-dev/revisit/ingest/generic"
)

// Ctrl-C stops ingest within about a second (README, Limits and safety)
// even while a reader is still inside its input: a generic log is read to
// its end before its first page comes out, and a 10 GB log takes minutes.
// Here the log (a FIFO) never ends while the test runs; Run must return
// context.Canceled soon after the cancel and leave no dataset. Before the
// fix it went on reading until the input ended (the writer gives up after
// 20 s: the test then fails).
func TestCancelInsideInput(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "log.csv")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	rec := &liveRecorder{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := filepath.Join(dir, "ds")
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Options{Inputs: []string{fifo}, Output: out, Progress: rec,
			Generic: generic.Options{ID: "id", Time: "ts", TimeLayout: "epoch"}})
		done <- err
	}()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer w.Close()
		fmt.Fprintln(w, "id,ts")
		stop := time.Now().Add(20 * time.Second)
		for i := 0; time.Now().Before(stop); i++ {
			if _, err := fmt.Fprintf(w, "o%d,%d\n", i%100, 1500000000+i); err != nil {
				return // the reader is gone
			}
			if i%1000 == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	for deadline := time.Now().Add(10 * time.Second); rec.dec.Load() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("nothing read")
		}
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run: %v, want context.Canceled", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Run still reading 3 s after the cancel")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("output left behind: %v", err)
	}
}

// cancelAfterPages cancels when Add is called without pages after a call
// with pages: at the end of the input, once its pages were read and before
// the pages of a generic log (held until the last input) are written.
type cancelAfterPages struct {
	cancel func()
	seen   bool
}

func (c *cancelAfterPages) Start(int64) {}
func (c *cancelAfterPages) Finish()     {}
func (c *cancelAfterPages) Add(_, _, pages, _ int64) {
	if pages > 0 {
		c.seen = true
	} else if c.seen {
		c.cancel()
	}
}

// A cancel that comes after the last input was read, while the pages held
// to the end are written, must still stop the run: before the fix the
// dataset was committed and Run succeeded (exit 0 after Ctrl-C).
func TestCancelWhileWritingHeldPages(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,ts\n")
	for i := range 300 {
		fmt.Fprintf(&b, "o%d,%d\n", i, 1500000000+i)
	}
	in := write(t, dir, "log.csv", b.String())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := filepath.Join(dir, "ds")
	_, err := Run(ctx, Options{Inputs: []string{in}, Output: out, Progress: &cancelAfterPages{cancel: cancel},
		Generic: generic.Options{ID: "id", Time: "ts", TimeLayout: "epoch"}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v, want context.Canceled", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("output written after the cancel: %v", err)
	}
}
