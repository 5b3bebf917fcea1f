package analysis

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/revisit-dev/revisit/estimator"
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

// Recommend applies SPEC §5's rule (estimator.ReferenceMethod) to the
// scenario and says why the method fits it. summaries (may be nil) are
// filtered to the methods the scenario allows (Allows) and attached as
// evidence.
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
	rec.Method = estimator.ReferenceMethod(s.Age, kind == "constant", s.OldM3)
	rec.Reason = referenceReason[rec.Method]
	for _, m := range summaries {
		if s.Allows(m) {
			rec.Evidence = append(rec.Evidence, m)
		}
	}
	slices.SortStableFunc(rec.Evidence, func(a, b MethodSummary) int {
		return cmpNaNLast(a.MeanWMRD, b.MeanWMRD)
	})
	return rec, nil
}

// referenceReason says, for each method estimator.ReferenceMethod can
// choose, why it is consistent in its scenario.
var referenceReason = map[string]string{
	estimator.MethodM2: "ages (Last-Modified) are observed: the ECDF of all ages converges to G_U for any revisit distribution (docs/methods.md#m2)",
	estimator.MethodM5: "constant Δ with traces collected by M3: M5 reuses M3's samples and is Δ-consistent for G_U, where M3 itself is biased",
	estimator.MethodM4: "constant Δ, comparison only, new measurement: M4 (ECDF of A⁺) is Δ-consistent for G_U",
	estimator.MethodM6: "random revisit delays, comparison only: M6 (pair counts on the h-grid) is consistent for G_U as h → 0",
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

// m3Trace are the methods an old trace of M3's samples (the distances
// between consecutive visits that detected a change) can feed: M3
// itself, and M5, which corrects it (docs/methods.md#m5).
var m3Trace = []string{"M3", "M5"}

// Allows reports whether the scenario can use the estimate m: an
// estimate of G_U under a sampler of the scenario's kind (constant or
// random delays), that observes ages only when ages are available, and,
// with old M3 traces, one computed from M3's samples (M3, M5).
func (s Scenario) Allows(m MethodSummary) bool {
	kind := strings.ToLower(strings.TrimSpace(s.Sampler))
	if kind != "constant" {
		kind = "random"
	}
	if m.Kind != "G" || samplerKind(m.Constant) != kind || (!s.Age && m.Age) {
		return false
	}
	return !s.OldM3 || slices.Contains(m3Trace, m.Method)
}

// How a recommendation was chosen against the measurement (Choice.Why).
const (
	ChoiceLowest   = "lowest"        // the scenario's method has the lowest mean κ of those it allows
	ChoiceMeasured = "measured best" // another allowed method beats it: that one is recommended
	ChoiceKept     = "rule kept"     // another has a lower mean κ, but not by a difference the interval resolves beyond NegligibleKS
)

// Choice is the method recommended for a scenario under one sampler,
// after measurement: the scenario's method (Rule, SPEC §5) unless the
// allowed method of lowest mean κ beats it (its paired difference's
// decisive interval lies below 0, beyond NegligibleKS), in which case that
// one. Versus compares Method with Rule when they differ; when the rule
// is kept with another method lower, it compares Rule with that method
// (κ_Rule − κ_lowest ≥ 0 on average: what keeping the rule costs);
// otherwise Method with the runner-up.
type Choice struct {
	Method, Rule, Why string
	Lowest            string // the allowed method of lowest mean κ
	Versus            comparison
}

// choose is the Choice among same (the allowed methods of one sampler,
// summarised together) for the scenario's rule method, on the range of.
func choose(same []MethodSummary, rule string, of rangeKS) Choice {
	c := Choice{Method: rule, Rule: rule, Why: ChoiceLowest}
	v := versus(same, rule, of)
	c.Lowest, c.Versus = v.lowest, v
	if v.lowest == "" || v.lowest == rule || v.rival == "" {
		return c
	}
	iv, _ := v.decisive()
	if iv.Verdict() != VerdictWorse {
		c.Why = ChoiceKept
		return c
	}
	var best, self MethodSummary
	for _, m := range same {
		switch m.Method {
		case v.lowest:
			best = m
		case rule:
			self = m
		}
	}
	c.Method, c.Why = v.lowest, ChoiceMeasured
	c.Versus = compare(best, self, of)
	c.Versus.lowest = v.lowest
	return c
}
