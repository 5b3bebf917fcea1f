package analysis

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/generate/gentest"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stage"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// BenchmarkHurst runs every Hurst estimator (and the ACF to lag 100) on
// n = 2¹⁶ FGN values.
func BenchmarkHurst(b *testing.B) {
	x, _ := model.FGN(1<<16, 0.7, model.NewRand(1, 1))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Hurst(x, 100)
	}
}

// BenchmarkFitAll fits the four tail families to 10⁵ Lomax intervals.
func BenchmarkFitAll(b *testing.B) {
	x := draw(model.Pareto{Alpha: 2, Beta: 1}, 100000, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := FitAll(x); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLilliefors is the screen's KS test with 999 Monte-Carlo
// replicates on n = 1,000 intervals.
func BenchmarkLilliefors(b *testing.B) {
	x := draw(model.Exponential{Rate: 1}, 1000, 2)
	r := model.NewRand(3, 3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		LillieforsExp(x, 999, r)
	}
}

// BenchmarkLillieforsPages tests 20 pages of 2,000 intervals each with 999
// replicates: "per-page" simulates the null for every page (LillieforsExp),
// "shared" once for the size (LillieforsNull, as Run does). The ratio of
// the two is the saving on a corpus of equally long pages.
func BenchmarkLillieforsPages(b *testing.B) {
	var pages [][]float64
	for i := 0; i < 20; i++ {
		pages = append(pages, draw(model.Exponential{Rate: 1}, 2000, uint64(10+i)))
	}
	b.Run("per-page", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for j, x := range pages {
				LillieforsExp(x, 999, model.NewRand(1, uint64(j)))
			}
		}
	})
	b.Run("shared", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			null := NewLillieforsNull(1, 999)
			for _, x := range pages {
				null.Test(x)
			}
		}
	})
}

// BenchmarkPass is the streaming pass over 200 pages of 5,000 updates
// (page statistics, intervals, aggregate sample and survival bins), with
// no page screened (MinUpdates above every page), so that the per-page
// work every page of a dump pays is what is timed.
func BenchmarkPass(b *testing.B) {
	pages := gentest.PoissonPages(1, 200, 5000)
	each := func(fn func(*series.Page) error) error {
		for i := range pages {
			if err := fn(&pages[i]); err != nil {
				return err
			}
		}
		return nil
	}
	opt := Options{Unit: transform.Hour, MinUpdates: 1 << 30}
	opt.defaults()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a := newPass(counted(each), opt, shard.Spec{}, opt.Unit, NewLillieforsNull(opt.Seed, opt.Reps))
		s := a.stage(func(string, string) error { return nil }, func(int64, PageStats, *PageScreen) error { return nil },
			func(string, *Partial) error { return nil }, nil)
		if err := stage.Run(context.Background(), stage.Output{}, s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRun is the whole analysis (no replay) of a dataset shaped like
// bench/analyze-scale.sh's: 5,000 Poisson pages over a year with rates
// lognormal(−5.6, 1.5) per hour (about 100 updates per page, a third
// screened). REVISIT_BENCH_DATASET=dir analyses that dataset instead (the
// bench script's, for a profile: go test -run '^$' -bench BenchmarkRun
// -cpuprofile cpu.out ./analysis/).
func BenchmarkRun(b *testing.B) {
	dir := os.Getenv("REVISIT_BENCH_DATASET")
	if dir == "" {
		dir = writeDataset(b, lognormalPages(5000, 1))
	}
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			out := filepath.Join(b.TempDir(), "a")
			for i := 0; i < b.N; i++ {
				if _, err := Run(context.Background(), Options{Dataset: dir, Out: out, Workers: w}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// lognormalPages is n Poisson pages over a year, page i's rate per hour
// exp(N(−5.6, 1.5²)) as bench/analyze-scale.sh's generate model.
func lognormalPages(n int, seed uint64) []series.Page {
	const start, span = 1_600_000_000, 365 * units.Day
	pages := make([]series.Page, n)
	for i := range pages {
		r := model.NewRand(seed, uint64(i))
		rate := math.Exp(-5.6+1.5*r.NormFloat64()) / 3600
		u := []int64{start}
		for t := float64(start); ; {
			t += r.ExpFloat64() / rate
			if t >= start+span {
				break
			}
			if s := int64(t); s > u[len(u)-1] {
				u = append(u, s)
			}
		}
		pages[i] = series.Page{ID: int64(i + 1), Title: fmt.Sprintf("Page %d", i+1), Resolution: 1, Updates: u}
	}
	return pages
}
