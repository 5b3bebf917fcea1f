package analysis

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Scenario describes how a user can observe pages (SPEC §5,
// recommendation).
type Scenario struct {
	Age     bool   // the server gives the age (Last-Modified) at each visit
	Sampler string // "constant" (fixed revisit interval Δ) or "random"
	OldM3   bool   // constant Δ, and only traces collected with M3 exist
}

// Recommendation is the method SPEC §5 recommends for a scenario, with
// the measured errors that back it (from the user's replay, when given).
type Recommendation struct {
	Scenario Scenario
	Method   string
	Reason   string
	// Evidence are the method summaries for the samplers of the scenario's
	// kind (constant or random), G_U errors, best mean WMRD first.
	Evidence []MethodSummary
}

// Recommend applies SPEC §5: age available → M2; constant S with a new
// measurement → M4; constant S with old M3 traces → M5; random S without
// age → M6. summaries (may be nil) are filtered to the G_U rows of the
// scenario's sampler kind (and, without age, to the methods that do not
// need it: not M1, M2, age-mle) and attached as evidence.
func Recommend(s Scenario, summaries []MethodSummary) (Recommendation, error) {
	kind := strings.ToLower(strings.TrimSpace(s.Sampler))
	switch kind {
	case "constant", "const", "fixed":
		kind = "constant"
	case "random", "exp", "exponential", "":
		kind = "random"
	default:
		return Recommendation{}, fmt.Errorf("recommend: sampler %q: want constant or random", s.Sampler)
	}
	s.Sampler = kind
	if s.OldM3 && kind != "constant" {
		return Recommendation{}, fmt.Errorf("recommend: M3 traces come from a constant revisit interval; --old-m3 needs --sampler=constant")
	}
	rec := Recommendation{Scenario: s}
	switch {
	case s.Age:
		rec.Method = "M2"
		rec.Reason = "ages (Last-Modified) are observed: the ECDF of all ages converges to G_U for any revisit distribution (docs/methods.md#m2)"
	case kind == "constant" && s.OldM3:
		rec.Method = "M5"
		rec.Reason = "constant Δ with traces collected by M3: M5 reuses M3's samples and is Δ-consistent for G_U, where M3 itself is biased"
	case kind == "constant":
		rec.Method = "M4"
		rec.Reason = "constant Δ, comparison only, new measurement: M4 (ECDF of A⁺) is Δ-consistent for G_U"
	default:
		rec.Method = "M6"
		rec.Reason = "random revisit delays, comparison only: M6 (pair counts on the h-grid) is consistent for G_U as h → 0"
	}
	for _, m := range summaries {
		if m.Kind != "G" || samplerKind(m.Constant) != kind || (!s.Age && m.Age) {
			continue
		}
		rec.Evidence = append(rec.Evidence, m)
	}
	slices.SortStableFunc(rec.Evidence, func(a, b MethodSummary) int {
		return cmpNaNLast(a.MeanWMRD, b.MeanWMRD)
	})
	return rec, nil
}

// samplerKind is "constant" for a sampler with constant delays (as the
// estimates file records it), else "random".
func samplerKind(constant bool) string {
	if constant {
		return "constant"
	}
	return "random"
}

func cmpNaNLast(a, b float64) int {
	switch {
	case math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a):
		return 1
	case math.IsNaN(b):
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
