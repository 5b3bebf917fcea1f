package schedule_test

import (
	"fmt"

	"github.com/revisit-dev/revisit/schedule"
)

// A page updated every 2 hours exactly has the uniform age distribution
// G_U(x) = x/2 on [0, 2]: visited every hour it is fresh 1 − 1/4 of the
// time. Two such pages share a budget of 3 visits an hour equally; a third
// that never changed gets the minimum rate first.
func Example() {
	knots := []float64{1, 2}
	fmt.Printf("φ(1 h) = %.2f\n", schedule.Freshness(knots, []float64{0.5, 1}, 1))

	p := &schedule.Problem{
		Curves:  &schedule.Curves{Grid: knots, G: []float64{0.5, 1, 0.5, 1, 0, 0}, Off: []int{0, 2, 4, 6}},
		Lambda:  []float64{0.5, 0.5, 0},
		Budget:  3.2, // visits per hour
		MinRate: 0.2,
	}
	if err := p.Prepare(); err != nil {
		fmt.Println(err)
		return
	}
	s, err := p.Solve(schedule.PlanGU)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, f := range s.F {
		g, _ := p.Predicted(i, f)
		fmt.Printf("page %d: %.2f visits/h, freshness %.3f\n", i, f, g)
	}
	// Output:
	// φ(1 h) = 0.75
	// page 0: 1.50 visits/h, freshness 0.833
	// page 1: 1.50 visits/h, freshness 0.833
	// page 2: 0.20 visits/h, freshness 1.000
}
