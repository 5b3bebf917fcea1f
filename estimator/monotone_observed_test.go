package estimator

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/ingest/visits"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/transform"
)

// clustered is an archive's way of capturing a URL: bursts of 2 to 6
// captures seconds to minutes apart, the bursts days to months apart, the
// page changing between bursts with probability 0.4 (seeded).
func clustered(seed uint64, bursts int) *visits.Observed {
	r := rand.New(rand.NewPCG(seed, 9))
	o := &visits.Observed{ID: "clustered"}
	t := int64(1_300_000_000)
	for b := range bursts {
		changed := b > 0 && r.Float64() < 0.4
		for k := range 2 + r.IntN(5) {
			o.Visits = append(o.Visits, visits.Visit{T: t, Changed: changed && k == 0})
			t += 1 + r.Int64N(600)
		}
		t += int64(units.Day * (1 + r.ExpFloat64()*60))
	}
	return o
}

// decreasing counts the steps down of p (NaN ignored).
func decreasing(p []float64) (n int, largest float64) {
	for i := 1; i < len(p); i++ {
		if d := p[i-1] - p[i]; d > 0 {
			n++
			largest = max(largest, d)
		}
	}
	return n, largest
}

// On clustered captures M6 (a ratio per bin) goes down as well as up;
// every projected row is a distribution function — non-decreasing, in
// [0, 1] — F_U included, while the raw rows are left as they were.
func TestMonotoneClusteredCaptures(t *testing.T) {
	o := clustered(1, 80)
	est, info, err := EstimateObserved(context.Background(), o, ObservedConfig{Config: Config{Recover: true}, Unit: transform.Day})
	if err != nil {
		t.Fatal(err)
	}
	if info.Constant || info.Detections < 10 {
		t.Fatalf("the log is not what the test needs: constant %v, %d detections", info.Constant, info.Detections)
	}
	raw := make([][]float64, len(est))
	for i := range est {
		raw[i] = slices.Clone(est[i].CDF.P)
	}
	m6 := findEst(est, MethodM6, KindG)
	if n, _ := decreasing(m6.CDF.P); n == 0 || len(m6.Evidence) != len(m6.CDF.P) {
		t.Fatalf("raw M6 has %d decreasing steps and %d weights for %d bins: the test needs a non-monotone estimate with its evidence", n, len(m6.Evidence), len(m6.CDF.P))
	}
	proj := Monotone(est, RecoverOptions{}, "d")
	// An F_U recovered from M2, M4, M5 or M6 states its mean with the
	// unit (days here): E[U] = 1/rate, the rate the row holds.
	checked := 0
	for _, rows := range [][]Estimate{est, proj} {
		for _, e := range rows {
			recovered := slices.Contains([]string{MethodM2, MethodM4, MethodM5, MethodM6}, e.Method)
			if recovered && e.Kind == KindF && e.Rate > 0 && !math.IsInf(e.Rate, 0) {
				if want := fmt.Sprintf("E[U] = %.6g d", 1/e.Rate); e.Note != want {
					t.Errorf("%s F: note %q, want %q", e.Method, e.Note, want)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Error("no recovered F_U to check the note of")
	}
	for i, e := range proj {
		if !slices.Equal(est[i].CDF.P, raw[i]) && !(allNaN(raw[i])) {
			t.Errorf("%s %s: Monotone changed the raw row", e.Method, e.Kind)
		}
		if allNaN(e.CDF.P) {
			continue
		}
		if n, d := decreasing(e.CDF.P); n > 0 {
			t.Errorf("%s %s: %d decreasing steps (largest %g) after the projection", e.Method, e.Kind, n, d)
		}
		for _, p := range e.CDF.P {
			if !(p >= 0 && p <= 1) {
				t.Errorf("%s %s: value %g outside [0, 1]", e.Method, e.Kind, p)
				break
			}
		}
	}
	// M6's projection is the weighted fit of the raw values with weights
	// W(y_n), not an equal-weight one.
	g := findEst(proj, MethodM6, KindG)
	w := make([]float64, len(m6.Evidence))
	for i, v := range m6.Evidence {
		w[i] = float64(v)
	}
	want := Isotonic(m6.CDF.P, w)
	for i := range want {
		want[i] = min(1, max(0, want[i]))
	}
	if !closeAll(g.CDF.P, want, 1e-12) {
		t.Errorf("M6 projected %v, want the weighted fit %v", g.CDF.P, want)
	}
	// F_U is recovered from the projection (at the bin midpoints, M6's
	// bins hold means): as RecoverF on it directly, then projected.
	f := findEst(proj, MethodM6, KindF)
	rec, err := recoverMidpoints(g.CDF, RecoverOptions{})
	if err != nil {
		if !allNaN(f.CDF.P) {
			t.Errorf("recovery from the projection fails (%v) but F_U is %v", err, f.CDF.P)
		}
		return
	}
	if wantF := MonotoneCDF(rec.F, nil).P; !closeAll(f.CDF.P, wantF, 1e-12) || math.Abs(f.Rate-1/rec.MeanU) > 1e-12 {
		t.Errorf("F_U from the projection %v (rate %g), want %v (rate %g)", f.CDF.P, f.Rate, wantF, 1/rec.MeanU)
	}
}

func allNaN(p []float64) bool {
	for _, v := range p {
		if !math.IsNaN(v) {
			return false
		}
	}
	return true
}

func findEst(est []Estimate, method, kind string) *Estimate {
	for i := range est {
		if est[i].Method == method && est[i].Kind == kind {
			return &est[i]
		}
	}
	return nil
}
