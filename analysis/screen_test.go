package analysis

import (
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// TestStatsHand: updates at 0, 1, 3, 6 h → U = 1, 2, 3 h; E[U] = 2,
// Var = ((−1)² + 0 + 1²)/2 = 1, v = 1/2, T = 6 h.
func TestStatsHand(t *testing.T) {
	p := series.Page{ID: 7, Title: "x", Updates: []int64{0, 3600, 3 * 3600, 6 * 3600}}
	s := Stats(&p, 3600)
	if s.Updates != 4 || s.Intervals != 3 || s.Mean != 2 || s.Var != 1 || s.CoV != 0.5 || s.Lifetime != 6 {
		t.Errorf("stats %+v", s)
	}
	one := series.Page{Updates: []int64{5}}
	if s := Stats(&one, 1); !math.IsNaN(s.CoV) || s.Intervals != 0 {
		t.Errorf("single update: %+v", s)
	}
}

// TestLillieforsNull checks the simulated null distribution against
// Stephens (1974, Table 1A, exponential with estimated mean): the modified
// statistic (D − 0.2/n)(√n + 0.26 + 0.5/√n) has upper 5 % point 1.094 and
// 1 % point 1.308. At n = 100, 2,000 replicates estimate the 95 % quantile
// with SE ≈ 0.01; a sample exactly at the critical value must get
// p ≈ 0.05.
func TestLillieforsNull(t *testing.T) {
	const n, reps = 100, 2000
	r := model.NewRand(11, 0)
	sims := make([]float64, reps)
	buf := make([]float64, n)
	for i := range sims {
		for j := range buf {
			buf[j] = r.ExpFloat64()
		}
		slices.Sort(buf)
		d := ksExpFitted(buf)
		sims[i] = (d - 0.2/n) * (math.Sqrt(n) + 0.26 + 0.5/math.Sqrt(n))
	}
	slices.Sort(sims)
	q95, q99 := sims[int(0.95*reps)], sims[int(0.99*reps)]
	if math.Abs(q95-1.094) > 0.04 || math.Abs(q99-1.308) > 0.08 {
		t.Errorf("simulated quantiles 95%% %.3f, 99%% %.3f; Stephens: 1.094, 1.308", q95, q99)
	}
	t.Logf("Lilliefors exponential n=%d: 95%% %.3f (Stephens 1.094), 99%% %.3f (1.308)", n, q95, q99)
}

// TestLillieforsPower: the p-value is roughly uniform under the null (about
// 5 % of exponential samples rejected at 5 %: with 300 samples the count
// is Binomial(300, 0.05) = 15 ± 3.8, 4 SE allowed) and Pareto samples
// with v ≈ 1.3 are rejected.
func TestLillieforsPower(t *testing.T) {
	r := model.NewRand(12, 0)
	rej := 0
	for i := 0; i < 300; i++ {
		x := draw(model.Exponential{Rate: 3}, 60, uint64(1000+i))
		if _, p := LillieforsExp(x, 199, r); p < 0.05 {
			rej++
		}
	}
	if rej < 3 || rej > 30 { // 15 ± 15.2 (4 SE), and a test that never rejects fails
		t.Errorf("%d of 300 exponential samples rejected at 5%%, want about 15", rej)
	}
	x := draw(model.Pareto{Alpha: 4, Beta: 3}, 2000, 3)
	if d, p := LillieforsExp(x, 199, r); p > 0.01 {
		t.Errorf("Pareto(4,3) sample: D = %.3f, p = %.3f, want rejection", d, p)
	}
	// Above LillieforsMaxN the √n scaling is used: exponential data must
	// still not be rejected at 1 %.
	big := draw(model.Exponential{Rate: 1}, 3*LillieforsMaxN, 4)
	if _, p := LillieforsExp(big, 99, r); p < 0.01 {
		t.Errorf("large exponential sample rejected: p = %g", p)
	}
}

// TestCheckPoissonVsLRD: a Poisson page passes the screen's checks and an
// LRD page (intervals exp(FGN) with H = 0.85) does not.
func TestCheckPoissonVsLRD(t *testing.T) {
	r := model.NewRand(13, 0)
	u := draw(model.Exponential{Rate: 1}, 4000, 21)
	st := PageStats{CoV: 1}
	c := Check(st, u, ScreenOptions{Reps: 199}, r)
	if c.KSP < 0.01 || c.LjungP < 0.001 || math.Abs(c.HurstOf(HurstDFA).H-0.5) > 0.06 {
		t.Errorf("Poisson page: KS p %.3f, Ljung–Box p %.4f, H_DFA %.3f", c.KSP, c.LjungP, c.HurstOf(HurstDFA).H)
	}
	z, _ := model.FGN(4000, 0.85, model.NewRand(14, 0))
	v := make([]float64, len(z))
	for i := range z {
		v[i] = math.Exp(0.5 * z[i])
	}
	c = Check(st, v, ScreenOptions{Reps: 199}, r)
	if c.LjungP > 1e-6 || c.HurstOf(HurstDFA).H < 0.7 {
		t.Errorf("LRD page: Ljung–Box p %.3g, H_DFA %.3f", c.LjungP, c.HurstOf(HurstDFA).H)
	}
}

// TestLillieforsNullShared: at the sizes the shared nulls are simulated
// at (n ≤ 32 and the grid sizes), Test gives exactly the D and p of
// LillieforsExp drawing from the same stream (the reference: one full
// simulation per call); it simulates once per such size, and depends on
// the order of the pages only through their sizes.
func TestLillieforsNullShared(t *testing.T) {
	const seed, reps = 9, 99
	xs := [][]float64{
		draw(model.Exponential{Rate: 2}, 20, 1),       // own null (≤ 32)
		draw(model.Pareto{Alpha: 3, Beta: 1}, 20, 2),  // same n: reuses the null
		draw(model.Exponential{Rate: 1}, 64, 3),       // grid size 32·2
		draw(model.Weibull{K: 0.8, Scale: 1}, 181, 6), // grid size 32·2^{5/2}
		draw(model.Exponential{Rate: 1}, LillieforsMaxN, 4),
	}
	null := NewLillieforsNull(seed, reps)
	for i, x := range xs {
		d, p := null.Test(x)
		wd, wp := LillieforsExp(x, reps, model.NewRand(seed, LillieforsStream(len(x))))
		if d != wd || p != wp {
			t.Errorf("sample %d (n = %d): shared (D %g, p %g), per call (D %g, p %g)", i, len(x), d, p, wd, wp)
		}
		// p is (1 + count)/(reps + 1): a multiple of 1/100 in (0, 1].
		if k := p * (reps + 1); math.Abs(k-math.Round(k)) > 1e-9 || p <= 0 || p > 1 {
			t.Errorf("sample %d: p = %g is not (1 + count)/%d", i, p, reps+1)
		}
	}
	if null.Simulated() != 4 { // sizes 20, 64, 181 and LillieforsMaxN
		t.Errorf("simulated %d null distributions, want 4", null.Simulated())
	}
	// In reverse order, and with sizes between the grid points and above
	// LillieforsMaxN added, the same p-values.
	xs = append(xs, draw(model.Exponential{Rate: 1}, 150, 7), draw(model.Exponential{Rate: 1}, LillieforsMaxN+900, 5))
	want := make([]float64, len(xs))
	for i, x := range xs {
		_, want[i] = null.Test(x)
	}
	rev := NewLillieforsNull(seed, reps)
	for i := len(xs) - 1; i >= 0; i-- {
		if _, p := rev.Test(xs[i]); p != want[i] {
			t.Errorf("sample %d: p %g in reverse order, %g in order", i, p, want[i])
		}
	}
	if d, p := null.Test([]float64{1, 2}); !math.IsNaN(d) || !math.IsNaN(p) {
		t.Errorf("n = 2: D %g, p %g, want NaN", d, p)
	}
}

// TestLillieforsNullFewSimulations is the regression test of the screen's
// cost: a thousand distinct sample sizes between 100 and 5,000 cost at
// most the grid's nulls (16), not one null per size.
func TestLillieforsNullFewSimulations(t *testing.T) {
	null := NewLillieforsNull(3, 19)
	for i := 0; i < 1000; i++ {
		n := 100 + i*49/10
		null.Test(draw(model.Exponential{Rate: 1}, n, uint64(i)))
	}
	if got := null.Simulated(); got > len(lillieforsGrid) || got < 10 {
		t.Errorf("%d null distributions simulated for 1,000 sizes in [100, 5000), want at most the %d grid sizes (and most of them)", got, len(lillieforsGrid))
	}
}

// TestLillieforsNullAgainstDirect: between the grid sizes, the p-value
// of the shared nulls (Stephens' statistic, interpolated in 1/√n) agrees
// within Monte-Carlo error with a direct simulation at the page's own n
// (the reference: 3,000 replicates of √n·D at that n, another seed). At
// each n, distances D at the direct null's 20, 50, 80, 95 and 99 %
// points are tested; the allowed gap is 4 SE of the difference of two
// independent MC proportions (reps 999 and 3,000) plus 0.003.
func TestLillieforsNullAgainstDirect(t *testing.T) {
	const reps, direct = 999, 3000
	null := NewLillieforsNull(5, reps)
	for _, n := range []int{40, 100, 300, 1000, 3000, LillieforsMaxN + 1000} {
		ref := simulateLillieforsNull(n, direct, model.NewRand(77, uint64(n)))
		sn := math.Sqrt(float64(n))
		for _, q := range []float64{0.2, 0.5, 0.8, 0.95, 0.99} {
			stat := ref[int(q*direct)]
			d := stat / sn
			pd := float64(len(ref)-sort.SearchFloat64s(ref, stat*(1-1e-12))) / direct
			pg := null.pValue(d, stat, n)
			tol := 4*math.Sqrt(pd*(1-pd)*(1.0/reps+1.0/direct)) + 0.003
			if math.Abs(pg-pd) > tol {
				t.Errorf("n = %d, D = %.5f (direct %.0f%% point): shared p %.4f, direct p %.4f (allowed ±%.4f)", n, d, 100*q, pg, pd, tol)
			}
		}
	}
}

// TestLillieforsPHandCount: p = (1 + #{null ≥ stat})/(reps + 1) counted by
// hand on a small sorted null.
func TestLillieforsPHandCount(t *testing.T) {
	null := []float64{0.5, 0.7, 0.7, 0.9}
	for _, c := range []struct{ stat, want float64 }{
		{0.1, 5.0 / 5}, // 1 + 4: all ≥ 0.1
		{0.7, 4.0 / 5}, // 1 + 3: 0.7, 0.7, 0.9 (ties count as ≥)
		{0.8, 2.0 / 5}, // 1 + 1: 0.9
		{1.0, 1.0 / 5}, // 1 + 0
	} {
		if got := lillieforsP(c.stat, null); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("stat %g: p = %g, want %g", c.stat, got, c.want)
		}
	}
}

// TestKSExpFittedReference: the written-out exponential KS distance equals
// the generic ksSorted with the fitted exponential CDF (the reference),
// bit for bit, on samples of several sizes and shapes.
func TestKSExpFittedReference(t *testing.T) {
	for i, x := range [][]float64{
		{1, 2, 3},
		draw(model.Exponential{Rate: 2}, 50, 1),
		draw(model.Pareto{Alpha: 1.5, Beta: 1}, 999, 2),
		draw(model.Weibull{K: 0.5, Scale: 3}, 5000, 3),
	} {
		s := slices.Clone(x)
		slices.Sort(s)
		lam := float64(len(s)) / sum(s)
		want := ksSorted(s, func(v float64) float64 { return -math.Expm1(-lam * v) })
		if got := ksExpFitted(s); got != want {
			t.Errorf("sample %d: %v, reference %v", i, got, want)
		}
	}
	// By hand: 1, 2, 3 with λ̂ = 1/2 gives D = F(1) = 1 − e^{−1/2} (fit_test.go).
	if got, want := ksExpFitted([]float64{1, 2, 3}), -math.Expm1(-0.5); math.Abs(got-want) > 1e-15 {
		t.Errorf("1,2,3: D = %v, want %v", got, want)
	}
}
