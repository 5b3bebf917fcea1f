package crawllog

import (
	"math"

	"github.com/revisit-dev/revisit/internal/units"
)

// dispUnits are the units displayUnitOf chooses among, the largest
// first; a median span below the last is shown in seconds.
var dispUnits = [...]float64{units.Year, units.Day, units.Hour, units.Minute}

// spanCats are the categories of a span x (in seconds) that decide the
// display unit: 0 NaN (sort.Float64s puts NaN first), 1 below a minute
// (seconds), 2 minutes, 3 hours, 4 days, 5 years; ordered as the values
// sort.
const spanCats = 2 + len(dispUnits)

// spanCat is x's category.
func spanCat(x float64) int {
	if math.IsNaN(x) {
		return 0
	}
	for k, u := range dispUnits {
		if x >= u {
			return spanCats - 1 - k
		}
	}
	return 1
}

// catUnit is the display unit of category c.
func catUnit(c int) float64 {
	if c <= 1 {
		return units.Second
	}
	return dispUnits[spanCats-1-c]
}

// spanStats gives the display unit of displayUnitOf without holding a
// span per URL: per category, the count and the smallest and largest
// span (in seconds, as displayUnitOf scales them). The median is one
// span, or the mean of the two middle ones. One span: its category is
// the unit's. Two of one category c, a ≤ b, u_c ≤ a: fl(a+b) ≥ 2u_c
// (rounding is monotone) and fl(a+b) ≤ fl(2b) = 2b < 2u_{c+1}, so their
// mean, halved exactly, is in c too. Two of different categories: the
// lower is the largest of its category and the upper the smallest of
// the next category that has a span, both kept, and their mean is
// computed as displayUnitOf computes it. So the unit is exactly
// displayUnitOf's (TestSpanStatsAgrees), in constant memory.
type spanStats struct {
	unit     float64 // seconds per unit of the spans added
	n        [spanCats]int64
	min, max [spanCats]float64
}

func newSpanStats(unit float64) *spanStats { return &spanStats{unit: unit} }

// add counts one URL's span (in the estimate's unit).
func (s *spanStats) add(span float64) {
	x := span * s.unit
	c := spanCat(x)
	if s.n[c] == 0 || x < s.min[c] {
		s.min[c] = x
	}
	if s.n[c] == 0 || x > s.max[c] {
		s.max[c] = x
	}
	s.n[c]++
}

// at is the span at place k (0-based) of the spans sorted, with its
// category, when it is the first or last of its category (ok); not ok
// when it lies strictly inside a category (then only its category is
// known).
func (s *spanStats) at(k int64) (x float64, c int, ok bool) {
	for c = 0; c < spanCats; c++ {
		if k < s.n[c] {
			switch k {
			case 0:
				return s.min[c], c, true
			case s.n[c] - 1:
				return s.max[c], c, true
			}
			return 0, c, false
		}
		k -= s.n[c]
	}
	return 0, -1, false // not reached for k < total
}

// displayUnit is displayUnitOf(m, the spans added): m.Unit when none.
func (s *spanStats) displayUnit(m *EstimateMeta) float64 {
	var total int64
	for _, n := range s.n {
		total += n
	}
	if total == 0 {
		return m.Unit
	}
	hi, chi, _ := s.at(total / 2)
	if total%2 == 1 {
		return catUnit(chi)
	}
	lo, clo, _ := s.at(total/2 - 1)
	if clo == chi {
		return catUnit(chi)
	}
	// neighbours of different categories: lo is the last of its category
	// and hi the first of its, so both are the values kept
	return catUnit(spanCat((lo + hi) / 2))
}
