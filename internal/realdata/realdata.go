// Package realdata locates the real test data (../shared/data/real, see its
// SOURCES.md) for tests and benchmarks. The files are never committed: they
// are read from REVISIT_REAL_DATA or from shared/data/real beside the
// checkout. A test that needs them is skipped with a clear message when they
// are absent, and fails when they are absent and CI=true.
package realdata

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// EnvVar overrides the location of the real data.
const EnvVar = "REVISIT_REAL_DATA"

// Root returns the directory of the real data and whether it exists. The
// default is ../shared/data/real relative to the repository root.
func Root() (string, bool) {
	dir := os.Getenv(EnvVar)
	if dir == "" {
		_, file, _, _ := runtime.Caller(0) // …/internal/realdata/realdata.go
		repo := filepath.Dir(filepath.Dir(filepath.Dir(file)))
		dir = filepath.Join(repo, "..", "shared", "data", "real")
	}
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// Dir returns the real-data directory, skipping the test when it is absent
// (failing instead when CI=true).
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, ok := Root()
	if !ok {
		msg := "real data not found at " + dir + " (set " + EnvVar + " to its location)"
		if os.Getenv("CI") == "true" {
			tb.Fatal(msg + "; CI=true requires it")
		}
		tb.Skip(msg + "; skipping")
	}
	return dir
}

// Path returns the path of a file under the real-data directory, skipping
// or failing as Dir does when the directory or the file is absent.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(Dir(tb), rel)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("real data file %s: %v", p, err)
		}
		tb.Skipf("real data file %s absent: %v", p, err)
	}
	return p
}
