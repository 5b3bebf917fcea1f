package ingest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRunFile ingests the file named by REVISIT_BENCH_INPUT (for
// bench/ingest.sh and profiling); skipped when unset.
func BenchmarkRunFile(b *testing.B) {
	in := os.Getenv("REVISIT_BENCH_INPUT")
	if in == "" {
		b.Skip("set REVISIT_BENCH_INPUT to a dump")
	}
	st, err := os.Stat(in)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	out := filepath.Join(b.TempDir(), "ds")
	for b.Loop() {
		if _, err := Run(context.Background(), Options{Inputs: []string{in}, Output: out}); err != nil {
			b.Fatal(err)
		}
	}
}
