package shard

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

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

// MergeError is a set of shard outputs that do not form one run (bad
// usage: missing or repeated shards, different options or datasets).
// replay.MergeError, crawllog.MergeError and analysis.MergeError are this
// type.
type MergeError = usage.Error

// OutNotShard refuses an output that is one of the shards read: the
// merge would replace that input.
func OutNotShard(dirs []string, out string) error {
	for _, d := range dirs {
		if filepath.Clean(d) == filepath.Clean(out) {
			return &MergeError{Err: fmt.Errorf("merge: the output %s is one of the shards", out)}
		}
	}
	return nil
}

// Record is how a shard output names itself in its JSON record (replay's
// shard.json, estimate's estimate-shard.json): the program that wrote it
// and shard I of N. The merges check their shards' Records (Order, Set).
type Record struct {
	Tool  string `json:"tool"`  // "revisit"
	Shard string `json:"shard"` // "i/N"
	I     int    `json:"i"`
	N     int    `json:"n"`
}

// Record is the Record of an output of shard s.
func (s Spec) Record() Record {
	return Record{Tool: "revisit", Shard: s.String(), I: s.I, N: s.N}
}

// Set checks shard outputs one at a time as a merge reads them: Add each,
// then Finish. It is what Order does over a whole list, for a merge that
// folds each shard in and drops it before reading the next (analysis).
// Every error is a *MergeError (bad usage).
type Set struct {
	dirs    []string // given so far, in order
	first   Record
	byIndex []int // shard index → position in dirs; −1: not given
}

// Add checks that id, read from dir, is a shard of the same split as the
// first one added, not given before.
func (s *Set) Add(dir string, id Record) error {
	if s.byIndex == nil {
		if id.N < 1 {
			return &MergeError{Err: fmt.Errorf("merge: %s: shard %q: N must be ≥ 1", dir, id.Shard)}
		}
		s.first, s.byIndex = id, make([]int, id.N)
		for i := range s.byIndex {
			s.byIndex[i] = -1
		}
	}
	if id.N != s.first.N || id.I < 0 || id.I >= s.first.N {
		d0 := dir
		if len(s.dirs) > 0 {
			d0 = s.dirs[0]
		}
		return &MergeError{Err: fmt.Errorf("merge: %s is shard %s, %s is shard %s: not shards of one split", d0, s.first.Shard, dir, id.Shard)}
	}
	if j := s.byIndex[id.I]; j >= 0 {
		return &MergeError{Err: fmt.Errorf("merge: shard %s given twice (%s and %s)", id.Shard, s.dirs[j], dir)}
	}
	s.byIndex[id.I] = len(s.dirs)
	s.dirs = append(s.dirs, dir)
	return nil
}

// Finish checks that every shard 0…N−1 was added and returns the
// position (in the order added) of shard i for i = 0…N−1.
func (s *Set) Finish() ([]int, error) {
	if s.byIndex == nil {
		return nil, &MergeError{Err: errors.New("merge: no shards")}
	}
	for i, k := range s.byIndex {
		if k < 0 {
			return nil, &MergeError{Err: fmt.Errorf("merge: shard %d/%d is missing (%d of %d given)", i, s.first.N, len(s.dirs), s.first.N)}
		}
	}
	return s.byIndex, nil
}

// Order checks that ids (ids[k] read from dirs[k]) are the shards
// 0…N−1 of one split, each given once (Set), and that same(k) accepts
// dirs[k] as a shard of the same run (a `what`: replay, estimate) as
// dirs[0]; it returns the position in dirs of shard i for i = 0…N−1.
// Every error is a *MergeError (bad usage).
func Order(dirs []string, ids []Record, what string, same func(k int) error) ([]int, error) {
	var s Set
	for k, id := range ids {
		if err := s.Add(dirs[k], id); err != nil {
			return nil, err
		}
		if err := same(k); err != nil {
			return nil, &MergeError{Err: fmt.Errorf("merge: %s and %s are not shards of one %s: %v", dirs[0], dirs[k], what, err)}
		}
	}
	return s.Finish()
}

// SameDataset checks that the shard spec at dir read the dataset at path
// with identity id (dataset.Reader.Identity) as shard spec0 at dir0 read
// it with identity id0: shards of one run read the same dataset, not only
// the same path. did and do name the stage ("replayed", "replay").
func SameDataset(did, do, path, spec0, dir0, id0, spec, dir, id string) error {
	if id == id0 {
		return nil
	}
	return &MergeError{Err: fmt.Errorf("merge: shard %s (%s) and shard %s (%s) were %s from different datasets at %s (identity %.12s… ≠ %.12s…: the dataset was written again between them): %s every shard from the same dataset",
		spec0, dir0, spec, dir, did, path, id0, id, do)}
}
