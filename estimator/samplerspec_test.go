package estimator

import (
	"math"
	"strings"
	"testing"
)

// Every form of a sampler label parses once, through the spec parser,
// and gives its text back unchanged: the specs replay writes and the
// labels of estimate's observed captures. Rates and delays are read off
// the text (exp:λ has rate λ; const:Δ has delay Δ and rate 1/Δ; a
// relative spec is given for E[U] = 1).
func TestParseSamplerSpec(t *testing.T) {
	for _, c := range []struct {
		text            string
		observed, konst bool
		rate, delta     float64
	}{
		{"exp:2", false, false, 2, 0},
		{"const:0.5x", false, true, 2, 0.5},
		{"uniform:4", false, false, 4, 0},
		{"dist:const:3", false, true, 1.0 / 3, 3},
		{"observed const:3600", true, true, 1.0 / 3600, 3600},
		{"observed irregular", true, false, 0, 0},
	} {
		s, err := ParseSamplerSpec(c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if s.String() != c.text || s.Observed != c.observed || s.Constant() != c.konst ||
			math.Abs(s.Rate-c.rate) > 1e-15*c.rate || s.Delta != c.delta {
			t.Errorf("%q: got %q observed %v constant %v rate %g delta %g", c.text, s, s.Observed, s.Constant(), s.Rate, s.Delta)
		}
	}
	for _, bad := range []string{"", "observed ", "observed bogus", "observed observed irregular", " observed irregular", "exp:0", "irregular"} {
		if s, err := ParseSamplerSpec(bad); err == nil {
			t.Errorf("%q parsed as %+v", bad, s)
		}
	}
	// The spec parser of the user's --sampler refuses the labels.
	if _, err := ParseSampler("observed const:5"); err == nil {
		t.Error(`ParseSampler accepted "observed const:5"`)
	}
}

// The label of constant observed delays keeps Δ to 6 significant digits
// and reads back as that Δ; CheckSamplerLabel accepts exactly the labels
// ParseSamplerSpec reads.
func TestObservedConst(t *testing.T) {
	s := ObservedConst(1.0 / 3)
	if s.String() != "observed const:0.333333" || !s.Observed || s.Delta != 0.333333 {
		t.Errorf("ObservedConst(1/3) = %q, delta %g", s, s.Delta)
	}
	back, err := ParseSamplerSpec(s.String())
	if err != nil || back != s {
		t.Errorf("%q reads back as %+v, %v", s, back, err)
	}
	for _, l := range []string{s.String(), ObservedIrregular, "exp:20x", "observed nonsense"} {
		_, perr := ParseSamplerSpec(l)
		if cerr := CheckSamplerLabel(l); (cerr == nil) != (perr == nil) || (cerr != nil && !strings.Contains(cerr.Error(), "sampler")) {
			t.Errorf("%q: CheckSamplerLabel %v, ParseSamplerSpec %v", l, cerr, perr)
		}
	}
}
