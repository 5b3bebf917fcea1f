// Package shardmerge holds the mechanics that merging shard outputs needs
// whatever was sharded: checking that N outputs are the shards 0…N−1 of
// one split, each once (Order), refusing to write over an input
// (OutNotShard), the merged output directory with its estimates.parquet
// writer and one row stream per shard (Open, RowStream), floats that
// round-trip exactly through the shard records (ExactFloat), and the
// bad-usage error (Error).
//
// What a merge puts together, and in which order, belongs to the package
// whose output it is: replay.Merge (pages in dataset order or the top
// pages, the WMRD/KS summary recomputed) and crawllog.MergeEstimates (URLs
// in the order read, the report bundle recomputed). analysis merges
// partial statistics, not estimate rows, and has its own.
package shardmerge

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"path/filepath"
	"strconv"

	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/usage"
)

// ExactFloat is a float64 in JSON that round-trips exactly, NaN and ±Inf
// included (as strings): the shard records carry the values the merge
// must reproduce bit for bit.
type ExactFloat float64

func (f ExactFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte(strconv.Quote(strconv.FormatFloat(v, 'g', -1, 64))), nil
	}
	return []byte(strconv.FormatFloat(v, 'g', -1, 64)), nil
}

func (f *ExactFloat) UnmarshalJSON(b []byte) error {
	s := string(b)
	if u, err := strconv.Unquote(s); err == nil {
		s = u
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	*f = ExactFloat(v)
	return nil
}

// Error is a set of shard outputs that do not form one run: bad usage
// (usage.Error: missing or repeated shards, different options).
// replay.MergeError and crawllog.MergeError are this type.
type Error = usage.Error

// OutNotShard refuses an output that is one of the shards read: the
// merge would replace that input.
func OutNotShard(dirs []string, out string) error {
	for _, d := range dirs {
		if filepath.Clean(d) == filepath.Clean(out) {
			return &Error{Err: fmt.Errorf("merge: the output %s is one of the shards", out)}
		}
	}
	return nil
}

// Output is a merge's output while it is written: the directory
// (committed by the caller), its estimates.parquet writer and one row
// stream per shard read.
type Output struct {
	out, what string
	Dir       *atomicdir.Dir
	W         *estimates.Writer
	Streams   []*RowStream
}

// Open creates out (marker and what as atomicdir.Create takes
// them) with its estimates writer, and opens a row stream on each of dirs.
// close releases it all.
func Open(out, marker, what string, dirs []string) (*Output, error) {
	o, err := atomicdir.Create(out, marker, what)
	if err != nil {
		return nil, err
	}
	w, err := estimates.NewWriter(filepath.Join(o.Path(), estimates.File))
	if err != nil {
		o.Abort()
		return nil, fmt.Errorf("%s %s: %w", what, out, err)
	}
	m := &Output{out: out, what: what, Dir: o, W: w, Streams: make([]*RowStream, len(dirs))}
	for k, d := range dirs {
		m.Streams[k] = newRowStream(d)
	}
	return m, nil
}

// FinishRows ends estimates.parquet after the rows were written: abandoned
// when writing failed (werr, returned), closed otherwise.
func (m *Output) FinishRows(werr error) error {
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
func (m *Output) Close() {
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
		err := estimates.Each(dir, func(e *estimator.Estimate) error {
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

// ID is one shard of a split, as a shard output records it.
type ID struct {
	Spec string // "i/N"
	I, N int
}

// Order checks that ids (ids[k] read from dirs[k]) are the shards
// 0…N−1 of one split, each given once, and that same(k) accepts dirs[k] as
// a shard of the same run (a `what`: replay, estimate) as dirs[0]; it
// returns the position in dirs of shard i for i = 0…N−1. Every error is a
// *MergeError (bad usage).
func Order(dirs []string, ids []ID, what string, same func(k int) error) ([]int, error) {
	n := ids[0].N
	if n < 1 {
		return nil, &Error{Err: fmt.Errorf("merge: %s: shard %q: N must be ≥ 1", dirs[0], ids[0].Spec)}
	}
	byIndex := make([]int, n) // shard index → position in dirs
	for i := range byIndex {
		byIndex[i] = -1
	}
	for k, id := range ids {
		if id.N != n || id.I < 0 || id.I >= n {
			return nil, &Error{Err: fmt.Errorf("merge: %s is shard %s, %s is shard %s: not shards of one split", dirs[0], ids[0].Spec, dirs[k], id.Spec)}
		}
		if j := byIndex[id.I]; j >= 0 {
			return nil, &Error{Err: fmt.Errorf("merge: shard %s given twice (%s and %s)", id.Spec, dirs[j], dirs[k])}
		}
		byIndex[id.I] = k
		if err := same(k); err != nil {
			return nil, &Error{Err: fmt.Errorf("merge: %s and %s are not shards of one %s: %v", dirs[0], dirs[k], what, err)}
		}
	}
	for i, k := range byIndex {
		if k < 0 {
			return nil, &Error{Err: fmt.Errorf("merge: shard %d/%d is missing (%d of %d given)", i, n, len(dirs), n)}
		}
	}
	return byIndex, nil
}
