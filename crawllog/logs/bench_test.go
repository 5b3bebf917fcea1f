package logs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/series"
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
		if _, err := Read(context.Background(), []string{p}, Options{}, func(o *series.Observed) error { n += len(o.Visits); return nil }); err != nil || n != 200_000 {
			b.Fatalf("%d visits, %v", n, err)
		}
	}
}

// BenchmarkReadTrace reads a change-bit trace shaped like Bing's: 2,000
// URLs × 98 daily crawls with jittered delays (MB/s of trace text).
func BenchmarkReadTrace(b *testing.B) {
	var sb strings.Builder
	for u := range 2000 {
		fmt.Fprintf(&sb, "%d\t%.6f\t[", u, float64(u%997)/997)
		for j := range 98 {
			if j > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "[%.6f, %d]", 1+float64((u*31+j*17)%1000-500)/50000, (u+j)%3/2)
		}
		sb.WriteString("]\n")
	}
	p := filepath.Join(b.TempDir(), "trace.txt")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(sb.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		n := 0
		if _, err := Read(context.Background(), []string{p}, Options{Format: "trace"}, func(o *series.Observed) error { n += len(o.Visits); return nil }); err != nil || n != 2000*99 {
			b.Fatalf("%d visits, %v", n, err)
		}
	}
}
