package schedule

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/analysis/staleness"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/transform"
)

// expCurve tabulates G(x) = 1 − e^{−λx} on n knots up to xmax.
func expCurve(lambda, xmax float64, n int) (x, g []float64) {
	for k := 1; k <= n; k++ {
		v := xmax * float64(k) / float64(n)
		x = append(x, v)
		g = append(g, -math.Expm1(-lambda*v))
	}
	return x, g
}

// φ of a finely tabulated exponential G equals Cho and Garcia-Molina's
// closed form (1 − e^{−λΔ})/(λΔ); the linear interpolation error of a
// grid of step h is O(h²λ²).
func TestFreshnessPoissonClosedForm(t *testing.T) {
	for _, lambda := range []float64{0.1, 1, 7} {
		x, g := expCurve(lambda, 60/lambda, 60000)
		for _, delta := range []float64{0.01, 0.3, 1, 4, 25} {
			got := Freshness(x, g, delta/lambda)
			want := -math.Expm1(-delta) / delta
			if math.Abs(got-want) > 1e-6 {
				t.Errorf("λ=%g λΔ=%g: φ=%.9f, closed form %.9f", lambda, delta, got, want)
			}
			if p := PoissonFreshness(lambda, delta/lambda); math.Abs(p-want) > 1e-14 {
				t.Errorf("PoissonFreshness(%g, %g) = %g, want %g", lambda, delta/lambda, p, want)
			}
		}
	}
}

// Hand-computed: constant intervals U = 2 give the uniform age
// distribution G(x) = x/2 on [0, 2]; φ(Δ) = 1 − Δ/4 for Δ ≤ 2 and
// (1/Δ)∫₀² (1 − t/2) dt = 1/Δ beyond. Knots stop at 1: the extension with
// the last slope must carry G up to 1 at x = 2.
func TestFreshnessHand(t *testing.T) {
	x := []float64{0.5, 1}
	g := []float64{0.25, 0.5}
	for _, c := range []struct{ delta, want float64 }{
		{0.5, 1 - 0.5/4}, {1, 0.75}, {2, 0.5}, {4, 0.25}, {10, 0.1}, {math.Inf(1), 0},
	} {
		if got := Freshness(x, g, c.delta); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("φ(%g) = %g, want %g", c.delta, got, c.want)
		}
	}
	// A flat tail below 1 (the page never changes again) keeps 1 − G(∞).
	if got := Freshness([]float64{1, 2}, []float64{0.5, 0.5}, math.Inf(1)); got != 0.5 {
		t.Errorf("flat tail: φ(∞) = %g, want 0.5", got)
	}
}

// renewal draws n intervals of d.
func renewal(d model.Dist, n int, seed uint64) []float64 {
	r := model.NewRand(seed, 0)
	u := make([]float64, n)
	for i := range u {
		u[i] = d.Rand(r)
	}
	return u
}

// The staleness package measures S(Δ) on a series; φ computed here from
// the same series' exact G_U (knots at its sorted intervals, values from
// transform.AgeCDF, exactly piecewise linear between them) must be 1 − S
// to rounding, for every page and Δ; and φ from the true G_U of the
// generating distribution must agree with it up to sampling noise.
func TestFreshnessAgreesWithStaleness(t *testing.T) {
	dists := []model.Dist{
		model.Exponential{Rate: 0.5},
		model.Pareto{Alpha: 2.5, Beta: 3},
		model.Weibull{K: 0.6, Scale: 2},
		model.Lognormal{Mu: 0, Sigma: 1.2},
		model.Uniform{A: 1, B: 3},
	}
	for di, d := range dists {
		u := renewal(d, 200000, uint64(di+1))
		knots := slices.Clone(u)
		slices.Sort(knots)
		knots = slices.Compact(knots)
		g := transform.AgeCDF(u, knots).P
		// True G_U on a fine grid far into the tail.
		var tx, tg []float64
		for k := 1; k <= 200000; k++ {
			v := 2000 * d.Mean() * float64(k) / 200000
			tx = append(tx, v)
			tg = append(tg, d.AgeCDF(v))
		}
		for _, m := range []float64{0.05, 0.5, 1, 3, 10} {
			delta := m * d.Mean()
			s := staleness.PhaseAveraged(u, delta)
			if got := Freshness(knots, g, delta); math.Abs(got-(1-s)) > 1e-9 {
				t.Errorf("%v Δ=%g: φ from the series' G_U %.12f, 1 − staleness %.12f", d, delta, got, 1-s)
			}
			if got := Freshness(tx, tg, delta); math.Abs(got-(1-s)) > 0.01 {
				t.Errorf("%v Δ=%g: φ from the true G_U %.5f, 1 − staleness on the series %.5f", d, delta, got, 1-s)
			}
		}
	}
}

// Realized on hand-made series, and against the staleness package: over
// the window [u_first, u_last] it is 1 − PhaseAveraged, and it is the
// average over phases of 1 − AtPhase (a midpoint rule over 4000 phases).
func TestRealized(t *testing.T) {
	// Updates at 0 and 10, window [0, 20), Δ = 4: after each update the
	// copy is stale with probability 1 − s/4 for s < 4, ∫ = 2 each.
	if got := Realized([]float64{0, 10}, 0, 20, 4); math.Abs(got-0.8) > 1e-15 {
		t.Errorf("hand: %g, want 0.8", got)
	}
	// An update before the window: at t0 = 12 the age is 2; stale
	// ∫_2^4 (1 − s/4) ds = 0.5 over [12, 22).
	if got := Realized([]float64{0, 10}, 12, 22, 4); math.Abs(got-0.95) > 1e-15 {
		t.Errorf("update before the window: %g, want 0.95", got)
	}
	// No visits: there is no copy; the page is fresh only before its
	// first update (the limit Δ → ∞ of the uniform phase).
	if got := Realized([]float64{5}, 0, 20, math.Inf(1)); got != 0.25 {
		t.Errorf("no visits: %g, want 0.25", got)
	}
	if got := Realized([]float64{-3, 0, 5, 7}, 0, 20, math.Inf(1)); got != 0 {
		t.Errorf("no visits, updates before and at t0: %g, want 0", got)
	}
	if got := Realized([]float64{-3, 25}, 0, 20, math.Inf(1)); got != 0 {
		t.Errorf("no visits, an update before the window: %g, want 0", got)
	}
	if got := Realized([]float64{25}, 0, 20, math.Inf(1)); got != 1 {
		t.Errorf("no visits, no update before t1: %g, want 1", got)
	}
	u := renewal(model.Pareto{Alpha: 1.8, Beta: 2}, 3000, 9)
	times := make([]float64, len(u)+1)
	for i, v := range u {
		times[i+1] = times[i] + v
	}
	T := times[len(times)-1]
	for _, delta := range []float64{0.3, 2, 17} {
		got := Realized(times, 0, T, delta)
		if want := 1 - staleness.PhaseAveraged(u, delta); math.Abs(got-want) > 1e-9 {
			t.Errorf("Δ=%g: Realized %.12f, 1 − PhaseAveraged %.12f", delta, got, want)
		}
		// The whole series against the phase average of AtPhase.
		const np = 4000
		avg := 0.0
		for k := range np {
			avg += 1 - staleness.AtPhase(times, delta, (float64(k)+0.5)/np*delta)
		}
		avg /= np
		if math.Abs(got-avg) > 2e-3 {
			t.Errorf("Δ=%g: Realized %.6f, phase average of AtPhase %.6f", delta, got, avg)
		}
		// A window inside the series (updates before it set the age at
		// its start) against a naive reference: visits at φ + mΔ, and at
		// each of many instants t the copy is fresh iff no update lies in
		// (last visit ≤ t, t], averaged over phases and instants.
		a, b := 0.2*T, 0.7*T
		if want := naiveRealized(times, a, b, delta, 400, 4000); math.Abs(Realized(times, a, b, delta)-want) > 3e-3 {
			t.Errorf("Δ=%g: window [%g, %g): Realized %.6f, naive %.6f", delta, a, b, Realized(times, a, b, delta), want)
		}
	}
}

// naiveRealized averages the freshness indicator over np phases and nt
// instants (midpoints) of [a, b).
func naiveRealized(times []float64, a, b, delta float64, np, nt int) float64 {
	fresh := 0
	for k := range np {
		phase := (float64(k) + 0.5) / float64(np) * delta
		for j := range nt {
			t := a + (float64(j)+0.5)/float64(nt)*(b-a)
			v := phase + math.Floor((t-phase)/delta)*delta // last visit ≤ t
			// any update in (v, t]?
			i, _ := slices.BinarySearch(times, v)
			for i < len(times) && times[i] <= v {
				i++
			}
			if i == len(times) || times[i] > t {
				fresh++
			}
		}
	}
	return float64(fresh) / float64(np*nt)
}

// WindowCurve on a hand example: updates at −2, 3, 4 over the window
// [0, 10): the head has ages 2…5 (3 long), the interval 3…4 ages 0…1,
// the tail ages 0…6; so Ĝ has slope 2/10 on [0, 1], 1/10 on [1, 2],
// 2/10 on [2, 5], 1/10 on [5, 6], and λ = 2 updates / 10.
func TestWindowCurveHand(t *testing.T) {
	x, g, lambda := WindowCurve([]float64{-2, 3, 4}, 0, 10)
	wantX := []float64{1, 2, 5, 6, 12}
	wantG := []float64{0.2, 0.3, 0.9, 1, 1}
	if !slices.Equal(x, wantX) || lambda != 0.2 {
		t.Fatalf("knots %v, λ %g; want %v, 0.2", x, lambda, wantX)
	}
	for k := range wantG {
		if math.Abs(g[k]-wantG[k]) > 1e-15 {
			t.Errorf("Ĝ(%g) = %g, want %g", x[k], g[k], wantG[k])
		}
	}
	// A page created in the window: age +∞ before, Ĝ(∞) = 0.6.
	x, g, _ = WindowCurve([]float64{4}, 0, 10)
	if !slices.Equal(x, []float64{6, 12}) || math.Abs(g[0]-0.6) > 1e-15 || g[1] != g[0] {
		t.Errorf("created at 4: %v %v", x, g)
	}
	if x, _, _ := WindowCurve([]float64{12}, 0, 10); x != nil {
		t.Errorf("no update before t1: knots %v", x)
	}
}

// For any updates and window, the freshness of a page visited every Δ
// with a uniform phase is the same number computed two ways: Freshness
// of the window's time-average age distribution (WindowCurve) and
// Realized from the update times (no stationarity needed); Δ = +Inf
// included (no visits: 1 − Ĝ(∞)). Random update sets, windows cutting
// them anywhere, pages created in the window and ended before it.
func TestWindowCurveIsRealized(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 5))
	for trial := range 400 {
		n := r.IntN(12)
		times := make([]float64, n)
		for i := range times {
			times[i] = math.Round(r.Float64()*1000) / 10 // ties and repeats of knots
		}
		slices.Sort(times)
		times = slices.Compact(times)
		t0 := r.Float64()*120 - 10
		t1 := t0 + 0.1 + r.Float64()*80
		x, g, lambda := WindowCurve(times, t0, t1)
		in := 0
		for _, u := range times {
			if u >= t0 && u < t1 {
				in++
			}
		}
		if math.Abs(lambda-float64(in)/(t1-t0)) > 1e-12 {
			t.Fatalf("trial %d: λ %g, want %d/%g", trial, lambda, in, t1-t0)
		}
		for _, delta := range []float64{0.05, 0.7, 3, 11, 40, 300, math.Inf(1)} {
			want := Realized(times, t0, t1, delta)
			got := 1.0
			if len(x) > 0 {
				got = Freshness(x, g, delta)
			}
			if math.Abs(got-want) > 1e-12 {
				t.Fatalf("trial %d (updates %v, window [%g, %g)), Δ %g: Freshness(Ĝ) %.15f, Realized %.15f", trial, times, t0, t1, delta, got, want)
			}
		}
	}
}
