// Package shard splits the pages of a dataset among N independent
// processes: page p belongs to shard Hash(p) mod N, a stable hash of the
// page id alone, so a page lands in the same shard whatever the other
// pages are and whatever order they are read in. A shard is given as
// "i/N" (0 ≤ i < N) or, on a cluster, as "N" with the index i taken from
// the job array's environment (FromEnv).
//
// It also owns what every merge of shard outputs checks, whatever was
// sharded (merge.go): that N outputs are the shards 0…N−1 of one split,
// each once, of one dataset (Order, Set, SameDataset), that the output is
// not one of them (OutNotShard), the bad-usage MergeError, and floats that
// round-trip exactly through the shard records (ExactFloat). What a merge
// puts together is the stage's own; the rows of estimate files are
// estimates.Merge's. It imports no stage.
package shard

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Spec is shard I of N (0 ≤ I < N). The zero Spec (N = 0) is "not
// sharded": it owns every page.
type Spec struct {
	I, N int
}

// IndexEnv lists the environment variables that carry a job array's
// index, in the order they are read: Kubernetes Indexed Jobs, Slurm job
// arrays, AWS Batch array jobs. All three count from 0 in the usual setup;
// for Slurm, SLURM_ARRAY_TASK_MIN (when set) is subtracted, so that
// --array=1-7 gives shards 0…6.
var IndexEnv = []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "AWS_BATCH_JOB_ARRAY_INDEX"}

// MaxN bounds the number of shards (a typo guard, not a resource limit).
const MaxN = 1 << 20

// Parse reads "i/N" (shard i of N, 0-based) or "N" (the index comes from
// the environment through lookup, normally os.LookupEnv; see FromEnv).
// The empty string is the zero Spec (not sharded).
func Parse(s string, lookup func(string) (string, bool)) (Spec, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Spec{}, nil
	}
	is, ns, slash := strings.Cut(s, "/")
	if !slash {
		ns, is = is, ""
	}
	n, err := strconv.Atoi(strings.TrimSpace(ns))
	if err != nil || n < 1 || n > MaxN {
		return Spec{}, fmt.Errorf("shard %q: N must be a whole number in 1…%d (give i/N, or N with the index in %s)", s, MaxN, strings.Join(IndexEnv, ", "))
	}
	if !slash {
		return FromEnv(n, lookup)
	}
	i, err := strconv.Atoi(strings.TrimSpace(is))
	if err != nil || i < 0 || i >= n {
		return Spec{}, fmt.Errorf("shard %q: i must be a whole number in 0…%d", s, n-1)
	}
	return Spec{I: i, N: n}, nil
}

// FromEnv is shard i of n, with i read from the first variable of
// IndexEnv that is set (lookup is os.LookupEnv, or a map in tests). It is
// an error when none is set, when the value is not an index in 0…n−1, or
// when two of them are set to different indexes.
func FromEnv(n int, lookup func(string) (string, bool)) (Spec, error) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	if n < 1 || n > MaxN {
		return Spec{}, fmt.Errorf("shard: N must be in 1…%d, got %d", MaxN, n)
	}
	found, from := -1, ""
	for _, name := range IndexEnv {
		v, ok := lookup(name)
		if !ok || strings.TrimSpace(v) == "" {
			continue
		}
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return Spec{}, fmt.Errorf("shard: %s=%q is not a whole number", name, v)
		}
		if name == "SLURM_ARRAY_TASK_ID" {
			if m, ok := lookup("SLURM_ARRAY_TASK_MIN"); ok && strings.TrimSpace(m) != "" {
				lo, err := strconv.Atoi(strings.TrimSpace(m))
				if err != nil {
					return Spec{}, fmt.Errorf("shard: SLURM_ARRAY_TASK_MIN=%q is not a whole number", m)
				}
				i -= lo
			}
		}
		if i < 0 || i >= n {
			return Spec{}, fmt.Errorf("shard: %s=%s gives shard %d, outside 0…%d for N = %d", name, strings.TrimSpace(v), i, n-1, n)
		}
		if found >= 0 && found != i {
			return Spec{}, fmt.Errorf("shard: %s says shard %d but %s says %d", from, found, name, i)
		}
		if found < 0 {
			found, from = i, name
		}
	}
	if found < 0 {
		return Spec{}, fmt.Errorf("shard: --shard %d needs the index: give i/%d, or set one of %s", n, n, strings.Join(IndexEnv, ", "))
	}
	return Spec{I: found, N: n}, nil
}

// Sharded reports whether s selects a proper subset (N > 1), or was given
// at all (N ≥ 1).
func (s Spec) Sharded() bool { return s.N >= 1 }

// Owns reports whether page id belongs to shard s: Hash(id) mod N = I.
// The zero Spec owns every page.
func (s Spec) Owns(id int64) bool {
	if s.N <= 1 {
		return true
	}
	return Of(id, s.N) == s.I
}

// Of is the shard of page id among n: Hash(id) mod n.
func Of(id int64, n int) int {
	return int(Hash(id) % uint64(n))
}

// String is "i/N", or "" for the zero Spec.
func (s Spec) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Hash is SplitMix64's finalizer of the page id's two's-complement bits:
// z = x + 0x9e3779b97f4a7c15; z = (z ⊕ z≫30)·0xbf58476d1ce4e5b9;
// z = (z ⊕ z≫27)·0x94d049bb133111eb; z ⊕ z≫31. It is a bijection on 64
// bits that spreads consecutive ids (MediaWiki) and hashed ids (Yelp,
// logs) evenly over the shards. It is part of the on-disk contract:
// changing it reassigns pages to other shards and parts.
func Hash(id int64) uint64 {
	z := uint64(id) + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
