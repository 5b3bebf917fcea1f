package shard

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
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

// MergeError is a set of shard outputs that do not form one run (bad
// usage: missing or repeated shards, different options or datasets).
// replay.MergeError, crawllog.MergeError and analysis.MergeError are this
// type.
type MergeError struct{ Err error }

func (e *MergeError) Error() string { return e.Err.Error() }
func (e *MergeError) Unwrap() error { return e.Err }

// OutNotShard refuses an output that is one of the shards read: the
// merge would replace that input.
func OutNotShard(dirs []string, out string) error {
	for _, d := range dirs {
		if filepath.Clean(d) == filepath.Clean(out) {
			return &MergeError{fmt.Errorf("merge: the output %s is one of the shards", out)}
		}
	}
	return nil
}

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
		return nil, &MergeError{fmt.Errorf("merge: %s: shard %q: N must be ≥ 1", dirs[0], ids[0].Spec)}
	}
	byIndex := make([]int, n) // shard index → position in dirs
	for i := range byIndex {
		byIndex[i] = -1
	}
	for k, id := range ids {
		if id.N != n || id.I < 0 || id.I >= n {
			return nil, &MergeError{fmt.Errorf("merge: %s is shard %s, %s is shard %s: not shards of one split", dirs[0], ids[0].Spec, dirs[k], id.Spec)}
		}
		if j := byIndex[id.I]; j >= 0 {
			return nil, &MergeError{fmt.Errorf("merge: shard %s given twice (%s and %s)", id.Spec, dirs[j], dirs[k])}
		}
		byIndex[id.I] = k
		if err := same(k); err != nil {
			return nil, &MergeError{fmt.Errorf("merge: %s and %s are not shards of one %s: %v", dirs[0], dirs[k], what, err)}
		}
	}
	for i, k := range byIndex {
		if k < 0 {
			return nil, &MergeError{fmt.Errorf("merge: shard %d/%d is missing (%d of %d given)", i, n, len(dirs), n)}
		}
	}
	return byIndex, nil
}
