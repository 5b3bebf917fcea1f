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
