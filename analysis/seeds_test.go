package analysis

import (
	"math"
	"testing"
)

// The t-interval against a hand computation: 1, 2, 3, 4, 5 have mean 3,
// s = √2.5, t_{0.975,4} = 2.776445 (tables), half-width 2.776445·√2.5/√5.
func TestTIntervalHand(t *testing.T) {
	iv := TInterval([]float64{1, 2, 3, 4, 5, math.NaN()})
	half := 2.7764451051977987 * math.Sqrt(2.5) / math.Sqrt(5)
	if iv.N != 5 || iv.Mean != 3 || math.Abs(iv.Lo-(3-half)) > 1e-9 || math.Abs(iv.Hi-(3+half)) > 1e-9 {
		t.Fatalf("TInterval = %+v, want 3 ± %.9f on 5 values", iv, half)
	}
	// two values 0.1, 0.3: mean 0.2, s = 0.141421, t_{0.975,1} = 12.706205
	iv = TInterval([]float64{0.1, 0.3})
	half = 12.706204736174694 * math.Sqrt(0.02) / math.Sqrt(2)
	if math.Abs(iv.Mean-0.2) > 1e-15 || math.Abs(iv.Hi-iv.Mean-half) > 1e-9 {
		t.Fatalf("TInterval(0.1, 0.3) = %+v, want 0.2 ± %g", iv, half)
	}
	// one value: no interval
	if iv := TInterval([]float64{0.4}); iv.Mean != 0.4 || !math.IsNaN(iv.Lo) || !math.IsNaN(iv.Hi) || iv.Separated() != 0 {
		t.Fatalf("TInterval(one value) = %+v", iv)
	}
}

// Paired differences on constructed numbers: a is below b by 0.01 ± a
// little on every seed, though both vary over seeds by far more than
// 0.01 (their own intervals overlap): the paired interval separates. With
// differences of both signs it does not.
func TestPairedDiff(t *testing.T) {
	a := []float64{0.10, 0.30, 0.20, 0.50, 0.40}
	b := []float64{0.111, 0.309, 0.212, 0.508, 0.41}
	d := PairedDiff(a, b)
	// hand: D = −0.011, −0.009, −0.012, −0.008, −0.010; mean −0.01,
	// s = √(0.00001/4) = 0.0015811; half = 2.776445·0.0015811/√5
	half := 2.7764451051977987 * math.Sqrt(0.00001/4) / math.Sqrt(5)
	if math.Abs(d.Mean+0.01) > 1e-12 || math.Abs(d.Hi-d.Mean-half) > 1e-9 || d.Separated() != -1 {
		t.Fatalf("PairedDiff = %+v, want −0.01 ± %g, separated below 0", d, half)
	}
	if ia, ib := TInterval(a), TInterval(b); !(ia.Hi > ib.Lo) {
		t.Fatalf("the constructed per-method intervals should overlap: %+v %+v", ia, ib)
	}
	d = PairedDiff([]float64{0.1, 0.2, 0.3}, []float64{0.11, 0.19, 0.3})
	if d.Separated() != 0 {
		t.Fatalf("PairedDiff of ±0.01 = %+v, want indistinguishable", d)
	}
	// a seed undefined for one method is left out of the pairs
	d = PairedDiff([]float64{0.1, math.NaN(), 0.3}, []float64{0.2, 0.2, 0.5})
	if d.N != 2 || math.Abs(d.Mean+0.15) > 1e-12 {
		t.Fatalf("PairedDiff with a NaN seed = %+v, want mean −0.15 on 2 seeds", d)
	}
}
