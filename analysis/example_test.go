package analysis_test

import (
	"fmt"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/model"
)

// Fit the four tail families to seeded Pareto intervals and pick the best
// by AIC.
func ExampleFitAll() {
	r := model.NewRand(1, 1)
	d := model.Pareto{Alpha: 2, Beta: 1}
	x := make([]float64, 5000)
	for i := range x {
		x[i] = d.Rand(r)
	}
	fits, err := analysis.FitAll(x)
	if err != nil {
		panic(err)
	}
	fmt.Println("best:", fits[0].Family)
	// Output: best: pareto
}

// WMRD and KS between an estimate H and the truth G_U on the same grid.
func ExampleWMRD() {
	h := []float64{0, 0.4, 0.7, 0.9}
	g := []float64{0.1, 0.3, 0.5, 0.8}
	fmt.Printf("w = %.4f, κ = %.2f\n", analysis.WMRD(h, g), analysis.KSDistance(h, g))
	// Output: w = 0.2703, κ = 0.20
}

// Hurst exponent of fractional Gaussian noise with H = 0.8 by DFA.
func ExampleDFA() {
	x, _ := model.FGN(1<<14, 0.8, model.NewRand(3, 0))
	h := analysis.DFA(x)
	fmt.Printf("H ≈ %.1f\n", h.H)
	// Output: H ≈ 0.8
}

// The method SPEC §5 recommends for random revisits without ages.
func ExampleRecommend() {
	rec, _ := analysis.Recommend(analysis.Scenario{Sampler: "random"}, nil)
	fmt.Println(rec.Method)
	// Output: M6
}
