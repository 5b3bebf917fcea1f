package schedule

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/analysis/staleness"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/policy/traces"
	"github.com/revisit-dev/revisit/transform"
)

// On every page of 1,000 real enwiki articles, φ computed from the page's
// exact G_U (TrueCurve) is 1 − the staleness analysis/staleness measures
// on the series, at revisit intervals from an hour to a month.
func TestRealFreshnessAgreesWithStaleness(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 real pages")
	}
	pages, err := traces.Kevin(realdata.Path(t, traces.Kevinisagirl))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i := range pages {
		p := &pages[i]
		x, g, _, note := TrueCurve(p.Updates, 3600)
		if note != "" {
			continue
		}
		u := transform.Intervals(p.Updates, 3600)
		for _, delta := range []float64{1, 24, 24 * 7, 24 * 30} {
			want := 1 - staleness.PhaseAveraged(u, delta)
			if got := Freshness(x, g, delta); math.Abs(got-want) > 1e-9 {
				t.Errorf("page %d %q Δ=%g h: φ %.12f, 1 − staleness %.12f", p.ID, p.Title, delta, got, want)
			}
		}
		checked++
	}
	if checked < 900 {
		t.Errorf("only %d pages with intervals", checked)
	}
}
