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
	fft := autocovFFT(d, 300)
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
