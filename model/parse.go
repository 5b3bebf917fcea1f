package model

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse reads a distribution spec:
//
//	exp:RATE            exponential with rate RATE (mean 1/RATE)
//	pareto:ALPHA,BETA   Lomax, F̄(x) = (1 + x/BETA)^(−ALPHA)
//	weibull:K,SCALE     F̄(x) = exp(−(x/SCALE)^K)
//	lognormal:MU,SIGMA  ln U ~ N(MU, SIGMA²)
//	uniform:A,B         uniform on [A, B]
//	const:C             always C
//	mix:W*SPEC+W*SPEC…  mixture with weights W
func Parse(spec string) (Dist, error) {
	name, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.ToLower(name)
	if name == "mix" {
		return parseMixture(spec, args)
	}
	var v []float64
	if args != "" {
		for _, a := range strings.Split(args, ",") {
			f, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
			if err != nil {
				return nil, fmt.Errorf("distribution %q: parameter %q is not a number", spec, a)
			}
			v = append(v, f)
		}
	}
	need := func(n int, names string) error {
		if len(v) != n {
			return fmt.Errorf("distribution %q: %s takes %d parameter(s): %s:%s", spec, name, n, name, names)
		}
		for _, x := range v {
			if !(x >= 0) || x > 1e300 {
				return fmt.Errorf("distribution %q: parameters must be finite and ≥ 0", spec)
			}
		}
		return nil
	}
	positive := func(xs ...float64) error {
		for _, x := range xs {
			if !(x > 0) {
				return fmt.Errorf("distribution %q: parameters must be > 0", spec)
			}
		}
		return nil
	}
	switch name {
	case "exp", "exponential", "poisson":
		if err := need(1, "RATE"); err != nil {
			return nil, err
		}
		if err := positive(v[0]); err != nil {
			return nil, err
		}
		return Exponential{Rate: v[0]}, nil
	case "pareto", "lomax":
		if err := need(2, "ALPHA,BETA"); err != nil {
			return nil, err
		}
		if err := positive(v...); err != nil {
			return nil, err
		}
		return Pareto{Alpha: v[0], Beta: v[1]}, nil
	case "weibull":
		if err := need(2, "K,SCALE"); err != nil {
			return nil, err
		}
		if err := positive(v...); err != nil {
			return nil, err
		}
		return Weibull{K: v[0], Scale: v[1]}, nil
	case "lognormal", "lognorm":
		if len(v) == 2 && v[1] > 0 {
			return Lognormal{Mu: v[0], Sigma: v[1]}, nil
		}
		return nil, fmt.Errorf("distribution %q: lognormal takes MU,SIGMA with SIGMA > 0", spec)
	case "uniform", "unif":
		if err := need(2, "A,B"); err != nil {
			return nil, err
		}
		if !(v[1] > v[0]) {
			return nil, fmt.Errorf("distribution %q: uniform needs A < B", spec)
		}
		return Uniform{A: v[0], B: v[1]}, nil
	case "const", "constant":
		if err := need(1, "C"); err != nil {
			return nil, err
		}
		if err := positive(v[0]); err != nil {
			return nil, err
		}
		return Constant{C: v[0]}, nil
	}
	return nil, fmt.Errorf("distribution %q: unknown family %q (want exp, pareto, weibull, lognormal, uniform, const or mix)", spec, name)
}

func parseMixture(spec, args string) (Dist, error) {
	var m Mixture
	for _, term := range splitTerms(args) {
		ws, ds, ok := strings.Cut(term, "*")
		if !ok {
			return nil, fmt.Errorf("distribution %q: mixture term %q is not WEIGHT*SPEC", spec, term)
		}
		w, err := strconv.ParseFloat(strings.TrimSpace(ws), 64)
		if err != nil || !(w > 0) {
			return nil, fmt.Errorf("distribution %q: weight %q must be a number > 0", spec, ws)
		}
		d, err := Parse(ds)
		if err != nil {
			return nil, err
		}
		m.Weights = append(m.Weights, w)
		m.Parts = append(m.Parts, d)
	}
	if len(m.Parts) == 0 {
		return nil, fmt.Errorf("distribution %q: empty mixture", spec)
	}
	return m, nil
}

// splitTerms splits a mixture at '+', except a '+' that is the sign of an
// exponent ("1e+06", as %g prints large parameters).
func splitTerms(s string) []string {
	var out []string
	from := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '+' {
			continue
		}
		if i >= 2 && (s[i-1] == 'e' || s[i-1] == 'E') && s[i-2] >= '0' && s[i-2] <= '9' {
			continue
		}
		out = append(out, s[from:i])
		from = i + 1
	}
	return append(out, s[from:])
}
