package analysis

import (
	"math"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

// The power-law fit of acf_closest is drawn only over the lags it was
// fitted on (the positive ρ(k), from the first to the last) and only
// where it is a correlation: c·k^{−γ} with c = 3, γ = 1/2 starts at the
// crossing k = c^{1/γ} = 9, not at ρ = 3. Its name says H once: an H
// outside [0, 1] is named by its note ("H = 1.01 outside …"), not as
// "H: H = 1.01".
func TestACFFitWithinItsData(t *testing.T) {
	acf := make([]float64, 41)
	acf[0] = 1
	for k := 2; k <= 30; k++ { // lag 1 and lags above 30 are ≤ 0
		acf[k] = 0.5 / math.Sqrt(float64(k))
	}
	acf[1], acf[35] = -0.1, -0.05
	c := Candidate{PageStats: PageStats{Title: "Zürich", CoV: 1.02}, ACF: acf, PowerLaw: PowerLaw{C: 3, Gamma: 0.5},
		Hurst: []HurstEstimate{{Method: HurstACF, H: math.NaN(), Raw: 1.01, Note: "H = 1.01 outside [0, 1]: not a valid Hurst exponent"}}}
	f := acfFigure([]Candidate{c}, "src", &Options{})
	if f.YKind != tables.YCorrelation {
		t.Errorf("acf_closest: y kind %q, want %q", f.YKind, tables.YCorrelation)
	}
	if len(f.Curves) != 2 {
		t.Fatalf("%d curves, want the points and their fit", len(f.Curves))
	}
	data, fit := f.Curves[0], f.Curves[1]
	if data.X[0] != 2 || data.X[len(data.X)-1] != 30 {
		t.Errorf("points at lags %g…%g, want 2…30", data.X[0], data.X[len(data.X)-1])
	}
	if fit.X[0] != 9 || fit.Y[0] != 1 || fit.X[len(fit.X)-1] != 30 {
		t.Errorf("fit from (%g, %g) to lag %g, want from the crossing (9, 1) to lag 30", fit.X[0], fit.Y[0], fit.X[len(fit.X)-1])
	}
	for i, y := range fit.Y {
		if y > 1 || fit.X[i] < 2 || fit.X[i] > 30 {
			t.Errorf("fit point (%g, %g) outside its data or above 1", fit.X[i], y)
		}
		if want := 3 / math.Sqrt(fit.X[i]); math.Abs(y-want) > 1e-12 {
			t.Errorf("fit at %g = %g, want 3/√k = %g", fit.X[i], y, want)
		}
	}
	if want := "Zürich fit, γ = 0.50 (H = 1.01 outside [0, 1]: not a valid Hurst exponent)"; fit.Name != want {
		t.Errorf("fit named %q, want %q", fit.Name, want)
	}
	c.Hurst[0].Note = "too few (104 < 128 intervals)"
	if got := acfFigure([]Candidate{c}, "src", &Options{}).Curves[1].Name; got != "Zürich fit, γ = 0.50 (H: too few (104 < 128 intervals))" {
		t.Errorf("fit named %q", got)
	}
}
