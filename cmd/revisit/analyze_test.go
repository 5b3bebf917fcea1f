package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAnalyzeBadLocalizedFlags: out-of-range --nhpp-theta, --stale-eps and
// --stale-delta are usage errors, reported before the dataset is read
// (the dataset here does not even exist) and leaving no output.
func TestAnalyzeBadLocalizedFlags(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "a")
	for _, bad := range [][]string{
		{"--nhpp", "--nhpp-theta", "1.5"},
		{"--nhpp", "--nhpp-theta", "-0.1"},
		{"--stale-eps", "0"},
		{"--stale-eps", "1"},
		{"--stale-delta", "-2"},
		{"--band", "0"}, // would silently become 0.1
		{"--reps", "0"}, // would silently become 999
		{"--top", "0"},
	} {
		args := append([]string{"-q", "analyze", filepath.Join(dir, "missing-ds"), "-o", out}, bad...)
		if code := execute(args); code != exitUsage {
			t.Errorf("analyze %v: exit %d, want %d", bad, code, exitUsage)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output left behind: %v", err)
	}
}

// TestExtraZeroMeansNone: --extra 0 asks for no interpolation points, and
// analysis.Options.Extra = 0 would mean the default 9; the mapping gives
// −1, which every consumer reads as none (Compare inserts points only
// for extra > 0), and keeps other values.
func TestExtraZeroMeansNone(t *testing.T) {
	for _, c := range []struct{ in, want int }{{0, -1}, {1, 1}, {9, 9}, {20, 20}} {
		if got := extraOption(c.in); got != c.want {
			t.Errorf("--extra %d: Options.Extra %d, want %d", c.in, got, c.want)
		}
	}
	if code := execute([]string{"-q", "analyze", "--extra", "-3", "missing-ds", "-o", filepath.Join(t.TempDir(), "a")}); code != exitUsage {
		t.Errorf("--extra -3: exit %d, want %d", code, exitUsage)
	}
}
