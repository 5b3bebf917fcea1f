package staleness

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// A cancelled context stops Analyze, already cancelled or cancelled while
// it works on a large input: it returns context.Canceled and no bundle.
func TestAnalyzeCancelled(t *testing.T) {
	pages := make([]series.Page, 2000)
	for i := range pages {
		r := model.NewRand(9, uint64(i))
		u := make([]int64, 20_000)
		u[0] = 1_000_000_000
		for j := 1; j < len(u); j++ {
			u[j] = u[j-1] + 1 + int64(r.ExpFloat64()*3600)
		}
		pages[i] = series.Page{ID: int64(i + 1), Title: "p", Resolution: 1, Updates: u}
	}
	for _, delay := range []time.Duration{0, 20 * time.Millisecond} {
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
			b, err := Analyze(ctx, pages, 3600, Options{Seed: 1})
			ch <- out{b != nil, err}
		}()
		select {
		case o := <-ch:
			if !errors.Is(o.err, context.Canceled) || o.ok {
				t.Errorf("cancelled after %v: bundle %v, error %v; want none and context.Canceled", delay, o.ok, o.err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("cancelled after %v: Analyze did not return within 10 s", delay)
		}
		cancel()
	}
}
