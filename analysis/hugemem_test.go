package analysis

import (
	"math"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"gonum.org/v1/gonum/dsp/fourier"
)

// TestHugePageMemory measures the heap high-water of analysing one page
// of REVISIT_HUGE_N updates (analyzePage with analyze's defaults): the
// peak of HeapAlloc sampled every millisecond, above the page itself, per
// update. It only runs when REVISIT_HUGE_N is set (go test ./analysis/
// -run HugePageMemory -v; GOGC=5 keeps the GC close behind, so that the
// figure is nearly the live heap); it checks that the page got its
// intervals and its screen.
func TestHugePageMemory(t *testing.T) {
	s := os.Getenv("REVISIT_HUGE_N")
	if s == "" {
		t.Skip("REVISIT_HUGE_N not set")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 2 {
		t.Fatalf("REVISIT_HUGE_N=%q: want a number ≥ 2", s)
	}
	r := model.NewRand(1, 1)
	pg := &series.Page{ID: 7, Updates: make([]int64, n)}
	ts := int64(1e9)
	for i := range pg.Updates {
		ts += 1 + int64(r.ExpFloat64()*3600)
		pg.Updates[i] = ts
	}
	opt := Options{}
	opt.defaults()
	sopt := screenOptions(&opt, NewLillieforsNull(opt.Seed, opt.Reps))
	var res *pageResult
	p, el := heapPeak(func() { res = analyzePage(pageJob{0, pg}, 3600, &opt, sopt, 1) })
	if len(res.u) != n-1 || res.sc == nil {
		t.Fatalf("analyzePage: %d intervals, screen %v; want %d and a screen", len(res.u), res.sc, n-1)
	}
	// The top page's tail fits (finishTables), on the same page.
	var (
		fn   int
		fits []Fit
	)
	fp, fel := heapPeak(func() { fn, _, fits, err = topPageFits(pg.Updates, 3600) })
	if err != nil || fn != n-1 || len(fits) != 4 {
		t.Fatalf("top page fits: %d intervals, %d fits, %v; want %d and 4", fn, len(fits), err, n-1)
	}
	t.Logf("n = %d: top page fits: heap high-water %.0f MiB above the page (%.1f bytes per update), %v", n, float64(fp)/(1<<20), float64(fp)/float64(n), fel)
	est := pageAnalysisBytes(n, opt.MinUpdates, opt.MaxLag)
	t.Logf("n = %d: heap high-water %.0f MiB above the page (%.1f bytes per update), %v; estimate with the page %.0f MiB",
		n, float64(p)/(1<<20), float64(p)/float64(n), el, float64(est)/(1<<20))
}

// heapPeak runs fn and returns the high-water of HeapAlloc above the heap
// it started with (after a GC), sampled every millisecond, and fn's time.
func heapPeak(fn func()) (uint64, time.Duration) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
		}
	}()
	start := time.Now()
	fn()
	el := time.Since(start)
	close(done)
	<-stopped
	return max(peak.Load(), base) - base, el
}

// autocovFFTGonum is autocovFFT as it was computed through gonum's
// fourier.FFT (separate arrays for the padded series, the coefficients
// and the inverse): the reference the in-place route must match bit for
// bit.
func autocovFFTGonum(x []float64, mean float64, maxLag int) []float64 {
	m := 1
	for m < 2*len(x) {
		m *= 2
	}
	buf := make([]float64, m)
	for i, v := range x {
		buf[i] = v - mean
	}
	fft := fourier.NewFFT(m)
	co := fft.Coefficients(nil, buf)
	for i, v := range co {
		co[i] = complex(real(v)*real(v)+imag(v)*imag(v), 0)
	}
	r := fft.Sequence(nil, co)
	out := make([]float64, maxLag+1)
	for k := range out {
		out[k] = r[k] / float64(m)
	}
	return out
}

// TestAutocovFFTBits checks that the in-place power-of-two FFT route
// gives the same bits as gonum's fourier.FFT on series whose padded
// lengths are even and odd powers of two (radix 4 only, and a radix-2
// step first), from 2 to 2¹⁸, on exponential, heavy-tailed and FGN data.
func TestAutocovFFTBits(t *testing.T) {
	r := model.NewRand(5, 5)
	for _, n := range []int{1, 2, 3, 5, 8, 31, 64, 100, 1000, 4097, 33000, 100000} {
		fgn, _ := model.FGN(max(n, 2), 0.8, model.NewRand(6, uint64(n)))
		for kind, x := range [][]float64{draw(model.Exponential{Rate: 1}, n, uint64(n)), draw(model.Pareto{Alpha: 1.2, Beta: 1}, n, uint64(n+1)), fgn[:n]} {
			for i := range x {
				if kind == 0 && i%7 == 3 {
					x[i] += r.Float64() * 1e6 // a few far values
				}
			}
			mean := sum(x) / float64(n)
			lag := min(n-1, 300)
			got, want := autocovFFT(x, mean, lag), autocovFFTGonum(x, mean, lag)
			for k := range want {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
					t.Fatalf("n %d, series %d, lag %d: in place %v, gonum %v", n, kind, k, got[k], want[k])
				}
			}
		}
	}
}
