package memlimit

import (
	"runtime/debug"
	"testing"
)

// Set sets the soft limit Limit and restores the one
// before it; with GOMEMLIMIT set it leaves the user's limit alone.
func TestSet(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	restore := Set()
	if got := debug.SetMemoryLimit(-1); got != Limit {
		t.Errorf("limit %d, want %d", got, Limit)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit %d after restore, want %d", got, before)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	restore = Set()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("with GOMEMLIMIT set: limit %d, want %d (unchanged)", got, before)
	}
	restore()
}

// SetStore raises the limit with the store, never below Limit, and
// restores the limit before it.
func TestSetStore(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	grew, restore := SetStore()
	grew(1 << 20)
	if got := debug.SetMemoryLimit(-1); got != Limit {
		t.Errorf("small store: limit %d, want %d", got, Limit)
	}
	grew(1 << 30)
	if got, want := debug.SetMemoryLimit(-1), int64(1<<30+StoreHeadroom); got != want {
		t.Errorf("1 GiB store: limit %d, want %d", got, want)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit %d after restore, want %d", got, before)
	}
}
