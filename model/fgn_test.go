package model

import (
	"math"
	"testing"
)

// TestFGNAutocovariance checks that FGN's sample autocovariance matches the
// closed form γ(k) = ½(|k+1|^{2H} − 2|k|^{2H} + |k−1|^{2H}). The mean is
// known to be 0, so γ̂(k) = (1/(n−k)) Σ_t X_t X_{t+k} is unbiased; it is
// averaged over independent replicates and compared with a tolerance of
// 4 standard errors measured across those replicates (plus 1e-3 for
// rounding). The standard error itself must be small, so the test has
// power: a generator off by 0.05 in γ(1) fails.
func TestFGNAutocovariance(t *testing.T) {
	const n, reps = 512, 1000
	for _, h := range []float64{0.2, 0.5, 0.7, 0.9} {
		r := NewRand(7, uint64(h*1000))
		lags := []int{0, 1, 2, 5, 10, 50}
		sum := make([]float64, len(lags))
		sum2 := make([]float64, len(lags))
		for rep := 0; rep < reps; rep++ {
			x, err := FGN(n, h, r)
			if err != nil {
				t.Fatal(err)
			}
			if len(x) != n {
				t.Fatalf("len = %d, want %d", len(x), n)
			}
			for i, k := range lags {
				s := 0.0
				for j := 0; j+k < n; j++ {
					s += x[j] * x[j+k]
				}
				g := s / float64(n-k)
				sum[i] += g
				sum2[i] += g * g
			}
		}
		for i, k := range lags {
			mean := sum[i] / reps
			sd := math.Sqrt(math.Max(sum2[i]/reps-mean*mean, 0))
			se := sd / math.Sqrt(reps)
			want := FGNAutocov(k, h)
			if se > 0.015 {
				t.Errorf("H=%g lag %d: standard error %.4f too large for a useful test", h, k, se)
			}
			if math.Abs(mean-want) > 4*se+1e-3 {
				t.Errorf("H=%g: γ̂(%d) = %.4f ± %.4f, closed form γ(%d) = %.4f", h, k, mean, se, k, want)
			}
		}
	}
}

// TestFGNAutocovClosedForm checks FGNAutocov by hand: H = ½ is white noise;
// H = 1 would make γ(k) = ½((k+1)² − 2k² + (k−1)²) = 1 for all k, and for
// H = 0.75, γ(1) = ½(2^{1.5} − 2) = 0.41421356.
func TestFGNAutocovClosedForm(t *testing.T) {
	cases := []struct {
		k    int
		h    float64
		want float64
	}{
		{0, 0.3, 1},
		{1, 0.5, 0},
		{7, 0.5, 0},
		{1, 0.75, 0.5 * (math.Pow(2, 1.5) - 2)}, // = 0.41421356 by hand
		{-1, 0.75, 0.5 * (math.Pow(2, 1.5) - 2)},
		{3, 0.999999, 1}, // H → 1: ½(16 − 18 + 4) = 1
	}
	for _, c := range cases {
		if got := FGNAutocov(c.k, c.h); math.Abs(got-c.want) > 1e-5 {
			t.Errorf("γ(%d; H=%g) = %.8f, want %.8f", c.k, c.h, got, c.want)
		}
	}
}

func TestFGNErrors(t *testing.T) {
	r := NewRand(1, 1)
	for _, h := range []float64{0, 1, -0.2, 1.5, math.NaN()} {
		if _, err := FGN(10, h, r); err == nil {
			t.Errorf("H = %g: no error", h)
		}
	}
	if _, err := FGN(0, 0.5, r); err == nil {
		t.Error("n = 0: no error")
	}
	if _, err := FGN(5, 0.5, nil); err == nil {
		t.Error("nil rand: no error")
	}
}

// TestFGNSeeded checks reproducibility: the same seed gives the same path,
// and n not a power of two works.
func TestFGNSeeded(t *testing.T) {
	a, err := FGN(1000, 0.8, NewRand(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := FGN(1000, 0.8, NewRand(3, 4))
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed differs at %d", i)
		}
	}
}
