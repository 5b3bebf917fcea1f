package replay

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/model"
)

// ReplayUntil crawls on after the last update: a page created at 0 and
// never updated again, visited every hour up to 100 h, has ages 1, 2, …,
// 100 h (rounded up to the grid) at its 100 visits, so M4's Ĝ(n h) is
// n/100; ReplayTimes needs two updates and stops at the last.
func TestReplayUntil(t *testing.T) {
	s, err := estimator.ParseSampler("const:1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := estimator.Config{Methods: []string{estimator.MethodM4}, H: 1, XMax: 100}
	est, err := ReplayUntil([]float64{0}, 100, s, model.NewRand(1, 1), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var g []float64
	var x []float64
	for _, e := range est {
		if e.Method == estimator.MethodM4 && e.Kind == "G" {
			x, g = e.CDF.X, e.CDF.P
		}
	}
	if len(x) == 0 {
		t.Fatalf("no M4 estimate in %+v", est)
	}
	for k := range x {
		if want := math.Min(1, x[k]/100); math.Abs(g[k]-want) > 1e-12 {
			t.Errorf("Ĝ(%g) = %g, want %g", x[k], g[k], want)
		}
	}
	if _, err := ReplayUntil([]float64{0, 5}, 4, s, model.NewRand(1, 1), cfg); err == nil {
		t.Error("a window ending before the last update: no error")
	}
}
