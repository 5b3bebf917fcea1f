package crawllog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/transform"
)

// BenchmarkEstimateTrace estimates a synthetic change-bit trace shaped
// like Bing's (daily crawls, 98 per URL; writeTrace) with naive and
// poisson-mle, compact curves, no recovery: the hot path of `revisit
// estimate` on the real trace (bench/trace-estimate.sh runs the command
// on 100,000 URLs). BENCH_TRACE names another trace file to read.
func BenchmarkEstimateTrace(b *testing.B) {
	trace := os.Getenv("BENCH_TRACE")
	if trace == "" {
		trace = filepath.Join(b.TempDir(), "trace.txt")
		writeTrace(b, trace, 5000, 1)
	}
	for _, m := range []string{"naive", "poisson-mle"} {
		b.Run(m, func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				out := filepath.Join(b.TempDir(), fmt.Sprint(i))
				_, err := EstimateLogs(context.Background(), EstimateOptions{Inputs: []string{trace}, Out: out,
					Read: logs.Options{Format: "trace"}, Unit: transform.Day, Methods: []string{m}, Curves: estimates.CurvesCompact})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
