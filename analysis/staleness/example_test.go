package staleness_test

import (
	"fmt"

	"github.com/revisit-dev/revisit/analysis/staleness"
)

// A page updated at hours 0, 1, 4 and 10, crawled every 2 hours: the copy
// is stale 27.5 % of the time on average over the crawler's phase, while a
// Poisson model with the same rate (3 updates in 10 h) predicts 24.8 %.
func Example() {
	intervals := []float64{1, 3, 6}
	exact := staleness.PhaseAveraged(intervals, 2)
	poisson := staleness.Poisson(0.3, 2)
	fmt.Printf("exact %.3f, Poisson %.3f\n", exact, poisson)
	fmt.Printf("one phase (visits at 0, 2, 4, …): %.3f\n", staleness.AtPhase([]float64{0, 1, 4, 10}, 2, 0))
	// Output:
	// exact 0.275, Poisson 0.248
	// one phase (visits at 0, 2, 4, …): 0.100
}
