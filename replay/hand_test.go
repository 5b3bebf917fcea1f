package replay

import (
	"github.com/revisit-dev/revisit/estimator"
	"math"
	"testing"
)

// byMethod indexes estimates by method and kind.
func byMethod(es []estimator.Estimate) map[string]estimator.Estimate {
	m := map[string]estimator.Estimate{}
	for _, e := range es {
		m[e.Method+"/"+e.Kind] = e
	}
	return m
}

func near(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol
}

func checkP(t *testing.T, name string, got, want []float64) {
	t.Helper()
	for i := range want {
		if i >= len(got) || !near(got[i], want[i], 1e-12) {
			t.Errorf("%s: P = %v, want %v", name, got, want)
			return
		}
	}
}

// The hand-worked page: updates at 0, 1, 4, 6 (U = {1, 3, 2}); a crawler
// with Δ = 1 and phase 0.5 visits at 0.5, 1.5, …, 5.5 (6 ≤ window end 6).
//
//	visit     0.5  1.5  2.5  3.5  4.5  5.5
//	age A     0.5  0.5  1.5  2.5  0.5  1.5
//	cycle     0    1    1    1    2    2
//	Q_{j−1,j} 1*   1    0    0    1    0      detections r = 0, 1, 4
//
// (*) the first visit detects the page's creation: the crawler's virtual
// previous visit −0.5 precedes the first update 0.
// Grid x_n = n for n = 0…3 (x_max = 3).
func TestHandWorked(t *testing.T) {
	s, err := estimator.ParseSampler("const:1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := estimator.Config{H: 0.5, XMax: 3, Recover: false}
	es, err := ReplayVisits([]float64{0, 1, 4, 6}, []float64{0.5, 1.5, 2.5, 3.5, 4.5, 5.5}, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := byMethod(es)
	// M2: ages {0.5,0.5,1.5,2.5,0.5,1.5}: ≤0: 0, ≤1: 3/6, ≤2: 5/6, ≤3: 1.
	checkP(t, "M2", m["M2/G"].CDF.P, []float64{0, 3. / 6, 5. / 6, 1})
	// M1 keeps A(s_j) where Q_{j,j+1} = 1: j=0 (0.5) and j=3 (2.5), of 5 pairs.
	checkP(t, "M1", m["M1/G"].CDF.P, []float64{0, 0.5, 0.5, 1})
	if m["M1/G"].CDF.Samples != 2 || m["M1/G"].Note != "kept 2 of 5 visits (p = 0.4)" {
		t.Errorf("M1 samples %d note %q", m["M1/G"].CDF.Samples, m["M1/G"].Note)
	}
	// M3: two samples, (1 − 0)Δ = 1 and (4 − 1)Δ = 3.
	checkP(t, "M3", m["M3/G"].CDF.P, []float64{0, 1. / 2, 1. / 2, 1})
	// M4 from the first visit: a = 1, 1, 2, 3, 1, 2 (= A⁺ of the ages: M2 on the grid).
	checkP(t, "M4", m["M4/G"].CDF.P, []float64{0, 3. / 6, 5. / 6, 1})
	// M5: samples {1, 3}: (min(n, 1) + min(n, 3))/4 = 2/4, 3/4, 4/4.
	checkP(t, "M5", m["M5/G"].CDF.P, []float64{0, 2. / 4, 3. / 4, 1})
	// G-M4 with constant Δ: s* = −0.5 for j = 0, 0.5 for j = 1…3, 3.5 for
	// j = 4, 5: samples 1, 1, 2, 3, 1, 2 (= M4).
	checkP(t, "G-M4", m["G-M4/G"].CDF.P, []float64{0, 3. / 6, 5. / 6, 1})
	// M6 with h = Δ = 1: lag 1: 5 pairs, same-cycle (1,2),(2,3),(4,5) → 2/5;
	// lag 2: 4 pairs, same-cycle (1,3) → 3/4; lag 3: 3 pairs, none same → 1.
	checkP(t, "M6", m["M6/G"].CDF.P, []float64{0, 2. / 5, 3. / 4, 1})
	if m["M6/G"].CDF.Samples != 5+4+3 { // pairs with lag ≤ 3
		t.Errorf("M6 pairs %d", m["M6/G"].CDF.Samples)
	}
	// Poisson: n = 5 pairs, X = 2, τ = 1.
	rates := map[string]float64{
		"naive":   2. / 5,                     // X/(nτ)
		"cho":     math.Log(5.5 / 3.5),        // −ln((5−2+0.5)/(5+0.5))
		"matloff": math.Log(5. / 3),           // −ln(1 − 2/5)
		"age-mle": 6. / (0.5*3 + 1.5*2 + 2.5), // m/ΣA = 6/7
	}
	for name, want := range rates {
		for _, kind := range []string{"F", "G"} {
			e := m[name+"/"+kind]
			if !near(e.Rate, want, 1e-12) {
				t.Errorf("%s rate %g, want %g", name, e.Rate, want)
			}
			if !near(e.CDF.P[2], 1-math.Exp(-2*want), 1e-12) {
				t.Errorf("%s/%s CDF(2) = %g", name, kind, e.CDF.P[2])
			}
		}
	}
	// Truth: G_U(1) = 3/6, G_U(2) = 5/6; F_U(1) = 1/3, F_U(2) = 2/3.
	checkP(t, "truth G", m["truth/G"].CDF.P, []float64{0, 3. / 6, 5. / 6, 1})
	checkP(t, "truth F", m["truth/F"].CDF.P, []float64{0, 1. / 3, 2. / 3, 1})
}
