package visits

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkReadCDX reads a Wayback CDX log of 200,000 captures of 1,000
// URLs (MB/s of log text; memory per capture from the allocations).
func BenchmarkReadCDX(b *testing.B) {
	var sb strings.Builder
	for i := range 200_000 {
		u, k := i%1000, i/1000
		fmt.Fprintf(&sb, "com,example)/page/%d %s http://example.com/page/%d text/html 200 D%dX%d 1234\n",
			u, cdxTime(1_500_000_000+int64(k)*3600), u, u, k/7)
	}
	p := filepath.Join(b.TempDir(), "bench.cdx")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(sb.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		n := 0
		if _, err := Read(context.Background(), []string{p}, Options{}, func(o *Observed) error { n += len(o.Visits); return nil }); err != nil || n != 200_000 {
			b.Fatalf("%d visits, %v", n, err)
		}
	}
}
