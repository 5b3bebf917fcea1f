package replay

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/transform"
)

// replayPath runs one crawl and every selected applicable estimator. gd
// (nil: none) stops it early with gd's reason: a cancelled context or a
// *LimitError.
func replayPath(up updateSource, vis visitSource, end float64, s estimator.Sampler, cfg *estimator.Config, gd *estimator.Guard) (estimator.PathResult, error) {
	pr := estimator.NewPath(s, cfg, end, gd)
	visits, err := crawl(up, vis, end, []estimator.Observer{pr}, gd)
	if err != nil {
		return estimator.PathResult{P1: math.NaN(), MeanD3: math.NaN(), Visits: visits}, err
	}
	return pr.Finish(visits)
}

// ErrTooShort means a page has fewer than two updates: no interval, no
// window to crawl.
var ErrTooShort = errors.New("fewer than 2 updates: no interval to observe")

// ReplayTimes crawls one sample path given by its update times t (in units,
// ascending, the window is [t_0, t_last]) with sampler s, drawing the visits
// from r, and returns every selected estimate followed by the truth rows
// (Method "truth", Kind "G" = G_U and "F" = F_U of the path on the same grid).
func ReplayTimes(t []float64, s estimator.Sampler, r *rand.Rand, cfg estimator.Config) ([]estimator.Estimate, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if len(t) < 2 {
		return nil, ErrTooShort
	}
	if t[0] != 0 {
		return nil, fmt.Errorf("update times must start at 0 (use transform.Times), got %g", t[0])
	}
	res, err := replayPath(&sliceUpdates{t: t}, newVisitGen(s, r), t[len(t)-1], s, &cfg, nil)
	if err != nil {
		return nil, err
	}
	return append(res.Est, truthRows(t, s, &cfg, res.Visits)...), nil
}

// ReplayUntil crawls one page whose updates are t (in units, ascending,
// t_0 = 0 the first) over the window [0, end], end ≥ t_last: the crawler
// goes on visiting after the last update, as one that cannot know the page
// will not change again, so the quiet time after it is in what it saw (one
// update is then enough). It returns the estimates only (no truth rows:
// the window is not the path's intervals).
func ReplayUntil(t []float64, end float64, s estimator.Sampler, r *rand.Rand, cfg estimator.Config) ([]estimator.Estimate, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if len(t) == 0 || t[0] != 0 || !(end >= t[len(t)-1]) || !(end > 0) {
		return nil, fmt.Errorf("updates from 0 up to the window's end %g > 0 wanted, got %d updates", end, len(t))
	}
	res, err := replayPath(&sliceUpdates{t: t}, newVisitGen(s, r), end, s, &cfg, nil)
	if err != nil {
		return nil, err
	}
	return res.Est, nil
}

// ReplayVisits is ReplayTimes with given visit times (ascending, inside
// the window) instead of drawn ones; tests and hand-worked examples use it.
// The crawler's virtual visit before the first (G-M4's s*_1) is s_1 − Δ
// for constant delays and s_1 − 1/λ for random ones.
func ReplayVisits(t, visits []float64, s estimator.Sampler, cfg estimator.Config) ([]estimator.Estimate, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if len(t) < 2 {
		return nil, ErrTooShort
	}
	if !slices.IsSorted(visits) {
		return nil, errors.New("visit times must be ascending")
	}
	if s.Constant() {
		for j, v := range visits {
			if want := visits[0] + float64(j)*s.Delta; math.Abs(v-want) > 1e-9*max(1, math.Abs(v)) {
				return nil, fmt.Errorf("sampler %s: visit %d at %g is not s_1 + jΔ = %g", s.Spec, j, v, want)
			}
		}
	}
	// The virtual visit before the first: s_1 − Δ, or s_1 − 1/λ (the mean
	// delay) for random delays, whose S_0 is not given.
	var prev0 float64
	if len(visits) > 0 {
		prev0 = visits[0] - 1/s.Rate
	}
	res, err := replayPath(&sliceUpdates{t: t}, &sliceVisits{v: visits, prev0: prev0}, t[len(t)-1], s, &cfg, nil)
	if err != nil {
		return nil, err
	}
	return append(res.Est, truthRows(t, s, &cfg, res.Visits)...), nil
}

// truthRows are G_U and F_U of the path's intervals on the sampler's grid.
func truthRows(t []float64, s estimator.Sampler, cfg *estimator.Config, visits int) []estimator.Estimate {
	u := make([]float64, len(t)-1)
	for i := range u {
		u[i] = t[i+1] - t[i]
	}
	x := estimator.Grid(s.Step(cfg.H), cfg.XMax)
	return truthFromIntervals(u, x, s, visits)
}

func truthFromIntervals(u, x []float64, s estimator.Sampler, visits int) []estimator.Estimate {
	nan := math.NaN()
	c := s.Constant()
	return []estimator.Estimate{
		{Sampler: s.Spec, Method: estimator.MethodTruth, Kind: estimator.KindG, CDF: transform.AgeCDF(u, x), Rate: nan, Visits: visits, Constant: c},
		{Sampler: s.Spec, Method: estimator.MethodTruth, Kind: estimator.KindF, CDF: transform.IntervalCDF(u, x), Rate: nan, Visits: visits, Constant: c},
	}
}
