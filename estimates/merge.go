package estimates

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"path/filepath"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/stage"
)

// Merge writes o, the merge of the estimate outputs at dirs, on the
// stage skeleton (stage.Write: put in place only when everything
// succeeded, nothing after a cancellation): rows writes estimates.parquet
// through w, reading shard k's rows from streams[k] in order, and may
// write other files into tmp; finish writes what follows the rows into
// tmp, with w closed. On an error w is abandoned, the streams stopped and
// the output removed. What a merge puts together, and in which order,
// belongs to the package whose output it is (replay.Merge,
// crawllog.MergeEstimates); checking that dirs are the shards of one
// split is internal/shard's.
func Merge(ctx context.Context, o stage.Output, dirs []string, rows func(tmp string, w *Writer, streams []*RowStream) error, finish func(tmp string, w *Writer) error) error {
	return stage.Write(ctx, o, func(tmp string) error {
		w, err := NewWriter(filepath.Join(tmp, File))
		if err != nil {
			return fmt.Errorf("%s %s: %w", o.What, o.Dir, err)
		}
		streams := make([]*RowStream, len(dirs))
		for k, d := range dirs {
			streams[k] = newRowStream(d)
		}
		defer func() {
			for _, s := range streams {
				s.stop()
			}
		}()
		if err := rows(tmp, w, streams); err != nil {
			w.Abort()
			return err
		}
		if err := w.Close(); err != nil {
			return fmt.Errorf("%s %s: %w", o.What, o.Dir, err)
		}
		return finish(tmp, w)
	})
}

// RowStream reads one estimates.parquet row by row, with one row of
// look-ahead.
type RowStream struct {
	next0 func() (*estimator.Estimate, bool)
	stop  func()
	err   error
	head  *estimator.Estimate
	done  bool
}

func newRowStream(dir string) *RowStream {
	s := &RowStream{}
	seq := iter.Seq[*estimator.Estimate](func(yield func(*estimator.Estimate) bool) {
		stop := errors.New("stop")
		err := Each(dir, func(e *estimator.Estimate) error {
			if !yield(e) {
				return stop
			}
			return nil
		})
		if err != nil && err != stop {
			s.err = err
		}
	})
	s.next0, s.stop = iter.Pull(seq)
	return s
}

// Peek is the next row (false at the end), not consumed.
func (s *RowStream) Peek() (*estimator.Estimate, bool, error) {
	if s.head == nil && !s.done {
		e, ok := s.next0()
		if !ok {
			s.done = true
		} else {
			s.head = e
		}
	}
	if s.done && s.err != nil {
		return nil, false, s.err
	}
	return s.head, s.head != nil, nil
}

// Next consumes the row Peek returned.
func (s *RowStream) Next() { s.head = nil }
