// Package stage is the skeleton every stage that writes an output directory
// shares: create the output beside its final place, fill it (open the
// writers, run the ordered pool from producer through workers to sink,
// write what follows the rows), and put it in place only when all of that
// succeeded — on an error or a cancellation the output is removed and an
// earlier one stays as it was. It is not a stage and imports none: what is
// produced, worked and sunk, and what is written, belong to the stage
// (replay, crawllog, analysis) that calls Run or Write.
package stage

import (
	"context"

	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/pool"
)

// Output is a stage's output directory: Dir, its final path, Marker, the
// file that marks it as revisit's, and What, its name in messages ("replay
// output"), as atomicdir.Create takes them. The zero Output is a stage
// that writes no directory (its result is returned).
type Output struct {
	Dir, Marker, What string
}

// Write creates o (atomicdir.CreateContext: refused when Dir holds
// something revisit did not write), lets fill write into the temporary
// directory it is given, and commits it when fill returned nil and ctx is
// not done. Otherwise the temporary directory is removed and fill's error
// (or the context's) returned: no half-written output is ever in place.
// With the zero Output, fill is called with "" and nothing is created.
func Write(ctx context.Context, o Output, fill func(tmp string) error) error {
	if o.Dir == "" {
		return fill("")
	}
	out, err := atomicdir.CreateContext(ctx, o.Dir, o.Marker, o.What)
	if err != nil {
		return err
	}
	defer out.Abort() // no-op after Commit
	if err := fill(out.Path()); err != nil {
		return err
	}
	return out.Commit()
}

// Stage is the work of one stage between creating its output and
// committing it, in this order: Open creates the writers in the temporary
// directory; Produce sends jobs that Work runs on Pool's workers and whose
// results Sink receives one at a time in the order sent (pool.Ordered);
// Finish closes the writers and writes what follows the rows (metadata,
// tables). Abort, when not nil, releases the writers when any step
// failed or the context was cancelled (Finish is then not called, or
// failed); it is not called after a successful Finish. Open and Finish
// may be nil.
type Stage[J, R any] struct {
	Pool    pool.Options
	Open    func(tmp string) error
	Produce func(ctx context.Context, send pool.Send[J]) error
	Work    func(ctx context.Context, job J) (R, error)
	Sink    func(R) error
	Finish  func(tmp string) error
	Abort   func()
}

// Run runs s into o: Write with Open, the ordered pool and Finish as its
// fill. Errors are returned as the steps return them (pool.Ordered's: the
// first failed job in send order, a sink's, or the producer's; the
// context's error after a cancellation), unwrapped.
func Run[J, R any](ctx context.Context, o Output, s Stage[J, R]) error {
	return Write(ctx, o, s.Fill(ctx))
}

// Fill is s as the fill of Write (or of a writer built on it, such as
// internal/tables' WriteResults): Open, the ordered pool, Finish, and
// Abort when any of them failed.
func (s Stage[J, R]) Fill(ctx context.Context) func(tmp string) error {
	return func(tmp string) error {
		finished := false
		defer func() {
			if !finished && s.Abort != nil {
				s.Abort()
			}
		}()
		if s.Open != nil {
			if err := s.Open(tmp); err != nil {
				return err
			}
		}
		if err := pool.Ordered(ctx, s.Pool, s.Produce, s.Work, s.Sink); err != nil {
			return err
		}
		if s.Finish != nil {
			if err := s.Finish(tmp); err != nil {
				return err
			}
		}
		finished = true
		return nil
	}
}
