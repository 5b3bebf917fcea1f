package estimates

import (
	"errors"
	"fmt"
	"iter"
	"path/filepath"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/atomicdir"
)

// MergeOutput is the output of a merge of shards' estimate outputs
// while it is written: the directory (committed by the caller), its
// estimates.parquet writer and one row stream per shard read. What a
// merge puts together, and in which order, belongs to the package whose
// output it is (replay.Merge, crawllog.MergeEstimates); checking that the
// outputs are the shards of one split is internal/shard's.
type MergeOutput struct {
	out, what string
	Dir       *atomicdir.Dir
	W         *Writer
	Streams   []*RowStream
}

// OpenMerge creates out (marker and what as atomicdir.Create takes
// them) with its estimates writer, and opens a row stream on each of dirs.
// Close releases it all.
func OpenMerge(out, marker, what string, dirs []string) (*MergeOutput, error) {
	o, err := atomicdir.Create(out, marker, what)
	if err != nil {
		return nil, err
	}
	w, err := NewWriter(filepath.Join(o.Path(), File))
	if err != nil {
		o.Abort()
		return nil, fmt.Errorf("%s %s: %w", what, out, err)
	}
	m := &MergeOutput{out: out, what: what, Dir: o, W: w, Streams: make([]*RowStream, len(dirs))}
	for k, d := range dirs {
		m.Streams[k] = newRowStream(d)
	}
	return m, nil
}

// FinishRows ends estimates.parquet after the rows were written: abandoned
// when writing failed (werr, returned), closed otherwise.
func (m *MergeOutput) FinishRows(werr error) error {
	if werr != nil {
		m.W.Abort()
		return werr
	}
	if err := m.W.Close(); err != nil {
		return fmt.Errorf("%s %s: %w", m.what, m.out, err)
	}
	return nil
}

// Close stops the row streams and removes the output unless it was
// committed.
func (m *MergeOutput) Close() {
	for _, s := range m.Streams {
		s.stop()
	}
	m.Dir.Abort()
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
