package policy

import (
	"context"
	"testing"

	"github.com/revisit-dev/revisit/model"
)

// BenchmarkReplay replays each policy on 100 sites × 100 pages over 20
// cycles with R = 1,000 (the corpus of TestOrderingAndBudget).
func BenchmarkReplay(b *testing.B) {
	c, err := NewCorpus(genCorpus(100, 100, 20, 1000, uniform(100), 1), "group", 1000, 0, 20000)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range Names {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p, _ := New(name, Params{SampleSize: 3, K: 5, Alpha: 0.95})
				if _, err := Replay(context.Background(), c, p, 1000, model.NewRand(1, uint64(i))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
