package analysis

import (
	"testing"

	"github.com/revisit-dev/revisit/model"
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
