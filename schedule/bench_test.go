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
func BenchmarkGU1M(b *testing.B) { benchPlans(b, 1_000_000, []string{PlanGU}) }

// BenchmarkGU18M is BenchmarkGU1M at the Bing trace's 18 M URLs (the
// input columns take 4.6 GB: run it alone, -benchtime=1x).
func BenchmarkGU18M(b *testing.B) { benchPlans(b, 18_000_000, []string{PlanGU}) }

// BenchmarkAllPlans18M solves every plan in turn at 18 M URLs, keeping
// only one plan's rates at a time (as a caller writing each plan out
// would).
func BenchmarkAllPlans18M(b *testing.B) { benchPlans(b, 18_000_000, PlanNames) }

func benchPlans(b *testing.B, n int, plans []string) {
	const k = 32
	grid := logGrid(0.01, 1000, k)
	g := make([]float64, n*k)
	lambdas := make([]float64, n)
	off := make([]int, n+1)
	fill := func() {
		for i := range n {
			l := math.Pow(10, -2+4*float64((i*7919)%n)/float64(n))
			lambdas[i] = l
			for j, x := range grid {
				v := -math.Expm1(-l * x)
				if i%5 == 0 && j%3 == 1 {
					v *= 0.9
				}
				g[i*k+j] = v
			}
			off[i+1] = (i + 1) * k
		}
	}
	b.ResetTimer()
	var extra, peak uint64
	for range b.N {
		b.StopTimer()
		fill() // Prepare turns G into D in place
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
		for _, name := range plans {
			s, err := p.Solve(name)
			if err != nil {
				b.Fatal(err)
			}
			if math.Abs(s.Used-p.Budget) > 1e-6*p.Budget {
				b.Fatalf("%s: used %g of %g", name, s.Used, p.Budget)
			}
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc-before.HeapAlloc)
		}
		b.Logf("%d pages, %v: wall Prepare %v, Solve %v; CPU %v", n, plans, t1.Sub(t0), time.Since(t1), cpuTime()-c0)
		b.StopTimer()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		extra = after.TotalAlloc - before.TotalAlloc
		b.StartTimer()
	}
	b.ReportMetric(float64(extra)/(1<<20), "MiB-alloc/op")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-heap-max")
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

// BenchmarkStore18M is BenchmarkAllPlans18M as the command runs it
// (PlanSource): the same curves in the float32 store (knots shared, 4
// bytes per value), every plan solved in turn without keeping its rates.
// Reports the heap beyond the store (the input columns) and the store's
// own bytes (store.Bytes), in MiB.
func BenchmarkStore18M(b *testing.B) { benchStore(b, 18_000_000) }

// BenchmarkStore1M is BenchmarkStore18M at 1 M pages.
func BenchmarkStore1M(b *testing.B) { benchStore(b, 1_000_000) }

func benchStore(b *testing.B, n int) {
	const k = 32
	grid := logGrid(0.01, 1000, k)
	st := newStore()
	x, g := make([]float64, k), make([]float64, k)
	for i := range n {
		l := math.Pow(10, -2+4*float64((i*7919)%n)/float64(n))
		copy(x, grid)
		for j, xv := range grid {
			v := -math.Expm1(-l * xv)
			if i%5 == 0 && j%3 == 1 {
				v *= 0.9
			}
			g[j] = v
		}
		if err := st.add(int64(i), x, g, l, ""); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	var peak uint64
	for range b.N {
		p := &Problem{st: st, Lambda: st.lambda, Budget: float64(n) / 10}
		c0 := cpuTime()
		t0 := time.Now()
		if err := p.Prepare(); err != nil {
			b.Fatal(err)
		}
		for _, name := range PlanNames {
			s, err := p.solve(name, false)
			if err != nil {
				b.Fatal(err)
			}
			if math.Abs(s.Used-p.Budget) > 1e-6*p.Budget {
				b.Fatalf("%s: used %g of %g", name, s.Used, p.Budget)
			}
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc-before.HeapAlloc)
		}
		b.Logf("%d pages, all plans: wall %v, CPU %v", n, time.Since(t0), cpuTime()-c0)
	}
	b.ReportMetric(float64(peak)/(1<<20), "MiB-heap-max")
	b.ReportMetric(float64(st.Bytes())/(1<<20), "MiB-store")
}
