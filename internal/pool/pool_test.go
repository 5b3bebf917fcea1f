package pool

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// slowFirst makes early jobs slow so that later ones finish first: the
// sink must still see them in send order.
func slowFirst(ctx context.Context, j int) (int, error) {
	if j%7 == 0 {
		time.Sleep(time.Millisecond)
	}
	return j * j, nil
}

func sendN(n int) func(context.Context, Send[int]) error {
	return func(_ context.Context, send Send[int]) error {
		for i := range n {
			if err := send(i, 1); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestOrderPreserved(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		var got []int
		err := Ordered(context.Background(), Options{Workers: workers}, sendN(200), slowFirst, func(r int) error {
			got = append(got, r)
			return nil
		})
		if err != nil {
			t.Fatalf("workers %d: %v", workers, err)
		}
		if len(got) != 200 {
			t.Fatalf("workers %d: %d results, want 200", workers, len(got))
		}
		for i, r := range got {
			if r != i*i { // the naive sequential map
				t.Fatalf("workers %d: result %d is %d, want %d", workers, i, r, i*i)
			}
		}
	}
}

// The first failed job in send order is returned, not the first to fail
// in time, and nothing after it is sunk.
func TestErrorInSendOrder(t *testing.T) {
	work := func(ctx context.Context, j int) (int, error) {
		switch j {
		case 5:
			time.Sleep(20 * time.Millisecond) // fails last in time
			return 0, fmt.Errorf("job %d failed", j)
		case 6, 7:
			return 0, fmt.Errorf("job %d failed", j)
		}
		return j, nil
	}
	var sunk []int
	err := Ordered(context.Background(), Options{Workers: 4}, sendN(100), work, func(r int) error {
		sunk = append(sunk, r)
		return nil
	})
	if err == nil || err.Error() != "job 5 failed" {
		t.Fatalf("err = %v, want job 5 failed", err)
	}
	if len(sunk) != 5 {
		t.Fatalf("sunk %v, want jobs 0–4", sunk)
	}
}

func TestSinkErrorStops(t *testing.T) {
	stop := errors.New("disk full")
	var produced atomic.Int64
	produce := func(_ context.Context, send Send[int]) error {
		for i := range 1_000_000 {
			if err := send(i, 1); err != nil {
				return err
			}
			produced.Add(1)
		}
		return nil
	}
	n := 0
	err := Ordered(context.Background(), Options{Workers: 2, Window: 4}, produce, slowFirst, func(int) error {
		if n++; n == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("err = %v, want %v", err, stop)
	}
	// 10 sunk, at most Window more sent before the producer saw the stop.
	if p := produced.Load(); p > 10+4 {
		t.Fatalf("%d jobs sent after the sink failed at 10 with a window of 4", p)
	}
}

func TestProducerError(t *testing.T) {
	bad := errors.New("dataset truncated")
	produce := func(_ context.Context, send Send[int]) error {
		for i := range 30 {
			if err := send(i, 1); err != nil {
				return err
			}
		}
		return bad
	}
	n := 0
	err := Ordered(context.Background(), Options{Workers: 3}, produce, slowFirst, func(int) error { n++; return nil })
	if !errors.Is(err, bad) {
		t.Fatalf("err = %v, want %v", err, bad)
	}
	if n != 30 { // the jobs sent before the error are all sunk
		t.Fatalf("%d sunk, want 30", n)
	}
}

// Cancelling the parent stops the pool promptly and returns ctx.Err(),
// not the jobs' wrapped errors.
func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	work := func(ctx context.Context, j int) (int, error) {
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("job %d: %w", j, ctx.Err())
		case <-time.After(time.Millisecond):
			return j, nil
		}
	}
	n := 0
	produce := func(ctx context.Context, send Send[int]) error {
		for i := 0; ; i++ {
			if err := send(i, 1); err != nil {
				return err
			}
		}
	}
	done := make(chan error, 1)
	go func() {
		done <- Ordered(ctx, Options{Workers: 2}, produce, work, func(int) error {
			if n++; n == 20 {
				cancel()
			}
			return nil
		})
	}()
	select {
	case err := <-done:
		if err != context.Canceled {
			t.Fatalf("err = %v, want exactly context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the pool did not stop after cancellation")
	}
}

// The reorder buffer holds at most Window − 1 results and at most Window
// jobs are in flight, however slow the earliest job is; a job's cost is
// its share of the window.
func TestBoundedReorderBuffer(t *testing.T) {
	const window = 6
	var inflight, peak atomic.Int64
	var released atomic.Bool
	release := make(chan struct{})
	work := func(ctx context.Context, j int) (int, error) {
		if j == 0 {
			<-release // the earliest job blocks everything behind it
		}
		return j, nil
	}
	produce := func(_ context.Context, send Send[int]) error {
		for i := range 100 {
			cost := 1 + i%3 // 1, 2 or 3 tokens
			if err := send(i, cost); err != nil {
				return err
			}
			v := inflight.Add(int64(cost))
			for {
				p := peak.Load()
				if v <= p || peak.CompareAndSwap(p, v) {
					break
				}
			}
			if i == 3 && !released.Load() { // jobs 0–3 take 1+2+3+1 = 7 > 6 tokens: job 3 cannot be sent until 0 is sunk
				t.Error("job 3 was sent while job 0 held the window")
			}
		}
		return nil
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		if p := peak.Load(); p != 6 { // jobs 0, 1, 2: 1 + 2 + 3 tokens
			t.Errorf("while job 0 blocked, %d tokens were held, want 6", p)
		}
		released.Store(true)
		close(release)
	}()
	next := 0
	err := Ordered(context.Background(), Options{Workers: 4, Window: window}, produce, work, func(r int) error {
		if r != next {
			t.Errorf("sunk %d, want %d", r, next)
		}
		inflight.Add(-int64(1 + r%3))
		next++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if next != 100 {
		t.Fatalf("%d sunk, want 100", next)
	}
	if p := peak.Load(); p > window {
		t.Fatalf("peak of %d tokens held, window %d", p, window)
	}
}
