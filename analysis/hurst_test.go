package analysis

import (
	"flag"
	"math"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/model"
)

var hurstReps = flag.Int("hurst.reps", 2, "FGN replicates per H in TestHurstOnFGN (use 20+ for bias and spread)")

// TestHurstOnFGN validates every Hurst estimator on exact fractional
// Gaussian noise (model.FGN, Davies–Harte) of known H = 0.5, 0.7, 0.9 at
// n = 2¹⁶. It logs each estimator's bias and spread over the replicates
// (more with -hurst.reps=20) and requires the estimators the report relies
// on (ReliedHurst) to be within ±0.05 of H on every replicate.
func TestHurstOnFGN(t *testing.T) {
	const n = 1 << 16
	for _, h := range []float64{0.5, 0.7, 0.9} {
		r := model.NewRand(2026, uint64(h*100))
		est := map[string][]float64{}
		var order []string
		for rep := 0; rep < *hurstReps; rep++ {
			x, err := model.FGN(n, h, r)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range Hurst(x, 100) {
				if _, ok := est[e.Method]; !ok {
					order = append(order, e.Method)
				}
				est[e.Method] = append(est[e.Method], e.H)
				if slices.Contains(ReliedHurst, e.Method) && math.Abs(e.H-h) > 0.05 {
					t.Errorf("H=%.1f rep %d: %s = %.3f (SE %.3f), more than 0.05 off", h, rep, e.Method, e.H, e.SE)
				}
			}
		}
		for _, m := range order {
			v := est[m]
			mean := sum(v) / float64(len(v))
			sd := 0.0
			for _, e := range v {
				sd += (e - mean) * (e - mean)
			}
			if len(v) > 1 {
				sd = math.Sqrt(sd / float64(len(v)-1))
			}
			t.Logf("FGN H=%.1f n=2^16 reps=%d  %-22s bias %+.4f  sd %.4f", h, len(v), m, mean-h, sd)
		}
	}
}

// TestHurstIID: i.i.d. exponential intervals (the Poisson process) have
// H = ½; the relied-on estimators find it within ±0.05 on n = 2¹⁴ draws,
// showing they do not need Gaussian data.
func TestHurstIID(t *testing.T) {
	x := draw(model.Exponential{Rate: 1}, 1<<14, 5)
	for _, e := range Hurst(x, 100) {
		if slices.Contains(ReliedHurst, e.Method) && math.Abs(e.H-0.5) > 0.05 {
			t.Errorf("%s = %.3f on i.i.d. exponential data, want 0.5 ± 0.05", e.Method, e.H)
		}
	}
}

// TestACFDirectVsFFT checks the FFT route of ACF against the direct sums
// on the same series, and ρ on a hand-worked example:
// x = 1, 2, 3, 4: x̄ = 2.5, d = −1.5, −0.5, 0.5, 1.5, Σd² = 5;
// lag 1: (0.75 − 0.25 + 0.75)/5 = 0.25; lag 2: (−0.75 − 0.75)/5 = −0.3;
// lag 3: −2.25/5 = −0.45.
func TestACFDirectVsFFT(t *testing.T) {
	got := ACF([]float64{1, 2, 3, 4}, 5)
	want := []float64{1, 0.25, -0.3, -0.45}
	if len(got) != 4 {
		t.Fatalf("len %d, want 4 (maxLag capped at n−1)", len(got))
	}
	for k := range want {
		if math.Abs(got[k]-want[k]) > 1e-12 {
			t.Errorf("ρ(%d) = %g, want %g", k, got[k], want[k])
		}
	}
	x, _ := model.FGN(5000, 0.8, model.NewRand(1, 2))
	mean := sum(x) / float64(len(x))
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - mean
	}
	fft := autocovFFT(x, mean, 300)
	for k := 0; k <= 300; k++ {
		s := 0.0
		for i := 0; i+k < len(d); i++ {
			s += d[i] * d[i+k]
		}
		if math.Abs(fft[k]-s) > 1e-8*math.Abs(fft[0]) {
			t.Fatalf("lag %d: FFT %g, direct %g", k, fft[k], s)
		}
	}
	if r := ACF([]float64{3, 3, 3}, 2); !math.IsNaN(r[1]) {
		t.Errorf("constant series: ρ(1) = %g, want NaN", r[1])
	}
}

// TestPowerLawFit recovers c and γ from an exact power law ρ(k) = 0.4 k^{−0.6}
// (H = 1 − 0.3 = 0.7), ignoring negative lags.
func TestPowerLawFit(t *testing.T) {
	rho := make([]float64, 101)
	rho[0] = 1
	for k := 1; k <= 100; k++ {
		rho[k] = 0.4 * math.Pow(float64(k), -0.6)
	}
	rho[50] = -0.1 // left out
	pl := FitACFPowerLaw(rho)
	if math.Abs(pl.C-0.4) > 1e-9 || math.Abs(pl.Gamma-0.6) > 1e-9 || math.Abs(pl.H-0.7) > 1e-9 || pl.Lags != 99 {
		t.Errorf("fit %+v, want c = 0.4, γ = 0.6, H = 0.7 on 99 lags", pl)
	}
	if pl := FitACFPowerLaw([]float64{1, -0.1, 0.2}); !math.IsNaN(pl.H) {
		t.Errorf("too few positive lags: H = %g, want NaN", pl.H)
	}
}

// TestLjungBox: with ρ(1) = 0.1, ρ(2) = 0.05, n = 100, h = 2:
// Q = 100·102·(0.01/99 + 0.0025/98) = 10200·(1.0101e-4 + 2.551e-5) = 1.3905;
// the χ²₂ survival is e^{−Q/2} = 0.4990.
func TestLjungBox(t *testing.T) {
	q, p := LjungBox([]float64{1, 0.1, 0.05}, 100, 2)
	wantQ := 10200 * (0.01/99 + 0.0025/98)
	if math.Abs(q-wantQ) > 1e-9 || math.Abs(p-math.Exp(-wantQ/2)) > 1e-9 {
		t.Errorf("Q = %g, p = %g; want %g, %g", q, p, wantQ, math.Exp(-wantQ/2))
	}
}

// TestHurstWithSharedWork: Check's Hurst estimates (hurstWith: the
// page's ACF and one periodogram shared by GPH and local Whittle) are
// bit for bit those of the estimators called one by one.
func TestHurstWithSharedWork(t *testing.T) {
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	for i, x := range [][]float64{
		draw(model.Exponential{Rate: 1}, MinHurstLen, 1),
		draw(model.Pareto{Alpha: 1.5, Beta: 1}, 1001, 2), // not 5-smooth: the periodogram truncates
		draw(model.Weibull{K: 0.5, Scale: 3}, 5000, 3),
	} {
		pl := FitACFPowerLaw(ACF(x, 50))
		want := []HurstEstimate{estimate(HurstACF, pl.H, pl.SE, pl.Lags),
			RescaledRange(x), AggregatedVariance(x), DFA(x), GPH(x), LocalWhittle(x)}
		got := hurstWith(x, ACF(x, 50))
		for k := range want {
			g, w := got[k], want[k]
			if g.Method != w.Method || !same(g.H, w.H) || !same(g.SE, w.SE) || !same(g.Raw, w.Raw) || g.Points != w.Points || g.Note != w.Note {
				t.Errorf("series %d, %s: %+v, one by one %+v", i, w.Method, g, w)
			}
		}
	}
}

// maximizeConcave1D must return what maximize1D returns, bit for bit, on
// local Whittle's objective (the one it serves) — FGN of H from 0.05 to
// 0.99, exponential and Pareto intervals, a random walk (the maximum at
// the upper end of d), differenced noise (at the lower end) and the
// shortest series with a bandwidth of 3 — while evaluating fewer points.
func TestMaximizeConcaveLocalWhittle(t *testing.T) {
	var series [][]float64
	for i, h := range []float64{0.05, 0.3, 0.5, 0.7, 0.9, 0.99} {
		for _, n := range []int{128, 500, 3000} {
			x, _ := model.FGN(n, h, model.NewRand(uint64(i), uint64(n)))
			series = append(series, x)
		}
	}
	for _, n := range []int{128, 1000, 20000} {
		series = append(series, draw(model.Exponential{Rate: 1}, n, uint64(n)), draw(model.Pareto{Alpha: 1.2, Beta: 1}, n, uint64(n+1)))
		w := draw(model.Exponential{Rate: 1}, n, uint64(n+2))
		walk, diff := make([]float64, n), make([]float64, n-1)
		for j := 1; j < n; j++ {
			walk[j] = walk[j-1] + w[j] - 1
			diff[j-1] = w[j] - w[j-1]
		}
		series = append(series, walk, diff)
	}
	series = append(series, []float64{1, 5, 2, 8, 3, 9, 4, 7, 1, 6, 2, 8, 5, 3, 9})
	boundary, evalsScan, evalsFast := 0, 0, 0
	for i, x := range series {
		lam, per := periodogram(x)
		m := bandwidth(len(x), len(lam))
		if m < 3 {
			t.Fatalf("series %d: bandwidth %d", i, m)
		}
		f, e := whittleObjective(lam[:m], per[:m])
		count := func(n *int) func(float64) float64 {
			return func(d float64) float64 { *n++; return f(d) }
		}
		x0, f0, b0 := maximize1D(count(&evalsScan), -0.49, 0.99, 148)
		x1, f1, b1 := maximizeConcave1D(count(&evalsFast), -0.49, 0.99, 148, e)
		if math.Float64bits(x0) != math.Float64bits(x1) || math.Float64bits(f0) != math.Float64bits(f1) || b0 != b1 {
			t.Fatalf("series %d (n %d): scan (%v, %v, %v), concave (%v, %v, %v)", i, len(x), x0, f0, b0, x1, f1, b1)
		}
		if b0 {
			boundary++
		}
	}
	if boundary < 2 {
		t.Errorf("%d maxima at an end of the range; the walk and the differenced noise should give two or more", boundary)
	}
	if evalsFast*2 > evalsScan {
		t.Errorf("%d evaluations with the shortcut, %d scanning the grid", evalsFast, evalsScan)
	}
	t.Logf("%d series, %d at an end; %d evaluations with the shortcut, %d scanning", len(series), boundary, evalsFast, evalsScan)
}

// concaveGridBest against scanGrid on concave functions with ties: a
// constant (every point ties: the first), a maximum exactly between two
// grid points (the left one), and maxima at either end.
func TestConcaveGridBestTies(t *testing.T) {
	fs := map[string]func(float64) float64{
		"constant": func(float64) float64 { return 2 },
		"between":  func(x float64) float64 { return -math.Abs(x - 0.5) },   // grid 0, 0.25, …: 0.5 is a point
		"tie":      func(x float64) float64 { return -math.Abs(x - 0.625) }, // between 0.5 and 0.75
		"left":     func(x float64) float64 { return -x },
		"right":    func(x float64) float64 { return x*x*-1 + 4*x },
	}
	for name, f := range fs {
		for _, steps := range []int{2, 3, 4, 8, 148} {
			wantI, wantF := scanGrid(f, 0, 1, steps)
			gotI, gotF, ok := concaveGridBest(f, 0, 1, steps, 0)
			if !ok || gotI != wantI || math.Float64bits(gotF) != math.Float64bits(wantF) {
				t.Errorf("%s, %d steps: (%d, %v, ok %v), scan (%d, %v)", name, steps, gotI, gotF, ok, wantI, wantF)
			}
		}
	}
	if _, _, ok := concaveGridBest(func(float64) float64 { return math.NaN() }, 0, 1, 10, 0); ok {
		t.Error("NaN values: want ok false (the caller scans)")
	}
}
