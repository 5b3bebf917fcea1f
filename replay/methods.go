package replay

import (
	"fmt"
	"slices"
	"strings"
)

// Method names, as written in estimates.parquet.
const (
	MethodTruth   = "truth"
	MethodM1      = "M1"
	MethodM2      = "M2"
	MethodM3      = "M3"
	MethodM4      = "M4"
	MethodM5      = "M5"
	MethodGM4     = "G-M4"
	MethodM6      = "M6"
	MethodNaive   = "naive"
	MethodCho     = "cho"
	MethodMatloff = "matloff"
	MethodAgeMLE  = "age-mle"
	// MethodPoissonMLE is the Poisson rate maximising the likelihood of
	// the changed/unchanged observations at their own delays (IrregularMLE).
	MethodPoissonMLE = "poisson-mle"
)

// Kinds of an estimate.
const (
	KindG = "G" // the age distribution G_U
	KindF = "F" // the interval distribution F_U
)

// AllMethods is every estimator, in output order.
var AllMethods = []string{MethodM1, MethodM2, MethodM3, MethodM4, MethodM5, MethodGM4, MethodM6,
	MethodNaive, MethodCho, MethodMatloff, MethodAgeMLE, MethodPoissonMLE}

// constantOnly are the methods that need constant delays Δ.
var constantOnly = []string{MethodM3, MethodM4, MethodM5, MethodCho, MethodMatloff}

// recoverable are the consistent G_U estimators F_U is recovered from.
var recoverable = []string{MethodM2, MethodM4, MethodM5, MethodM6}

// Applicable reports whether method can run on sampler s.
func Applicable(method string, s Sampler) bool {
	return s.Constant() || !slices.Contains(constantOnly, method)
}

// ParseMethods reads method names (comma-separated lists allowed, case
// does not matter, "all" for every method, "gm4" for G-M4) and returns them
// in output order without duplicates.
func ParseMethods(list []string) ([]string, error) {
	want := map[string]bool{}
	for _, item := range list {
		for _, name := range strings.Split(item, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			if strings.EqualFold(name, "all") {
				for _, m := range AllMethods {
					want[m] = true
				}
				continue
			}
			m, ok := canonicalMethod(name)
			if !ok {
				return nil, fmt.Errorf("unknown method %q (want %s or all)", name, strings.Join(AllMethods, ", "))
			}
			want[m] = true
		}
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("no method given (want %s or all)", strings.Join(AllMethods, ", "))
	}
	var out []string
	for _, m := range AllMethods {
		if want[m] {
			out = append(out, m)
		}
	}
	return out, nil
}

func canonicalMethod(name string) (string, bool) {
	n := strings.ToLower(strings.ReplaceAll(name, "_", "-"))
	if n == "gm4" {
		return MethodGM4, true
	}
	if n == "cho-garcia-molina" || n == "cgm" {
		return MethodCho, true
	}
	for _, m := range AllMethods {
		if strings.ToLower(m) == n {
			return m, true
		}
	}
	return "", false
}

// checkApplicable fails when no selected method can run on any of the
// samplers (e.g. only M3, M4, M5, cho or matloff with random delays):
// such a run would write nothing but the truth.
func checkApplicable(methods []string, smp []Sampler) error {
	for _, s := range smp {
		for _, m := range methods {
			if Applicable(m, s) {
				return nil
			}
		}
	}
	return fmt.Errorf("none of the methods %s can run on the samplers given (%s need constant delays: add a const:Δ sampler)",
		strings.Join(methods, ", "), strings.Join(constantOnly, ", "))
}
