package model

import (
	"math"
	"testing"
)

// TestAgeCDFClosedForms checks every closed-form G against the definition
// G(x) = (1/E[U]) ∫_0^x (1 − F(t)) dt, integrated numerically (Simpson, 20k
// panels), and E[U] against ∫_0^∞ (1 − F).
func TestAgeCDFClosedForms(t *testing.T) {
	dists := []Dist{
		Exponential{Rate: 0.7},
		Pareto{Alpha: 3, Beta: 1},
		Pareto{Alpha: 1.5, Beta: 2},
		Weibull{K: 0.5, Scale: 2},
		Weibull{K: 2, Scale: 1},
		Lognormal{Mu: 0.2, Sigma: 0.9},
		Uniform{A: 0.5, B: 2},
		Uniform{A: 0, B: 2},
		Constant{C: 1.5},
		Mixture{Weights: []float64{1, 3}, Parts: []Dist{Exponential{Rate: 2}, Pareto{Alpha: 4, Beta: 3}}},
	}
	for _, d := range dists {
		for _, x := range []float64{0.1, 0.5, 1, 1.7, 3, 10} {
			got := d.AgeCDF(x)
			want := integrateSurvival(d, x) / d.Mean()
			if math.Abs(got-want) > 2e-4 {
				t.Errorf("%v: G(%g) = %.6f, numeric integral gives %.6f", d, x, got, want)
			}
		}
	}
}

func integrateSurvival(d Dist, x float64) float64 {
	const n = 20000
	h := x / n
	s := 0.0
	for i := 0; i <= n; i++ {
		w := 2.0
		if i == 0 || i == n {
			w = 1
		} else if i%2 == 1 {
			w = 4
		}
		t := float64(i) * h
		s += w * (1 - d.CDF(t))
	}
	return s * h / 3
}

// TestRandMatchesCDF compares sample means and the empirical CDF at a few
// points with the closed forms (n = 200k, tolerances ≈ 5 standard errors).
func TestRandMatchesCDF(t *testing.T) {
	r := NewRand(1, 0)
	for _, d := range []Dist{Exponential{Rate: 2}, Pareto{Alpha: 4, Beta: 3}, Weibull{K: 0.7, Scale: 1},
		Lognormal{Mu: 0, Sigma: 0.5}, Uniform{A: 1, B: 3}, Constant{C: 2},
		Mixture{Weights: []float64{1, 1}, Parts: []Dist{Exponential{Rate: 1}, Constant{C: 3}}}} {
		const n = 200000
		xs := []float64{0.2, 1, 2.5}
		cnt := make([]int, len(xs))
		for i := 0; i < n; i++ {
			v := d.Rand(r)
			for j, x := range xs {
				if v <= x {
					cnt[j]++
				}
			}
		}
		for j, x := range xs {
			got := float64(cnt[j]) / n
			if math.Abs(got-d.CDF(x)) > 0.006 {
				t.Errorf("%v: ECDF(%g) = %.4f, CDF = %.4f", d, x, got, d.CDF(x))
			}
		}
	}
}

func TestParseRoundTrip(t *testing.T) {
	for _, s := range []string{"exp:2", "pareto:3,1", "weibull:0.5,2", "lognormal:0,1", "uniform:0,2", "const:1", "mix:0.5*exp:1+0.5*pareto:3,1"} {
		d, err := Parse(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if d.String() != s {
			t.Errorf("Parse(%q).String() = %q", s, d.String())
		}
	}
	for _, s := range []string{"exp:0", "exp:-1", "pareto:3", "bogus:1", "uniform:2,1", "const:x", "mix:exp:1"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
}
