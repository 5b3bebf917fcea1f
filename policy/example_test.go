package policy_test

import (
	"context"
	"fmt"

	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/policy"
	"github.com/revisit-dev/revisit/series"
)

// Two sites of four pages, two weekly cycles. Site "a" changes every page
// every week, site "b" never changes after the first week's snapshot. With
// two downloads a cycle the oracle always finds changed pages; round-robin
// spends its first cycle on site a (changed) and its second on site a's
// other two pages (changed as well: they were never downloaded).
func Example() {
	const week = 7 * units.Day
	var pages []series.Page
	for i := 0; i < 8; i++ {
		p := series.Page{ID: int64(i + 1), Group: "a", Updates: []int64{0}}
		if i >= 4 {
			p.Group = "b"
		} else {
			p.Updates = append(p.Updates, week/2, week+week/2)
		}
		pages = append(pages, p)
	}
	c, _ := policy.NewCorpus(pages, "group", week, 0, 2*week)
	for _, name := range []string{"oracle", "round-robin"} {
		p, _ := policy.New(name, policy.Params{})
		r, _ := policy.Replay(context.Background(), c, p, 2, model.NewRand(1, 0))
		fmt.Printf("%s: ChangeRatio per cycle %v, spent %v\n", name, r.Ratio, r.Spent)
	}
	// Output:
	// oracle: ChangeRatio per cycle [1 1], spent [2 2]
	// round-robin: ChangeRatio per cycle [1 1], spent [2 2]
}
