package schedule

import (
	"fmt"
	"math"
	"runtime"
	"sync"
)

// Limits are per-host politeness limits (Kolobov et al., SIGIR 2019):
// Σ_{i ∈ host h} f_i ≤ Limit[h]. Host[i] is page i's host index into
// Limit, or −1 for a page of no limited host.
type Limits struct {
	Host  []int32
	Limit []float64
}

// rateFunc is a plan's rate of page i at multiplier ν > 0: the f_i that
// satisfies its KKT condition (marginal value of a visit = ν), or 0 where
// even the first visit is worth less. It must not increase with ν.
type rateFunc func(i int, nu float64) float64

// chunk is the number of pages summed by one task: partial sums are
// added in chunk order, so results do not depend on the number of cores.
const chunk = 1 << 14

// parallel runs fn over [0, n) in chunks on up to GOMAXPROCS goroutines
// and returns the partial results of the chunks in order.
func parallel(n int, fn func(lo, hi int) float64) []float64 {
	nc := (n + chunk - 1) / chunk
	out := make([]float64, nc)
	workers := min(runtime.GOMAXPROCS(0), nc)
	if workers <= 1 {
		for c := range nc {
			out[c] = fn(c*chunk, min(n, (c+1)*chunk))
		}
		return out
	}
	var wg sync.WaitGroup
	next := make(chan int, nc)
	for c := range nc {
		next <- c
	}
	close(next)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				out[c] = fn(c*chunk, min(n, (c+1)*chunk))
			}
		}()
	}
	wg.Wait()
	return out
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// Solution is the result of a budget allocation.
type Solution struct {
	// F is the visit rate per page, per unit of time; nil when the plan
	// was solved without keeping them (Rate computes them again).
	F  []float64
	Mu float64 // the budget's multiplier μ (0: the budget is not binding)
	// Theta is the share of the way from the rates at Mu to those just
	// below it (root): where a page's marginal value of a visit is flat
	// at Mu, the budget is spent by giving it a rate between the two.
	Theta float64
	// HostMu is each limited host's own multiplier λ_h: the host's pages
	// run at max(μ, λ_h), so the host's limit binds where λ_h > μ.
	HostMu []float64
	Used   float64 // Σ f_i

	at func(i int) float64 // page i's rate from the multipliers
}

// Rate is page i's visit rate: F[i], or computed from the multipliers
// (the same expression) when F was not kept.
func (s *Solution) Rate(i int) float64 {
	if s.F != nil {
		return s.F[i]
	}
	return s.at(i)
}

// maxIter bounds the bisections; the relative width 2^−60 is reached long
// before.
const maxIter = 200

// solve allocates the budget B over the pages active[i] (the others get
// fixed[i]) by a multiplier: f_i = rate(i, max(μ, λ_{h(i)})), with μ the
// smallest multiplier at which Σ f_i ≤ B (bisection on log μ), and λ_h the
// smallest at which host h's pages fit its limit (found first, each by its
// own bisection). This is the nested bisection "per host a multiplier ν_h
// ≥ 0 on top of μ" with the inner level solved once: for a given μ the
// host's KKT multiplier is ν_h = max(0, λ_h − μ), so the pages of host h
// see μ + ν_h = max(μ, λ_h). fixed may be nil (all zero); its rates count
// against B and against their hosts' limits. keep: fill Solution.F (else
// Solution.Rate computes each rate again, and a plan costs no memory per
// page).
func solve(n int, budget float64, fixed func(i int) float64, active func(i int) bool, lim *Limits, rate rateFunc, keep bool) (*Solution, error) {
	if !(budget > 0) {
		return nil, fmt.Errorf("schedule: budget %g: want > 0", budget)
	}
	sol := &Solution{}
	if keep {
		sol.F = make([]float64, n)
	}
	fixedSum := 0.0
	if fixed != nil {
		for i := range n {
			fixedSum += fixed(i)
		}
	}
	if fixedSum > budget {
		return nil, fmt.Errorf("schedule: the minimum rate of the pages that never changed (%g in total) exceeds the budget %g", fixedSum, budget)
	}
	var hosts []root
	if lim != nil {
		var err error
		if hosts, err = hostMultipliers(n, fixed, active, lim, rate); err != nil {
			return nil, err
		}
		sol.HostMu = make([]float64, len(hosts))
		for h, r := range hosts {
			sol.HostMu[h] = r.hi
		}
	}
	// eff is page i's rate at the budget's multiplier mu: its host's rate
	// where the host's limit binds (mu below the host's multiplier: the
	// KKT multiplier of the host is then λ_h − μ > 0), its own otherwise.
	eff := rate
	if hosts != nil {
		eff = func(i int, mu float64) float64 {
			if h := lim.Host[i]; h >= 0 && mu < hosts[h].hi {
				return hosts[h].rate(func(nu float64) float64 { return rate(i, nu) })
			}
			return rate(i, mu)
		}
	}
	demand := func(mu float64) float64 {
		return sum(parallel(n, func(lo, hi int) float64 {
			s := 0.0
			for i := lo; i < hi; i++ {
				if active(i) {
					s += eff(i, mu)
				}
			}
			return s
		}))
	}
	rest := budget - fixedSum
	start, step := 1.0, 16.0
	if n >= warmPages {
		// A first guess from every k-th page (their demand times k), so
		// that the full bisection starts from a narrow bracket: a few
		// evaluations of the whole demand instead of a dozen. The
		// subsample is fixed, so the result stays deterministic.
		k := n / warmSample
		sub := func(mu float64) float64 {
			s := 0.0
			for i := 0; i < n; i += k {
				if active(i) {
					s += eff(i, mu)
				}
			}
			return s * float64(k)
		}
		if m, ok := bisect(sub, rest, 1, 16); ok && m > 0 && !math.IsInf(m, 0) {
			start, step = m, 1.02
		}
	}
	r := findRoot(demand, rest, start, step)
	if !r.ok { // even μ → 0 fits: the budget does not bind (host limits or no changes)
		r = root{}
	}
	sol.Mu, sol.Theta = r.hi, r.theta
	sol.at = func(i int) float64 {
		f := 0.0
		if fixed != nil {
			f = fixed(i)
		}
		if active(i) {
			f = r.rate(func(mu float64) float64 { return eff(i, math.Max(mu, math.SmallestNonzeroFloat64)) })
			if math.IsInf(f, 1) { // μ = 0 and the page is not limited: cannot happen when ok is false
				f = 0
			}
		}
		return f
	}
	used := parallel(n, func(lo, hi int) float64 {
		s := 0.0
		for i := lo; i < hi; i++ {
			f := sol.at(i)
			if keep {
				sol.F[i] = f
			}
			s += f
		}
		return s
	})
	sol.Used = sum(used)
	return sol, nil
}

// root is a multiplier found by findRoot for a non-increasing demand
// that should meet a target: the demand at hi is ≤ the target, at lo
// (just below hi, within a relative 10⁻¹³) above it. Where the demand
// jumps between them — a page whose marginal value of a visit stays flat
// up to the rate at which its Ĝ reaches its last value, so that at the
// multiplier equal to that value any rate from 0 to that one is optimal —
// the rates at lo and hi are interpolated, theta of the way from hi's to
// lo's, so that they meet the target: the budget is spent, and the plan
// stays optimal (the pages that move have the same marginal value).
type root struct {
	lo, hi, theta float64
	ok            bool // false: the demand stays ≤ the target as μ → 0
}

// rate is the rate of a page whose rate at multiplier ν is r(ν).
func (b root) rate(r func(nu float64) float64) float64 {
	f := r(b.hi)
	if b.theta > 0 {
		f += b.theta * (r(b.lo) - f)
	}
	return f
}

// warmPages is the number of pages from which solve first guesses the
// multiplier on a subsample of about warmSample pages.
const (
	warmPages  = 1 << 18
	warmSample = 1 << 14
)

// bisect is findRoot's multiplier alone: the smallest μ > 0 with
// demand(μ) ≤ target, ok false when the demand stays ≤ target as μ → 0.
func bisect(demand func(float64) float64, target, start, step float64) (mu float64, ok bool) {
	r := findRoot(demand, target, start, step)
	return r.hi, r.ok
}

// findRoot finds the smallest μ > 0 with demand(μ) ≤ target (to a
// relative 1e-13 in μ, or the demand within 1e-13 of target) for a
// non-increasing demand: bracketing from start by factors of step (16
// from a cold start; a small step from a good guess, squared at each
// step so that a poor guess still brackets quickly), then the
// Illinois variant of regula falsi on (ln μ, demand/target − 1), which
// keeps the bracket of bisection and converges superlinearly where the
// demand is smooth (between the kinks where a page starts or stops being
// visited). ok is false when the demand stays ≤ target as μ → 0 (the
// constraint does not bind). The μ returned (hi) has demand(μ) ≤ target;
// lo and theta say how to spend what is left where the demand jumps
// (root).
func findRoot(demand func(float64) float64, target, start, step float64) root {
	if !(target > 0) { // nothing to spend: no visit is affordable
		return root{lo: math.Inf(1), hi: math.Inf(1), ok: true}
	}
	y := func(mu float64) float64 { return demand(mu)/target - 1 }
	grow := func() {
		if step < 16 {
			step = math.Min(step*step, 16)
		}
	}
	lo, hi := start, start
	ylo, yhi := y(start), 0.0
	if ylo > 0 {
		yhi = ylo
		for i := 0; yhi > 0; i++ {
			if i > 300 || math.IsInf(hi, 1) {
				return root{lo: math.Inf(1), hi: math.Inf(1), ok: true}
			}
			lo, ylo = hi, yhi
			hi *= step
			grow()
			yhi = y(hi)
		}
	} else {
		yhi = ylo
		for i := 0; ylo <= 0; i++ {
			if i > 300 || lo == 0 {
				return root{}
			}
			hi, yhi = lo, ylo
			lo /= step
			grow()
			ylo = y(lo)
		}
	}
	// Invariant: y(lo) > 0 ≥ y(hi).
	a, b := math.Log(lo), math.Log(hi)
	side := 0
	trueLo, trueHi := ylo, yhi // ylo, yhi may be halved (Illinois)
	for range maxIter {
		if hi-lo <= 1e-13*hi || trueHi > -1e-13 {
			break
		}
		m := b - yhi*(b-a)/(yhi-ylo) // secant on (ln μ, y)
		if !(m > a && m < b) || math.IsInf(ylo, 0) {
			m = (a + b) / 2
		}
		mid := math.Exp(m)
		if !(mid > lo && mid < hi) {
			mid = math.Sqrt(lo * hi)
			m = math.Log(mid)
			if !(mid > lo && mid < hi) {
				break
			}
		}
		ym := y(mid)
		if ym > 0 {
			lo, a, ylo, trueLo = mid, m, ym, ym
			if side == -1 {
				yhi /= 2 // Illinois: halve the stale end
			}
			side = -1
		} else {
			hi, b, yhi, trueHi = mid, m, ym, ym
			if side == 1 {
				ylo /= 2
			}
			side = 1
		}
	}
	r := root{lo: lo, hi: hi, ok: true}
	if trueHi <= -1e-13 && !math.IsInf(trueLo, 0) {
		r.theta = -trueHi / (trueLo - trueHi)
	}
	return r
}

// hostMultipliers finds, for each limited host h, the smallest λ_h with
// Σ_{i ∈ h, active} rate(i, λ_h) ≤ Limit[h] − Σ_{i ∈ h} fixed_i, and how
// to spend the rest of the limit (root; zero when the host never reaches
// its limit).
func hostMultipliers(n int, fixed func(i int) float64, active func(i int) bool, lim *Limits, rate rateFunc) ([]root, error) {
	if len(lim.Host) != n {
		return nil, fmt.Errorf("schedule: host limits for %d pages, want %d", len(lim.Host), n)
	}
	nh := len(lim.Limit)
	// Pages of each host, by a counting sort.
	start := make([]int, nh+1)
	for _, h := range lim.Host {
		if h >= 0 {
			if int(h) >= nh {
				return nil, fmt.Errorf("schedule: host index %d, only %d limits", h, nh)
			}
			start[h+1]++
		}
	}
	for h := range nh {
		start[h+1] += start[h]
	}
	pages := make([]int32, start[nh])
	pos := append([]int(nil), start[:nh]...)
	for i, h := range lim.Host {
		if h >= 0 {
			pages[pos[h]] = int32(i)
			pos[h]++
		}
	}
	out := make([]root, nh)
	for h := range nh {
		room := lim.Limit[h]
		for _, i := range pages[start[h]:start[h+1]] {
			if fixed != nil {
				room -= fixed(int(i))
			}
		}
		if room < 0 {
			return nil, fmt.Errorf("schedule: host %d: the minimum rates of its pages exceed its limit %g", h, lim.Limit[h])
		}
		ps := pages[start[h]:start[h+1]]
		r := findRoot(func(mu float64) float64 {
			s := 0.0
			for _, i := range ps {
				if active(int(i)) {
					s += rate(int(i), mu)
				}
			}
			return s
		}, room, 1, 16)
		if r.ok {
			out[h] = r
		}
	}
	return out, nil
}
