package model_test

import (
	"fmt"

	"github.com/revisit-dev/revisit/model"
)

// A renewal process with constant intervals of 2.5 units in [0, 10): the
// page is created at 0 and updated every 2.5.
func ExampleParseProcess() {
	p, err := model.ParseProcess("const:2.5", 3600)
	if err != nil {
		fmt.Println(err)
		return
	}
	ts, _ := model.Times(p, model.NewRand(1, 0), 0, 10)
	fmt.Println(p, ts, p.Mean())
	// Output: const:2.5 [0 2.5 5 7.5] 2.5
}

// Per-page parameters: the Lomax scale β is drawn for each page from a
// uniform on [2, 4]; E[U] = β/(α−1).
func ExampleModel_Draw() {
	m, _ := model.ParseModel("pareto:3,{uniform:2,4}", 3600)
	p, params, _ := m.Draw(model.NewRand(1, 0))
	fmt.Println(params[0] >= 2 && params[0] <= 4, p.Mean() == params[0]/2)
	// Output: true true
}
