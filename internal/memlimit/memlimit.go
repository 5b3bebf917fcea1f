// Package memlimit sets the soft memory limit (runtime/debug.SetMemoryLimit)
// of the commands that work in bounded memory, one stage per process,
// unless the user chose one with GOMEMLIMIT.
package memlimit

import (
	"os"
	"runtime/debug"
)

// Limit is the soft memory limit of ingest, replay, analyze, estimate and
// merge. Their live heap stays well below it at the defaults
// (bench/scale.sh and bench/ingest-bombs.sh measure each), and near it the
// garbage collector runs sooner instead of letting the heap double, which
// keeps peak RSS under 256 MiB. It is soft: a larger live heap (a generic
// log of tens of millions of records, a replay of pages with huge grids,
// an estimate with a raised --max-observations) is collected more often,
// never refused.
const Limit = 192 << 20

// Set applies Limit unless GOMEMLIMIT is set, and returns a function that
// restores the limit before it (run's later stages may need a larger
// heap, where a soft limit would only make the collector run without end).
func Set() (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	old := debug.SetMemoryLimit(Limit)
	return func() { debug.SetMemoryLimit(old) }
}

// StoreHeadroom is what a growing store's soft memory limit allows above
// the store (SetStore): the buffers of reading and writing.
const StoreHeadroom = 64 << 20

// SetStore is Set for a command whose live heap is a store that grows with
// its input to the end (schedule's: about 8 bytes per knot and 27 per
// page): the limit starts at Limit and grew, called with the store's bytes
// as it grows, raises it to the store plus StoreHeadroom, so the collector
// runs sooner instead of letting the heap double over the store, and never
// below it (where it would run without pause). With GOMEMLIMIT set it
// changes nothing and grew is nil.
func SetStore() (grew func(bytes int64), restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return nil, func() {}
	}
	old := debug.SetMemoryLimit(Limit)
	return func(b int64) { debug.SetMemoryLimit(max(Limit, b+StoreHeadroom)) }, func() { debug.SetMemoryLimit(old) }
}
