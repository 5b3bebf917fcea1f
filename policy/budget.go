package policy

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/internal/units"
)

// Budget is the download budget R of SPEC §4.5: downloads per download
// cycle, in total over all sites, written as a count ("500", or
// "500/cycle" with its unit) or as a percentage of the pages ("2%"). It
// is not schedule's budget, a rate of visits per unit of time ("500/d"):
// ParseBudget refuses that form with a message saying so.
//
// ParseBudget checks the form where the flag is read; Downloads applies
// the page count once the pages are known.
type Budget struct {
	count   int     // R, when written as a count; 0 for a percentage
	percent float64 // the percentage of the pages, when written as one
}

// perCycle is the unit a count may carry: downloads per download cycle.
const perCycle = "cycle"

// ParseBudget reads a budget "R", "R/cycle" or "P%" (P in (0, 100]).
func ParseBudget(s string) (Budget, error) {
	s = strings.TrimSpace(s)
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || !(v > 0 && v <= 100) {
			return Budget{}, fmt.Errorf("%q: want a percentage in (0, 100]", s)
		}
		return Budget{percent: v}, nil
	}
	num, per, slash := strings.Cut(s, "/")
	if slash {
		per = strings.TrimSpace(per)
		if _, isTime := units.Short(per); isTime {
			return Budget{}, fmt.Errorf("%q: the download policies' budget is downloads per download cycle (--cycle), not per %s: write R, R/cycle or a percentage of the pages (a rate of visits per day is schedule's --budget)", s, per)
		}
		if per != perCycle {
			return Budget{}, fmt.Errorf("%q: want a positive number of downloads per cycle (R or R/cycle) or a percentage", s)
		}
	}
	r, err := strconv.Atoi(strings.TrimSpace(num))
	if err != nil || r < 1 {
		return Budget{}, fmt.Errorf("%q: want a positive number of downloads or a percentage", s)
	}
	return Budget{count: r}, nil
}

// Downloads is R for a corpus of the given number of pages: the count,
// which must not exceed the pages, or the percentage of the pages rounded
// to the nearest integer and at least 1.
func (b Budget) Downloads(pages int) (int, error) {
	if b.count == 0 {
		return max(1, int(math.Round(b.percent/100*float64(pages)))), nil
	}
	if b.Exceeds(int64(pages)) {
		return 0, fmt.Errorf("%d downloads per cycle exceeds the %d pages", b.count, pages)
	}
	return b.count, nil
}

// Exceeds reports whether the budget is a count larger than the pages (a
// percentage never is): such a budget cannot be replayed on them.
func (b Budget) Exceeds(pages int64) bool { return int64(b.count) > pages }
