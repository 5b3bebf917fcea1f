package nhpp

import (
	"context"
	"testing"

	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// BenchmarkAnalyzePage windows and scores a 20,000-update page (about the
// size of the most edited real article in the test data).
func BenchmarkAnalyzePage(b *testing.B) {
	rng := model.NewRand(1, 0)
	p := series.Page{ID: 1, Updates: []int64{0}}
	for i := 0; i < 20000; i++ {
		p.Updates = append(p.Updates, p.Updates[len(p.Updates)-1]+1+int64(3600*model.Pareto{Alpha: 1.5, Beta: 1}.Rand(rng)))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := AnalyzePage(context.Background(), &p, 3600, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
