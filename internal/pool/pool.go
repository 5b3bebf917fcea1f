// Package pool is revisit's one worker pool: an ordered parallel map. Jobs
// sent by a producer run on a fixed number of workers, and their results
// are handed to a sink one at a time, in the order the jobs were sent,
// whatever order the workers finish in — so that sums of floating-point
// numbers and written rows are the same, bit for bit, for any number of
// workers.
//
// Memory is bounded: every job holds between 1 and Window tokens from the
// moment it is sent until its result has been sunk, and the producer
// waits while the tokens are all held. At most Window jobs are thus in
// flight or waiting in the reorder buffer, which never holds more than
// Window − 1 results.
package pool

import (
	"context"
	"runtime"
	"sync"
)

// Options size a pool.
type Options struct {
	// Workers is the number of goroutines running jobs; 0 takes
	// runtime.GOMAXPROCS(0).
	Workers int
	// Window is the number of tokens (see the package doc); 0 takes
	// 4 × Workers. A job's cost is clamped to [1, Window].
	Window int
}

// Send hands a job to the pool with its cost in tokens; it blocks while
// too few tokens are free and returns the context's error when the pool
// stops.
type Send[J any] func(job J, cost int) error

// Ordered runs produce, which sends jobs; work runs each job on one of
// the workers; sink receives each job's result in the calling goroutine,
// in the order the jobs were sent.
//
// Errors: the first failed job in send order (work returned an error) or
// the first sink error stops the pool (the context passed to produce and
// work is cancelled) and is returned; results of later jobs are dropped.
// Otherwise produce's error is returned, after every job sent before it
// has been sunk. A job that fails after the pool's context was cancelled
// is not reported: Ordered then returns the context's error (a cancelled
// parent context gives ctx.Err(), never a job's wrapped form of it).
// Ordered returns only after produce has returned: produce must return
// soon after send fails or its context is done.
func Ordered[J, R any](ctx context.Context, o Options, produce func(ctx context.Context, send Send[J]) error,
	work func(ctx context.Context, job J) (R, error), sink func(R) error) error {
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	window := o.Window
	if window <= 0 {
		window = 4 * workers
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type item struct {
		seq, cost int
		job       J
	}
	type out struct {
		seq, cost int
		res       R
		err       error
	}
	jobs := make(chan item)
	outs := make(chan out, workers)
	tokens := make(chan struct{}, window)

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range jobs {
				r, err := work(ctx, it.job)
				if err != nil && ctx.Err() != nil {
					return // cancelled: not a failure of this job
				}
				select {
				case outs <- out{seq: it.seq, cost: it.cost, res: r, err: err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(outs) }()

	var prodErr error
	prodDone := make(chan struct{})
	go func() {
		defer close(prodDone)
		defer close(jobs)
		seq := 0
		send := func(j J, cost int) error {
			cost = min(max(cost, 1), window)
			// Only this goroutine takes tokens, one job at a time, in
			// send order: the earliest job not yet sunk always gets
			// its tokens, so the pool cannot deadlock.
			for range cost {
				select {
				case tokens <- struct{}{}:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			select {
			case jobs <- item{seq: seq, cost: cost, job: j}:
			case <-ctx.Done():
				return ctx.Err()
			}
			seq++
			return nil
		}
		prodErr = produce(ctx, send)
	}()

	// The reorder buffer: results that arrive before their turn. Its
	// size is bounded by the window (see the package doc).
	pending := map[int]out{}
	next := 0
	var err error
	for o := range outs {
		if err != nil {
			continue // stopping: drain until the workers have returned
		}
		pending[o.seq] = o
		for {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			for range p.cost {
				<-tokens
			}
			if p.err != nil {
				err = p.err
			} else {
				err = sink(p.res)
			}
			if err != nil {
				cancel()
				break
			}
		}
	}
	<-prodDone // produce returns once send fails (the pool stopped)
	if err == nil {
		err = prodErr
	}
	if err == nil {
		err = ctx.Err()
	}
	return err
}
