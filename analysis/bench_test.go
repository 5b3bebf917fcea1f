package analysis

import (
	"context"
	"testing"

	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stagetest"
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
	pages := stagetest.PoissonPages(1, 200, 5000)
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
		var rows []EstimateRow
		_, err := pass(context.Background(), counted(each), opt, shard.Spec{}, opt.Unit, NewLillieforsNull(opt.Seed, opt.Reps), &rows,
			func(string) error { return nil }, func(int64, PageStats, *PageScreen) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
}
