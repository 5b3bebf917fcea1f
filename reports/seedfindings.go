package reports

import (
	"fmt"

	"github.com/revisit-dev/revisit/internal/tables"
)

// Intervals over seeds in the findings (docs/methods.md#seeds): a mean
// error carries its 95% interval over the replay's R seeds, and a method
// beats another only where the 95% interval of their paired difference
// excludes 0; otherwise the two are indistinguishable. With one seed a
// sentence says there is no interval.

// rangeMean is analysis' second range of the errors, as its column names
// spell it.
const rangeMean = "x ≤ 10·E[U]"

// noInterval is what a sentence says of an error from one seed.
const noInterval = "no interval (one seed; --seeds R gives one)"

// seedsOf is R of row r (the "seeds" column), 0 when the table predates
// seeds.
func seedsOf(t *tables.Table, r []any) int64 {
	n, _ := cellInt(r, col(t, "seeds"))
	return n
}

// intervalText is " (95 % interval lo–hi over R seeds)", or with one
// seed " (no interval …)", or "" for a table without seeds.
func intervalText(seeds int64, lo, hi float64) string {
	switch {
	case seeds == 1:
		return " (" + noInterval + ")"
	case seeds > 1 && finite(lo) && finite(hi):
		return fmt.Sprintf(" (95%% interval %s to %s over %d seeds)", errPercent(lo), errPercent(hi), seeds)
	}
	return ""
}

// negligibleKS is the smallest difference of κ (a KS distance) the
// Findings call a win: 0.01 percentage points. Below it a difference the
// seeds resolve (M4 and M5 on constant delays differ by about 2·10⁻⁶,
// the same on every seed) is said to be of no practical consequence
// rather than "beats" (docs/methods.md#seeds).
const negligibleKS = 1e-4

// pairText says how the method compares with rival by the paired
// difference d = κ_method − κ_rival (mean, lo, hi over seeds): "beats",
// "is beaten by" or "indistinguishable from", with the interval; a
// difference the interval resolves but smaller than negligibleKS is said
// to be negligible (sign 0).
// ok is false when there is no paired interval (one seed, or no rival).
func pairText(method, rival string, d, lo, hi float64) (s string, sign int, ok bool) {
	if rival == "" || !finite(lo) || !finite(hi) {
		return "", 0, false
	}
	iv := fmt.Sprintf("paired difference of κ %s, 95%% interval %s to %s", errPercent(d), errPercent(lo), errPercent(hi))
	switch {
	case (hi < 0 || lo > 0) && max(-lo, hi) < negligibleKS:
		return fmt.Sprintf("%s and %s differ consistently but negligibly (%s: under 0.01 percentage points of κ)", method, rival, iv), 0, true
	case hi < 0:
		return fmt.Sprintf("%s beats %s (%s)", method, rival, iv), -1, true
	case lo > 0:
		return fmt.Sprintf("%s beats %s (%s)", rival, method, iv), 1, true
	}
	return fmt.Sprintf("%s is indistinguishable from %s (%s, which includes 0)", method, rival, iv), 0, true
}

// pairCells reads the comparison columns of one range (suffix "" or
// " (x ≤ 10·E[U])") of row r.
func pairCells(t *tables.Table, r []any, suffix string) (rival string, d, lo, hi float64) {
	return cellString(r, col(t, "compared with"+suffix)), cellFloat(r, col(t, "Δ KS"+suffix)),
		cellFloat(r, col(t, "Δ KS lo"+suffix)), cellFloat(r, col(t, "Δ KS hi"+suffix))
}
