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

// Allows reports whether the scenario can observe the estimate m: an
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
	ChoiceLowest   = "lowest"          // the scenario's method has the lowest mean κ of the consistent methods it allows
	ChoiceOnly     = "only consistent" // the scenario's method is the only consistent one it allows (with old M3 traces: M5)
	ChoiceMeasured = "measured best"   // another consistent method beats it: that one is recommended
	ChoiceKept     = "rule kept"       // another consistent method has a lower mean κ, but not by a difference the interval resolves beyond NegligibleKS
)

// consistent reports whether m estimates G_U consistently (class
// estimator.Unbiased: M2, M4, M5, M6): the only methods a recommendation
// names. A biased method (M1, M3, G-M4) or a Poisson baseline converges
// to something else, by an amount that depends on the update process and
// the revisit rate, so a lower error on the pages measured does not carry
// to the user's pages.
func consistent(m MethodSummary) bool { return m.Class == estimator.Unbiased }

// Choice is the method recommended for a scenario under one sampler,
// after measurement, among the consistent methods the scenario allows:
// the scenario's method (Rule, SPEC §5) unless the consistent method of
// lowest mean κ beats it (its paired difference's decisive interval lies
// below 0, beyond NegligibleKS), in which case that one. Versus compares
// Method with Rule when they differ; when the rule is kept with another
// lower, it compares Rule with that method (κ_Rule − κ_lowest ≥ 0 on
// average: what keeping the rule costs); otherwise Method with the
// consistent runner-up, or, when Method is the only consistent method,
// with the allowed method of lowest mean κ among the others. Lowest is
// the consistent method of lowest mean κ. Lower is the method of lowest
// mean κ among the allowed ones that are not consistent when its mean κ
// is below Method's (LowerKS; "" and NaN otherwise): it is not
// recommended, and the Findings say so and why.
type Choice struct {
	Method, Rule, Why string
	Lowest            string
	Versus            comparison
	Lower             string
	LowerClass        estimator.Class
	LowerKS           float64
}

// choose is the Choice among same (the allowed methods of one sampler,
// summarised together) for the scenario's rule method, on the range of.
func choose(same []MethodSummary, rule string, of rangeKS) Choice {
	cons, other := splitConsistent(same)
	c := Choice{Method: rule, Rule: rule, Why: ChoiceLowest, LowerKS: math.NaN()}
	v := versusConsistent(same, rule, of)
	c.Lowest, c.Versus = v.lowest, v
	switch {
	case v.lowest == rule && !slices.ContainsFunc(cons, func(m MethodSummary) bool { return m.Method == v.rival }):
		c.Why = ChoiceOnly // no other consistent method measured
	case v.lowest == "" || v.lowest == rule || v.rival == "":
	default:
		if iv, _ := v.decisive(); iv.Verdict() != VerdictWorse {
			c.Why = ChoiceKept
			break
		}
		var best, self MethodSummary
		for _, m := range cons {
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
	}
	if low := lowestOf(other, of); low != nil {
		lk, _, _ := of(*low)
		for _, m := range cons {
			if mk, _, _ := of(m); m.Method == c.Method && lk.Mean < mk.Mean {
				c.Lower, c.LowerClass, c.LowerKS = low.Method, low.Class, lk.Mean
			}
		}
	}
	return c
}

// splitConsistent splits ms into the consistent methods and the others.
func splitConsistent(ms []MethodSummary) (cons, other []MethodSummary) {
	for _, m := range ms {
		if consistent(m) {
			cons = append(cons, m)
		} else {
			other = append(other, m)
		}
	}
	return cons, other
}

// versusConsistent is versus among the consistent methods of same (one
// sampler and kind): method against the consistent method of lowest mean
// κ, or the consistent runner-up; when method is the only consistent one
// measured, against the method of lowest mean κ among the others (M5
// against M3 with old M3 traces). lowest is the consistent method of
// lowest mean κ.
func versusConsistent(same []MethodSummary, method string, of rangeKS) comparison {
	cons, other := splitConsistent(same)
	v := versus(cons, method, of)
	if v.lowest != method || v.rival != "" {
		return v
	}
	low := lowestOf(other, of)
	if low == nil {
		return v
	}
	for _, m := range cons {
		if m.Method == method {
			c := compare(m, *low, of)
			c.lowest = method
			return c
		}
	}
	return v
}

// lowestOf is the summary of ms with the lowest mean κ on the range of
// (the first of equals), nil when none has one.
func lowestOf(ms []MethodSummary, of rangeKS) *MethodSummary {
	var low *MethodSummary
	lowK := math.Inf(1)
	for i := range ms {
		if iv, _, _ := of(ms[i]); iv.Mean < lowK {
			low, lowK = &ms[i], iv.Mean
		}
	}
	return low
}
