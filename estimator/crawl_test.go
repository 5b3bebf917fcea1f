package estimator

import (
	"math/rand/v2"
)

// feed is the tests' reference crawler (replay's crawl is the real one):
// for each visit time s_j inside the window [t_0, t_last] it builds Obs by
// definition — the cycle is the number of updates in (t_0, s_j], the age
// the time since the last of them, Q whether the cycle changed since the
// previous visit — and passes it to every observer; visits before t_0
// only set the previous visit. prev0 is the crawler's virtual visit before
// the first (Obs.Prev of visit 0). It returns the number of visits.
func feed(t, s []float64, prev0 float64, obs ...observer) int {
	end := t[len(t)-1]
	j := 0
	prevS, havePrev := prev0, false
	var prevCycle int64
	for _, sj := range s {
		if sj > end {
			break
		}
		if sj < t[0] {
			prevS, havePrev = sj, true
			continue
		}
		var cycle int64
		for _, u := range t[1:] {
			if u <= sj {
				cycle++
			}
		}
		if !havePrev {
			prevS = prev0
		}
		o := &Obs{J: j, S: sj, A: sj - t[cycle], Cycle: cycle, Q: j > 0 && cycle != prevCycle, Prev: prevS}
		for _, e := range obs {
			e.add(o)
		}
		prevCycle, prevS, havePrev = cycle, sj, true
		j++
	}
	return j
}

// drawVisits draws the visits of sampler smp up to end as replay's
// crawler does (the same draws from r, in the same order): s_1 = U·S_0,
// then i.i.d. delays; s_1 = U·Δ and s_j = s_1 + jΔ for constant delays.
// prev0 is the virtual visit before the first, s_1 − S_0.
func drawVisits(smp Sampler, r *rand.Rand, end float64) (s []float64, prev0 float64) {
	if smp.Constant() {
		start := r.Float64() * smp.Delta
		for j := 0; start+float64(j)*smp.Delta <= end; j++ {
			s = append(s, start+float64(j)*smp.Delta)
		}
		return s, start - smp.Delta
	}
	u := r.Float64()
	s0 := smp.Dist.Rand(r)
	cur := u * s0
	for ; cur <= end; cur += smp.Dist.Rand(r) {
		s = append(s, cur)
	}
	return s, u*s0 - s0
}

// estimate runs cfg's estimators on the crawl of update times t by the
// given visits (feed; the virtual visit before the first is s_1 − 1/λ)
// and returns their rows (no truth rows).
func estimate(t, s []float64, smp Sampler, cfg Config) ([]Estimate, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	pr := NewPath(smp, &cfg, t[len(t)-1], nil)
	n := feed(t, s, s[0]-1/smp.Rate, pr.obs...)
	res, err := pr.Finish(n)
	return res.Est, err
}
