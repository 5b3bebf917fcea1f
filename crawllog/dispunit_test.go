package crawllog

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/revisit-dev/revisit/internal/units"
)

// displayUnitSorted is the rule spanStats replaces, as EstimateLogs
// applied it until it held a span per URL: sort every span (in seconds),
// take the median (the mean of the two middle ones for an even count) and
// the largest unit it reaches.
func displayUnitSorted(m *EstimateMeta, spans []float64) float64 {
	if len(spans) == 0 {
		return m.Unit
	}
	s := make([]float64, len(spans))
	for i := range spans {
		s[i] = spans[i] * m.Unit
	}
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + med) / 2
	}
	for _, u := range []float64{units.Year, units.Day, units.Hour, units.Minute} {
		if med >= u {
			return u
		}
	}
	return units.Second
}

// spanStats chooses exactly the unit of the sorted median on many random
// sets of spans: values at and around every threshold (one ulp either
// side, in the estimate's unit and after scaling), zeros, NaN, ±Inf,
// huge values whose sum overflows, and log-uniform ones; units of 1 s,
// 1 h, 1 d and odd ones.
func TestSpanStatsAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 5))
	unitsOf := []float64{units.Second, units.Hour, units.Day, 7.3, 0.001, units.Year}
	draw := func(unit float64) float64 {
		th := []float64{units.Minute, units.Hour, units.Day, units.Year}
		switch k := rng.IntN(10); k {
		case 0:
			return []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.MaxFloat64, -math.MaxFloat64}[rng.IntN(7)]
		case 1, 2, 3, 4:
			x := th[rng.IntN(len(th))] / unit // the threshold in the estimate's unit
			for range rng.IntN(3) {
				x = math.Nextafter(x, []float64{math.Inf(1), math.Inf(-1)}[rng.IntN(2)])
			}
			return x
		case 5:
			// two spans whose mean sits on a threshold
			return 2*th[rng.IntN(len(th))]/unit - math.Exp(rng.Float64()*20-5)
		default:
			return math.Exp(rng.Float64()*40-15) / unit
		}
	}
	for trial := range 200000 {
		unit := unitsOf[rng.IntN(len(unitsOf))]
		n := rng.IntN(7)
		if trial%100 == 0 {
			n = rng.IntN(300)
		}
		spans := make([]float64, n)
		for i := range spans {
			spans[i] = draw(unit)
		}
		m := &EstimateMeta{Unit: unit}
		want := displayUnitSorted(m, spans)
		st := newSpanStats(unit)
		for _, s := range spans {
			st.add(s)
		}
		if got := st.displayUnit(m); got != want {
			t.Fatalf("unit %g, spans %v: spanStats %g s, sorted median %g s", unit, spans, got, want)
		}
	}
}
