package schedule

import (
	"math"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// BenchmarkGU1M plans 1 M pages with synthetic Ĝ on one shared grid of 32
// knots (exponential age distributions with log-uniform rates over four
// decades, every fifth page noisy so the projection has work): Prepare +
// Solve(gu). Reports the heap allocated beyond the input columns (G, Off,
// λ̂) in MiB.
func BenchmarkGU1M(b *testing.B) {
	const n, k = 1_000_000, 32
	grid := logGrid(0.01, 1000, k)
	g0 := make([]float64, n*k)
	lambdas := make([]float64, n)
	off := make([]int, n+1)
	for i := range n {
		l := math.Pow(10, -2+4*float64((i*7919)%n)/n)
		lambdas[i] = l
		for j, x := range grid {
			v := -math.Expm1(-l * x)
			if i%5 == 0 && j%3 == 1 {
				v *= 0.9
			}
			g0[i*k+j] = v
		}
		off[i+1] = (i + 1) * k
	}
	g := make([]float64, n*k)
	b.ResetTimer()
	var extra uint64
	for range b.N {
		b.StopTimer()
		copy(g, g0)
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()
		p := &Problem{Curves: &Curves{Grid: grid, G: g, Off: off}, Lambda: lambdas, Budget: float64(n) / 10}
		c0 := cpuTime()
		t0 := time.Now()
		if err := p.Prepare(); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		s, err := p.Solve(PlanGU)
		b.Logf("wall: Prepare %v, Solve %v; CPU (both) %v", t1.Sub(t0), time.Since(t1), cpuTime()-c0)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		extra = after.TotalAlloc - before.TotalAlloc
		if math.Abs(s.Used-p.Budget) > 1e-6*p.Budget {
			b.Fatalf("used %g of %g", s.Used, p.Budget)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(extra)/(1<<20), "MiB-alloc/op")
}

// cpuTime is the process's user + system CPU time: on a shared machine
// it says more than the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
