package model

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/units"
)

// intervals returns the first n intervals of p started at 0 (the window is
// grown until it holds n+1 times).
func intervals(t *testing.T, p Process, seed uint64, n int) []float64 {
	t.Helper()
	r := NewRand(seed, 0)
	end := 4 * float64(n) * p.Mean() // LRD paths can run slow: the mean of n fGn values has sd n^{H−1}
	ts, err := Times(p, r, 0, end)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) < n+1 {
		t.Fatalf("%v: only %d times in [0, %g)", p, len(ts), end)
	}
	u := make([]float64, n)
	for i := range u {
		u[i] = ts[i+1] - ts[i]
	}
	return u
}

// ksDistance is D_n = sup_x |F_n(x) − F(x)| for a continuous F.
func ksDistance(u []float64, cdf func(float64) float64) float64 {
	s := slices.Clone(u)
	slices.Sort(s)
	n := float64(len(s))
	d := 0.0
	for i, x := range s {
		f := cdf(x)
		d = math.Max(d, math.Max(f-float64(i)/n, float64(i+1)/n-f))
	}
	return d
}

// moments returns the sample mean and the central moments m2, m3, m4.
func moments(u []float64) (mean, m2, m3, m4 float64) {
	for _, x := range u {
		mean += x
	}
	mean /= float64(len(u))
	for _, x := range u {
		d := x - mean
		m2 += d * d
		m3 += d * d * d
		m4 += d * d * d * d
	}
	n := float64(len(u))
	return mean, m2 / n, m3 / n, m4 / n
}

// TestRenewalIntervalsFollowModel draws n = 10⁵ intervals of each renewal
// family and checks:
//   - the KS distance to F_U is below 1.628/√n, the α = 0.01 critical value
//     of the Kolmogorov distribution (K_{0.99} = 1.6276). The seed is fixed,
//     so this is one deterministic draw that passes, not a flaky test; a
//     wrong CDF or sampler (e.g. Lomax β off by 2%) fails it;
//   - the sample mean is within 5σ/√n of E[U] (σ from the closed form);
//   - the sample CoV is within 5 standard errors of the closed-form CoV,
//     the standard error from the delta method with sample moments:
//     Var(v̂) ≈ (1/n)[σ⁴/μ⁴ − μ₃/μ³ + (μ₄ − σ⁴)/(4σ²μ²)].
func TestRenewalIntervalsFollowModel(t *testing.T) {
	const n = 100000
	wk := func(k float64) float64 { // Weibull CoV = √(Γ(1+2/k)/Γ(1+1/k)² − 1)
		g1, g2 := math.Gamma(1+1/k), math.Gamma(1+2/k)
		return math.Sqrt(g2/(g1*g1) - 1)
	}
	cases := []struct {
		spec string
		cov  float64 // closed form
	}{
		{"exp:0.5", 1},
		{"pareto:5,4", math.Sqrt(5.0 / 3)}, // Lomax: CoV = √(α/(α−2))
		{"weibull:0.7,1", wk(0.7)},
		{"weibull:2,3", wk(2)},
		{"lognormal:0,0.5", math.Sqrt(math.Exp(0.25) - 1)}, // √(e^{σ²} − 1)
		{"uniform:0.5,1.5", (1.0 / math.Sqrt(12)) / 1},     // (B−A)/√12 / ((A+B)/2)
		{"mix:0.3*exp:2+0.7*exp:0.5", math.Sqrt(2*(0.3/4+0.7/0.25)/(1.55*1.55) - 1)}, // E[U] = 0.3/2+0.7/0.5 = 1.55, E[U²] = Σ w·2/λ²
	}
	for i, c := range cases {
		p, err := ParseProcess(c.spec, 3600)
		if err != nil {
			t.Fatal(err)
		}
		u := intervals(t, p, uint64(100+i), n)
		d := p.Interval()
		if ks := ksDistance(u, d.CDF); ks > 1.628/math.Sqrt(n) {
			t.Errorf("%s: KS = %.5f > %.5f", c.spec, ks, 1.628/math.Sqrt(n))
		}
		mean, m2, m3, m4 := moments(u)
		mu := d.Mean()
		sigma := c.cov * mu
		if math.Abs(mean-mu) > 5*sigma/math.Sqrt(n) {
			t.Errorf("%s: mean %.5f, want %.5f ± %.5f", c.spec, mean, mu, 5*sigma/math.Sqrt(n))
		}
		v := math.Sqrt(m2) / mean
		se := math.Sqrt((m2*m2/math.Pow(mean, 4) - m3/math.Pow(mean, 3) + (m4-m2*m2)/(4*m2*mean*mean)) / n)
		if math.Abs(v-c.cov) > 5*se {
			t.Errorf("%s: CoV %.4f, want %.4f ± %.4f", c.spec, v, c.cov, 5*se)
		}
	}
}

// TestConstantAndHeavyTail covers the families the test above cannot:
// const (no KS for a point mass: every interval must be exactly C) and a
// Lomax with infinite variance (α = 1.5: only KS applies; the mean and CoV
// have no finite standard error).
func TestConstantAndHeavyTail(t *testing.T) {
	u := intervals(t, Renewal{Constant{C: 2.5}}, 1, 1000)
	for i, x := range u {
		if math.Abs(x-2.5) > 1e-9 {
			t.Fatalf("const:2.5 interval %d = %g", i, x)
		}
	}
	const n = 100000
	p := Renewal{Pareto{Alpha: 1.5, Beta: 2}}
	if ks := ksDistance(intervals(t, p, 2, n), p.U.CDF); ks > 1.628/math.Sqrt(n) {
		t.Errorf("pareto:1.5,2: KS = %.5f > %.5f", ks, 1.628/math.Sqrt(n))
	}
}

// aggVarHurst estimates the Hurst exponent of a sequence by aggregated
// variance: the variance of block means of size m scales as m^{2H−2}, so
// H = 1 + slope/2 for the least-squares slope of log Var on log m over
// m = 4, 8, …, len/32.
func aggVarHurst(x []float64) float64 {
	var lx, ly []float64
	for m := 4; m <= len(x)/32; m *= 2 {
		k := len(x) / m
		means := make([]float64, k)
		for b := 0; b < k; b++ {
			s := 0.0
			for _, v := range x[b*m : (b+1)*m] {
				s += v
			}
			means[b] = s / float64(m)
		}
		_, v, _, _ := moments(means)
		lx = append(lx, math.Log(float64(m)))
		ly = append(ly, math.Log(v))
	}
	mx, my := 0.0, 0.0
	for i := range lx {
		mx += lx[i]
		my += ly[i]
	}
	mx /= float64(len(lx))
	my /= float64(len(ly))
	sxy, sxx := 0.0, 0.0
	for i := range lx {
		sxy += (lx[i] - mx) * (ly[i] - my)
		sxx += (lx[i] - mx) * (lx[i] - mx)
	}
	return 1 + sxy/sxx/2
}

// TestLRDHurst checks the fGn-copula intervals U_i = F⁻¹(Φ(Z_i)) with
// an aggregated-variance Hurst estimate (averaged over 8 paths of 2¹⁴
// intervals) on two sequences:
//   - the Gaussianised intervals Φ⁻¹(F(U_i)), which are the driving fGn if
//     the copula is right: within 0.08 of H. The estimator itself is biased
//     low for large H (Taqqu, Teverovsky & Willinger 1995): on FGN of this
//     length, measured over 32 paths, it gives 0.851 at H = 0.9 (per-path
//     sd 0.028, so the 8-path mean has sd ≈ 0.01) and 0.687 at H = 0.7;
//     0.08 = bias 0.05 + 3 sd;
//   - the intervals themselves: the exponential transform has Hermite rank
//     1, so H is preserved asymptotically, but its higher Hermite terms
//     dilute the estimate at finite n (32-path mean 0.833 at H = 0.9), so
//     the tolerance is 0.1, and 0.05 at H = ½ where there is no dependence.
//
// TestLRDIsCopulaOfFGN checks the construction itself exactly.
//
// The marginal must be the requested one. The KS bound of i.i.d. samples
// does not apply: the ECDF of a Gaussian-subordinated LRD sequence errs by
// about φ(z)·Z̄ where Z̄ ~ N(0, n^{2H−2}) is the mean of the fGn, so the
// bound is 4·φ(0)·n^{H−1} + 1.63/√n.
func TestLRDHurst(t *testing.T) {
	const n, paths = 1 << 14, 8
	for _, h := range []float64{0.5, 0.7, 0.9} {
		p := LRD{H: h, U: Exponential{Rate: 2}}
		sumU, sumZ := 0.0, 0.0
		for k := 0; k < paths; k++ {
			u := intervals(t, p, uint64(1000*h)+uint64(k), n)
			z := make([]float64, n)
			for i, x := range u {
				z[i] = normQuantile(p.U.CDF(x))
			}
			sumU += aggVarHurst(u)
			sumZ += aggVarHurst(z)
			bound := 4*0.3989*math.Pow(n, h-1) + 1.63/math.Sqrt(n)
			if ks := ksDistance(u, p.U.CDF); ks > bound {
				t.Errorf("lrd H=%g path %d: marginal KS %.4f > %.4f", h, k, ks, bound)
			}
		}
		hz, hu := sumZ/paths, sumU/paths
		if math.Abs(hz-h) > 0.08 {
			t.Errorf("lrd H=%g: Hurst of the Gaussianised intervals = %.3f", h, hz)
		}
		tol := 0.1
		if h == 0.5 {
			tol = 0.05
		}
		if math.Abs(hu-h) > tol {
			t.Errorf("lrd H=%g: Hurst of the intervals = %.3f (tolerance %g)", h, hu, tol)
		}
	}
}

// TestLRDIsCopulaOfFGN checks the construction against a naive reference:
// the intervals of lrd:H,(DIST) are F⁻¹(Φ(Z_i)) for Z = FGN(N, H) drawn
// from the same seeded stream, N being the block length AppendTimes
// chooses (1.25·window/E[U] + 64).
func TestLRDIsCopulaOfFGN(t *testing.T) {
	p := LRD{H: 0.75, U: Weibull{K: 0.7, Scale: 2}}
	end := 400 * p.Mean()
	ts, err := Times(p, NewRand(4, 4), 0, end)
	if err != nil {
		t.Fatal(err)
	}
	z, err := FGN(int(1.25*end/p.Mean()+64), 0.75, NewRand(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(ts); i++ {
		want := 2 * math.Pow(-math.Log(0.5*math.Erfc(z[i-1]/math.Sqrt2)), 1/0.7) // Weibull F⁻¹(Φ(z)) = ν(−ln Φ(−z))^{1/k}
		if got := ts[i] - ts[i-1]; math.Abs(got-want) > 1e-9*want+1e-12 {
			t.Fatalf("interval %d = %.12g, want %.12g", i-1, got, want)
		}
	}
}

// TestNHPPCounts checks that the NHPP's counts per window match the
// integral of its rate. 400 independent paths of 14 days with hourly
// unit, rate 3/h, trend +1, daily amplitude 0.8, weekly 0.5: the count in
// each 6-hour window, summed over paths, is Poisson with mean 400·Λ, so
// it must be within 4.5√(400Λ) (a Bonferroni-safe bound over 56 windows).
// Λ is computed here by the midpoint rule with 10⁴ steps per window,
// independently of NHPP.Integral, which is checked against it too.
func TestNHPPCounts(t *testing.T) {
	p, err := ParseProcess("nhpp:3,1,0.8,0.5", 3600)
	if err != nil {
		t.Fatal(err)
	}
	q := p.(NHPP)
	start := 438000.0 // hours since the epoch (a Saturday in 2019, 00:00 UTC)
	end := start + 14*24
	const paths, w = 400, 6.0
	nw := int((end - start) / w)
	counts := make([]int, nw)
	r := NewRand(5, 0)
	for k := 0; k < paths; k++ {
		ts, err := Times(q, r, start, end)
		if err != nil {
			t.Fatal(err)
		}
		if ts[0] != start {
			t.Fatalf("first time %g, want the creation at %g", ts[0], start)
		}
		for _, x := range ts[1:] {
			counts[int((x-start)/w)]++
		}
	}
	for i := range counts {
		a, b := start+float64(i)*w, start+float64(i+1)*w
		lam := 0.0
		const steps = 10000
		for j := 0; j < steps; j++ {
			x := a + (float64(j)+0.5)*(b-a)/steps
			day := 1 + 0.8*math.Cos(2*math.Pi*x/24)
			week := 1 + 0.5*math.Cos(2*math.Pi*x/168)
			lam += 3 * (1 + (x-start)/(end-start)) * day * week * (b - a) / steps
		}
		if got := q.Integral(a, b, start, end); math.Abs(got-lam) > 1e-6*lam {
			t.Errorf("window %d: Integral = %.8f, midpoint rule %.8f", i, got, lam)
		}
		want := paths * lam
		if math.Abs(float64(counts[i])-want) > 4.5*math.Sqrt(want) {
			t.Errorf("window %d [%g, %g): %d updates over %d paths, want %.1f ± %.1f", i, a, b, counts[i], paths, want, 4.5*math.Sqrt(want))
		}
	}
}

// TestOnOff checks the ON/OFF process: bursty (CoV of intervals > 1, far
// above the Poisson value, with heavy-tailed periods) and, with exponential
// ON and OFF periods, the long-run mean interval
// E[U] = (E[ON]+E[OFF])/(RATE·E[ON]) = (1+4)/(4·1) = 1.25 — checked via the
// count over 40 paths of length 5000 (expected count 4000 each), within 5
// standard errors of the mean count, the standard error taken from the
// spread of the 40 counts.
func TestOnOff(t *testing.T) {
	heavy, err := ParseProcess("onoff:5,(pareto:2.5,1.5),(pareto:1.5,20)", 3600)
	if err != nil {
		t.Fatal(err)
	}
	u := intervals(t, heavy, 9, 20000)
	mean, m2, _, _ := moments(u)
	if v := math.Sqrt(m2) / mean; v <= 1.5 {
		t.Errorf("%v: CoV = %.3f, want > 1.5 (bursts)", heavy, v)
	}
	p := OnOff{Rate: 4, On: Exponential{Rate: 1}, Off: Exponential{Rate: 0.25}}
	if m := p.Mean(); math.Abs(m-1.25) > 1e-12 {
		t.Fatalf("Mean = %g, want 1.25", m)
	}
	const paths, T = 40, 5000.0
	r := NewRand(10, 0)
	c := make([]float64, paths)
	for k := range c {
		ts, err := Times(p, r, 0, T)
		if err != nil {
			t.Fatal(err)
		}
		c[k] = float64(len(ts) - 1)
	}
	cm, cv, _, _ := moments(c)
	if se := math.Sqrt(cv / paths); math.Abs(cm-T/1.25) > 5*se {
		t.Errorf("mean count %.1f, want %.1f ± %.1f", cm, T/1.25, 5*se)
	}
}

func TestParseProcess(t *testing.T) {
	for _, s := range []string{"exp:2", "pareto:3,1", "mix:0.5*exp:1+0.5*pareto:3,1",
		"onoff:2,(pareto:1.5,1),(pareto:1.2,50)", "nhpp:0.5,1,0.8,0.3", "lrd:0.8,(exp:1)", "lrd:0.7,(mix:1*exp:1e+06+1*const:2)"} {
		p, err := ParseProcess(s, 3600)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if p.String() != s {
			t.Errorf("ParseProcess(%q).String() = %q", s, p.String())
		}
	}
	for _, s := range []string{"onoff:2,pareto:1.5,1,(exp:1)", "onoff:0,(exp:1),(exp:1)", "nhpp:1,-2", "nhpp:1,0,1.5",
		"nhpp:", "lrd:1,(exp:1)", "lrd:0.5,exp:1", "lrd:0.5,(exp:1", "bogus:1"} {
		if _, err := ParseProcess(s, 3600); err == nil {
			t.Errorf("ParseProcess(%q) accepted", s)
		}
	}
	if p, _ := ParseProcess("nhpp:1", units.Day); p.(NHPP).DayPeriod != 1 || p.Interval() != (Exponential{Rate: 1}) {
		t.Errorf("nhpp:1 with unit d: day period %g, want 1; F_U %v, want exp:1 (homogeneous)", p.(NHPP).DayPeriod, p.Interval())
	}
	if p, _ := ParseProcess("nhpp:1,0,0.5", 3600); p.Interval() != nil {
		t.Errorf("nhpp with a daily cycle has F_U %v, want none", p.Interval())
	}
}

// TestModelDraws checks per-page parameter draws: exp:{lognormal:-1,0.5}
// gives rates whose log has mean −1 and sd 0.5 (within 5 standard errors
// over 20,000 pages), and each drawn process prints its drawn rate.
func TestModelDraws(t *testing.T) {
	m, err := ParseModel("exp:{lognormal:-1,0.5}", 3600)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Drawn() {
		t.Fatal("Drawn() = false")
	}
	r := NewRand(3, 0)
	const n = 20000
	logs := make([]float64, n)
	for i := range logs {
		p, v, err := m.Draw(r)
		if err != nil {
			t.Fatal(err)
		}
		if len(v) != 1 || p.(Renewal).U.(Exponential).Rate != v[0] {
			t.Fatalf("draw %v gave %v", v, p)
		}
		logs[i] = math.Log(v[0])
	}
	mean, m2, _, _ := moments(logs)
	if math.Abs(mean+1) > 5*0.5/math.Sqrt(n) || math.Abs(math.Sqrt(m2)-0.5) > 5*0.5/math.Sqrt(2*n) {
		t.Errorf("log rate mean %.4f sd %.4f, want −1, 0.5", mean, math.Sqrt(m2))
	}
}

func TestModelErrors(t *testing.T) {
	for _, s := range []string{"exp:{lognormal:0", "exp:{bogus:1}", "exp:{exp:{exp:1}}", "exp:}1"} {
		if _, err := ParseModel(s, 3600); err == nil {
			t.Errorf("ParseModel(%q) accepted", s)
		}
	}
	m, err := ParseModel("uniform:{uniform:0,2},1.5", 3600)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRand(1, 0)
	sawErr := false
	for i := 0; i < 100 && !sawErr; i++ {
		if _, _, err := m.Draw(r); err != nil {
			sawErr = true
			if !strings.Contains(err.Error(), "uniform") {
				t.Errorf("error %q does not name the model", err)
			}
		}
	}
	if !sawErr {
		t.Error("drawing A > B for uniform:A,1.5 never failed in 100 draws (P(A ≥ 1.5) = 1/4)")
	}
}

// TestQuantile checks F(F⁻¹(p)) = p for every family, including the
// bisection used for mixtures.
func TestQuantile(t *testing.T) {
	for _, d := range []Dist{Exponential{Rate: 0.7}, Pareto{Alpha: 1.5, Beta: 2}, Weibull{K: 0.6, Scale: 2},
		Lognormal{Mu: 1, Sigma: 2}, Uniform{A: 1, B: 3},
		Mixture{Weights: []float64{1, 2}, Parts: []Dist{Exponential{Rate: 3}, Pareto{Alpha: 2, Beta: 5}}}} {
		for _, p := range []float64{1e-6, 0.01, 0.3, 0.5, 0.9, 0.999999} {
			if got := d.CDF(Quantile(d, p)); math.Abs(got-p) > 1e-9 {
				t.Errorf("%v: F(F⁻¹(%g)) = %.12g", d, p, got)
			}
		}
	}
	if q := Quantile(Constant{C: 2}, 0.3); q != 2 {
		t.Errorf("const quantile %g", q)
	}
}
