package policy

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A cancelled context stops Run, already cancelled or cancelled while it
// replays a large corpus: it returns context.Canceled and no bundle.
func TestRunCancelled(t *testing.T) {
	pages := genCorpus(20, 100, 3000, 1000, uniform(20), 4)
	for _, delay := range []time.Duration{0, 50 * time.Millisecond} {
		ctx, cancel := context.WithCancel(context.Background())
		if delay == 0 {
			cancel()
		} else {
			time.AfterFunc(delay, cancel)
		}
		type out struct {
			ok  bool
			err error
		}
		ch := make(chan out, 1)
		go func() {
			b, err := Run(ctx, pages, Options{Cycle: 1000, Budget: 200, Seed: 1})
			ch <- out{b != nil, err}
		}()
		select {
		case o := <-ch:
			if !errors.Is(o.err, context.Canceled) || o.ok {
				t.Errorf("cancelled after %v: bundle %v, error %v; want none and context.Canceled", delay, o.ok, o.err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("cancelled after %v: Run did not return within 10 s", delay)
		}
		cancel()
	}
}
