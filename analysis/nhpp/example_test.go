package nhpp_test

import (
	"fmt"
	"math"

	"github.com/revisit-dev/revisit/analysis/nhpp"
)

// Fit a power-law process to a window whose updates come ever faster:
// t_i = 10·√i (so Λ(t) = (t/10)², β = 2). The Duane plot recovers it
// exactly (MTBU = t/i = 100/t, γ = −1); the MLE is
// β̂ = 12/Σ ln(t_12/t_i) = 24/ln(12¹²/12!) = 2.44 and β̃ = (10/12)β̂ = 2.03.
func Example() {
	var t []float64
	for i := 1; i <= 12; i++ {
		t = append(t, 10*math.Sqrt(float64(i)))
	}
	w := nhpp.FitWeibull(t)
	d := nhpp.FitDuane(t)
	fmt.Printf("β̂ = %.2f, β̃ = %.2f, Duane γ = %.2f\n", w.Beta, w.BetaCorrected(), d.Gamma)
	fmt.Printf("rebuilt 12th update: %.2f (true %.2f)\n", d.Cumulative().Rebuild(12), t[11])
	ws, _ := nhpp.Windows(append([]float64{0}, t...), 0.1)
	fmt.Println(len(ws), "window,", ws[0].State)
	// Output:
	// β̂ = 2.44, β̃ = 2.03, Duane γ = -1.00
	// rebuilt 12th update: 34.64 (true 34.64)
	// 1 window, decreasing
}
