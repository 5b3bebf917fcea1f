package replay

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// within runs f and fails the test if it has not returned after 10 s (a
// generous bound: the point is that it returns at all).
func within[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	ch := make(chan T, 1)
	go func() { ch <- f() }()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not return within 10 s", what)
		panic("unreachable")
	}
}

// A page × sampler that would need about 10¹⁴ visits is left out at once
// (counted, not crawled) while the other sampler is replayed; a run where
// every job is left out is refused as bad usage and writes nothing.
func TestRunLeavesOutJobsBeyondLimits(t *testing.T) {
	ds, pages := writeDataset(t, 4) // pages 1…3 have 2+ updates
	out := filepath.Join(t.TempDir(), "rep")
	opt := Options{Dataset: ds, Out: out, Samplers: []string{"exp:1e12", "exp:2"}, H: 0.1, XMax: 20, Seed: 1, Workers: 2}
	meta := within(t, "replay with exp:1e12", func() *Meta {
		m, err := Run(context.Background(), opt)
		if err != nil {
			t.Error(err)
		}
		return m
	})
	if meta == nil {
		t.FailNow()
	}
	if got := meta.Skipped[estimator.SkipMaxVisits]; got != 3 {
		t.Errorf("skipped %s = %d, want 3 (every page with exp:1e12)", estimator.SkipMaxVisits, got)
	}
	if meta.Pages != 3 || meta.MaxVisits != estimator.DefaultMaxVisits || meta.MaxPairs != estimator.DefaultMaxPairs {
		t.Errorf("pages %d, limits %d %d: want 3 pages and the defaults", meta.Pages, meta.MaxVisits, meta.MaxPairs)
	}
	_, est, err := ReadEstimates(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range est {
		if e.Sampler != "exp:2" {
			t.Fatalf("a row of %s was written", e.Sampler)
		}
	}

	// A limit of 2T₂ + 1 visits (T₂ the window of page 2, in hours):
	// exp:2 leaves out exactly the pages whose window T has 2T + 1 beyond it.
	span := func(p series.Page) float64 { return float64(p.Updates[len(p.Updates)-1]-p.Updates[0]) / 3600 }
	limit := int64(2*span(pages[2]) + 1)
	opt.Samplers, opt.MaxVisits, opt.Out = []string{"exp:2"}, limit, filepath.Join(t.TempDir(), "rep2")
	want := int64(0)
	for _, p := range pages[1:] {
		if 2*span(p)+1 > float64(limit) {
			want++
		}
	}
	if want == 0 || want == 3 {
		t.Fatalf("test data: %d of 3 pages over the limit, want some but not all", want)
	}
	meta, err = Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := meta.Skipped[estimator.SkipMaxVisits]; got != want || meta.Pages != 3-int(want) {
		t.Errorf("limit %d visits: skipped %d, pages %d; want %d and %d", limit, got, meta.Pages, want, 3-want)
	}

	// M6's pairs: exp:1000 with x_max = 20 pairs each visit with 2·10⁴
	// others, far beyond a limit of 10⁶ pairs, though its visits fit.
	opt.Samplers, opt.MaxVisits, opt.MaxPairs, opt.Out = []string{"exp:1000"}, 0, 1e6, filepath.Join(t.TempDir(), "rep3")
	opt.Methods = []string{"M2,M6"}
	err = within(t, "replay with exp:1000", func() error { _, err := Run(context.Background(), opt); return err })
	var oe *OptionError
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "M6 pairs") {
		t.Errorf("every job over --max-pairs: %v, want an *OptionError naming M6 pairs", err)
	}
	if _, err := os.Stat(opt.Out); !os.IsNotExist(err) {
		t.Errorf("a refused replay left %s: %v", opt.Out, err)
	}
}

// The run-time guard: a crawl that goes past twice the visit limit stops
// (after at most estimator.PollEvery more steps) with a *LimitError.
func TestCrawlStopsAtVisitCap(t *testing.T) {
	vis := make([]float64, 100_000)
	for i := range vis {
		vis[i] = float64(i) * 1e-3
	}
	gd := estimator.NewGuard(context.Background(), 100, 0)
	n, err := crawl(&sliceUpdates{t: []float64{0, 1000}}, &sliceVisits{v: vis}, 1000, nil, gd)
	var le *estimator.LimitError
	if !errors.As(err, &le) || le.Reason != estimator.SkipMaxVisits || le.Limit != 100 {
		t.Fatalf("crawl: %v, want a *LimitError on visits with limit 100", err)
	}
	if n <= 200 || n > 200+estimator.PollEvery {
		t.Errorf("stopped after %d visits, want in (200, %d]", n, 200+estimator.PollEvery)
	}
}

// A cancelled context stops a crawl that would never end on its own
// (10¹⁵ visits, no limits) and M6's pairing of a huge window, and Run
// returns context.Canceled with nothing written.
func TestCancelStopsReplay(t *testing.T) {
	smp, _ := estimator.ParseSampler("exp:1e9")
	for _, methods := range [][]string{{estimator.MethodM2, estimator.MethodNaive}, {estimator.MethodM6}} {
		cfg := estimator.Config{Methods: methods, H: 0.01, XMax: 1000}
		if err := cfg.Check(); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		err := within(t, "replayPath", func() error {
			r := model.NewRand(1, 1)
			_, err := replayPath(&sliceUpdates{t: []float64{0, 1e6}}, newVisitGen(smp, r), 1e6, smp, &cfg, estimator.NewGuard(ctx, 0, 0))
			return err
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%v: %v, want context.Canceled", methods, err)
		}
		cancel()
	}

	ds, _ := writeDataset(t, 3)
	out := filepath.Join(t.TempDir(), "rep")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(100*time.Millisecond, cancel)
	opt := Options{Dataset: ds, Out: out, Samplers: []string{"exp:1e7"}, H: 0.1, XMax: 20, Workers: 2,
		MaxVisits: math.MaxInt64, MaxPairs: math.MaxInt64}
	err := within(t, "Run", func() error { _, err := Run(ctx, opt); return err })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v, want context.Canceled", err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 0 {
		t.Errorf("a cancelled replay left %v", ents)
	}
}

// Simulate refuses a window and sampler beyond the limits before drawing
// anything, and stops on cancellation inside a long path.
func TestSimulateBounds(t *testing.T) {
	opt := SimOptions{Update: "exp:1", Samplers: []string{"exp:1"}, Ts: []float64{1e12}, Paths: 1, Methods: []string{"M2"}}
	err := within(t, "Simulate T = 1e12", func() error { _, err := Simulate(context.Background(), opt); return err })
	var oe *OptionError
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "T = 1e+12") {
		t.Errorf("T = 1e12: %v, want an *OptionError naming T", err)
	}
	opt.Ts, opt.MaxVisits = []float64{1e9}, math.MaxInt64
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	err = within(t, "Simulate T = 1e9", func() error { _, err := Simulate(ctx, opt); return err })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// The crawl allocates nothing per visit: no visit's Obs escapes to the
// heap.
func TestCrawlAllocsIndependentOfVisits(t *testing.T) {
	vis := make([]float64, 100_000)
	for i := range vis {
		vis[i] = float64(i) * 1e-3
	}
	smp, _ := estimator.ParseSampler("exp:1")
	cfg := estimator.Config{Methods: []string{estimator.MethodM2, estimator.MethodNaive}, H: 0.5, XMax: 10}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	pr := estimator.NewPath(smp, &cfg, 100, nil) // set up once: the crawl is measured
	allocs := testing.AllocsPerRun(2, func() {
		crawl(&sliceUpdates{t: []float64{0, 7, 50, 100}}, &sliceVisits{v: vis}, 100, []estimator.Observer{pr}, nil)
	})
	if allocs > 20 {
		t.Errorf("crawl of %d visits: %.0f allocations, want a constant few", len(vis), allocs)
	}
}
