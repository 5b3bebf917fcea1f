package staleness

import (
	"testing"

	"github.com/revisit-dev/revisit/model"
)

// BenchmarkExactDelta solves Δ_ε on a 20,000-interval Pareto series
// (about 60 evaluations of the closed form).
func BenchmarkExactDelta(b *testing.B) {
	rng := model.NewRand(1, 0)
	u := make([]float64, 20000)
	for i := range u {
		u[i] = model.Pareto{Alpha: 1.5, Beta: 1}.Rand(rng)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ExactDelta(u, 0.1)
	}
}
