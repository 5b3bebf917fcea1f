package schedule

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// The paired differences and the verdict on rows made by hand: gu is a
// point above uniform on every page at both origins (the interval over
// the pages is that point exactly: decided), cho-gm differs from gu by
// noise of mean 0 (its interval holds 0: undecided), lambdacrawl is ahead
// at the first origin but behind at the second (not decided either); the
// bootstrap interval of a noisy difference holds its mean and has about
// the width 2·1.96·sd/√n of the normal approximation.
func TestVerdict(t *testing.T) {
	const n = 400
	r := rand.New(rand.NewPCG(2, 2))
	mk := func(name string, f func(i, k int) float64) ValidationRow {
		row := ValidationRow{Plan: name}
		for k := range 2 {
			pg := make([]float64, n)
			for i := range pg {
				pg[i] = f(i, k)
			}
			row.page = append(row.page, pg)
		}
		row.Mean = weightedMean(row.page[0], nil)
		return row
	}
	base := make([]float64, n)
	noise := make([]float64, n)
	for i := range base {
		base[i] = 0.5 + 0.3*r.Float64()
		noise[i] = 0.02 * r.NormFloat64()
	}
	v := &Validation{Pages: n, Origins: []int64{0, 1}, Opt: ValidateOptions{Seeds: []uint64{1}, Boot: 4000}}
	v.Rows = []ValidationRow{
		mk(PlanGU, func(i, k int) float64 { return base[i] + 0.01 }),
		mk(PlanUniform, func(i, k int) float64 { return base[i] }),
		mk(PlanChoGM, func(i, k int) float64 { return base[i] + 0.01 + noise[i] }),
		mk(PlanLambda, func(i, k int) float64 { return base[i] + 0.012 - 0.004*float64(k) }),
		mk(PlanOracle, func(i, k int) float64 { return base[i] + 0.03 }),
	}
	v.pairs(nil)
	byB := map[string]Pair{}
	for _, p := range v.Pairs {
		byB[p.B] = p
	}
	if p := byB[PlanUniform]; math.Abs(p.Diff-0.01) > 1e-12 || math.Abs(p.Lo-0.01) > 1e-12 || math.Abs(p.Hi-0.01) > 1e-12 || p.Ahead != 2 || !p.decided() {
		t.Errorf("gu − uniform: %+v", p)
	}
	p := byB[PlanChoGM]
	mean, sd := 0.0, 0.0
	for _, x := range noise {
		mean += x / n
	}
	for _, x := range noise {
		sd += (x - mean) * (x - mean) / (n - 1)
	}
	half := 1.96 * math.Sqrt(sd/n)
	if math.Abs(p.Diff+mean) > 1e-12 || !(p.Lo < -mean && -mean < p.Hi) || math.Abs((p.Hi-p.Lo)/2-half) > 0.15*half || p.decided() {
		t.Errorf("gu − cho-gm: %+v; want the mean %.5f inside, half-width near %.5f", p, -mean, half)
	}
	if p := byB[PlanLambda]; p.Ahead != 1 || p.decided() {
		t.Errorf("gu − lambdacrawl: %+v", p)
	}
	for _, want := range []string{"lambdacrawl wins on these 400 pages", "ahead of uniform by +1.20 points", "Undecided against gu by +0.20 points", "The oracle is +1.80 points above it."} {
		if !strings.Contains(v.Verdict, want) {
			t.Errorf("verdict %q does not say %q", v.Verdict, want)
		}
	}
}
