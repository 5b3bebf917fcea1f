package reports

import (
	"math"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

// seedsRecommendation is a recommendation table as analysis writes it
// with seeds: one scenario, M4 recommended and of the lowest mean κ, its
// paired difference with the runner-up M5 given by d (mean, lo, hi) on
// the default range; on x ≤ 10·E[U] the lowest is low.
func seedsRecommendation(seeds int64, d [3]float64, low string) *tables.Bundle {
	str := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.String} }
	flt := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.Float} }
	num := func(n string) tables.Column { return tables.Column{Name: n, Kind: tables.Int} }
	mr := " (x ≤ 10·E[U])"
	cols := []tables.Column{str("scenario"), str("method"), str("sampler"), flt("mean WMRD"), flt("mean KS"), str("best method measured"), flt("its mean WMRD"),
		num("pages"), str("lowest KS allowed"), flt("its mean KS"), num("seeds"), flt("mean KS lo"), flt("mean KS hi"), flt("mean WMRD lo"), flt("mean WMRD hi"),
		str("compared with"), flt("Δ KS"), flt("Δ KS lo"), flt("Δ KS hi"),
		flt("mean KS" + mr), flt("mean KS lo" + mr), flt("mean KS hi" + mr), str("lowest KS allowed" + mr), flt("its mean KS" + mr),
		str("compared with" + mr), flt("Δ KS" + mr), flt("Δ KS lo" + mr), flt("Δ KS hi" + mr)}
	lo, hi := 0.011, 0.013
	if seeds == 1 {
		lo, hi = math.NaN(), math.NaN()
	}
	lowKS, rival, dm := 0.0010, low, [3]float64{0.0002, 0.0001, 0.0003}
	if low == "M4" {
		lowKS, rival, dm = 0.0012, "M5", [3]float64{-0.0002, -0.0003, 0.0001}
	}
	row := []any{"constant S, new measurement", "M4", "const:0.05x", 0.002, 0.012, "M4", 0.002, int64(1), "M4", 0.012, seeds, lo, hi, lo / 6, hi / 6,
		"M5", d[0], d[1], d[2],
		0.0012, lo / 10, hi / 10, low, lowKS, rival, dm[0], dm[1], dm[2]}
	return &tables.Bundle{Tables: []tables.Table{{ID: "recommendation", Columns: cols, Rows: [][]any{row}}}}
}

// The Findings say "indistinguishable" when the paired interval includes
// 0, "beats" when it excludes it, "no interval" with one seed, and that
// the ranking flips when the second range has another lowest method.
func TestFindingsIntervals(t *testing.T) {
	one := func(b *tables.Bundle) string {
		h := Headline(b)
		if len(h) != 1 {
			t.Fatalf("Headline = %q, want one sentence", h)
		}
		return h[0]
	}
	s := one(seedsRecommendation(10, [3]float64{-0.001, -0.003, 0.001}, "M4"))
	for _, w := range []string{"mean KS κ = 1.2% (95% interval 1.1% to 1.3% over 10 seeds)", "M4 is indistinguishable from M5 (paired difference of κ −0.10%, 95% interval −0.30% to 0.10%, which includes 0)", "which includes 0"} {
		if !strings.Contains(s, w) {
			t.Errorf("overlapping intervals: %q lacks %q", s, w)
		}
	}
	if strings.Contains(s, "beats") || strings.Contains(s, "flips") || !strings.Contains(s, "on x ≤ 10·E[U]: mean KS κ = 0.12% (95% interval 0.11% to 0.13% over 10 seeds): M4 is indistinguishable from M5") {
		t.Errorf("overlapping intervals, same lowest: %q claims a ranking", s)
	}
	s = one(seedsRecommendation(10, [3]float64{-0.002, -0.003, -0.001}, "M4"))
	if !strings.Contains(s, "allows: M4 beats M5 (paired difference of κ −0.20%, 95% interval −0.30% to −0.10%)") {
		t.Errorf("separated intervals: %q", s)
	}
	// M4 and M5 on constant delays: resolved by the seeds, far below any
	// difference worth a claim (Anarchism: 1.9·10⁻⁶ on every seed).
	s = one(seedsRecommendation(10, [3]float64{-1.9e-6, -2.0e-6, -1.8e-6}, "M4"))
	if strings.Contains(s, "beats") || !strings.Contains(s, "M4 and M5 differ consistently but negligibly") {
		t.Errorf("negligible difference: %q", s)
	}
	s = one(seedsRecommendation(1, [3]float64{-0.002, math.NaN(), math.NaN()}, "M4"))
	if !strings.Contains(s, "mean KS κ = 1.2% (no interval (one seed; --seeds R gives one))") || strings.Contains(s, "beats") || strings.Contains(s, "indistinguishable") {
		t.Errorf("one seed: %q", s)
	}
	s = one(seedsRecommendation(10, [3]float64{-0.002, -0.003, -0.001}, "M5"))
	if !strings.Contains(s, "the ranking by κ flips: on this range M5's is the lowest (0.10%), on the default range M4's") || !strings.Contains(s, "M5 beats M4") {
		t.Errorf("flip: %q", s)
	}
}
