package estimator

import "testing"

// The rows are SPEC §5's recommendation table (docs/methods.md#recommendation).
func TestReferenceMethod(t *testing.T) {
	for _, c := range []struct {
		ages, constant, oldM3 bool
		want                  string
	}{
		{true, false, false, MethodM2},  // ages observed, random delays
		{true, true, false, MethodM2},   // ages observed, constant delays
		{true, true, true, MethodM2},    // ages beat old traces: M2 needs no Δ
		{false, true, false, MethodM4},  // constant delays, new measurement
		{false, true, true, MethodM5},   // constant delays, old M3 traces
		{false, false, false, MethodM6}, // random delays, no ages
	} {
		if got := ReferenceMethod(c.ages, c.constant, c.oldM3); got != c.want {
			t.Errorf("ReferenceMethod(ages=%v, constant=%v, oldM3=%v) = %s, want %s", c.ages, c.constant, c.oldM3, got, c.want)
		}
	}
}

// ReferenceAmong reads the scenario off the methods estimated; each row
// says which SPEC §5 scenario it is.
func TestReferenceAmong(t *testing.T) {
	for _, c := range []struct {
		have     []string
		constant bool
		want     string
	}{
		{[]string{MethodM2, MethodM4, MethodM6}, true, MethodM2}, // ages observed
		{[]string{MethodM3, MethodM4, MethodM5}, true, MethodM4}, // new measurement: M4 although M5 is there
		{[]string{MethodM3, MethodM5}, true, MethodM5},           // old M3 traces
		{[]string{MethodM5, MethodM6}, true, MethodM5},           // old M3 traces, M6 beside
		{[]string{MethodM3, MethodM6}, true, MethodM6},           // constant, neither M4 nor M5: M6 is consistent too
		{[]string{MethodM5, MethodM6}, false, MethodM6},          // random delays: M5 is for constant Δ
		{[]string{MethodM4, MethodM6}, false, MethodM6},          // random delays, no ages
		{[]string{MethodM1, MethodM3}, false, ""},                // no consistent method estimated
		{[]string{MethodM5}, false, ""},
	} {
		have := func(m string) bool {
			for _, h := range c.have {
				if h == m {
					return true
				}
			}
			return false
		}
		if got := ReferenceAmong(have, c.constant); got != c.want {
			t.Errorf("ReferenceAmong(%v, constant=%v) = %q, want %q", c.have, c.constant, got, c.want)
		}
	}
}
