package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/internal/units"
)

// ParseProcess reads an update-process spec. unit is the length of the
// time unit in seconds (3600 for hours); only the calendar cycles of nhpp
// use it. The forms are
//
//	DIST                        renewal process with intervals DIST (see Parse):
//	                            exp:RATE, pareto:ALPHA,BETA, weibull:K,SCALE,
//	                            lognormal:MU,SIGMA, uniform:A,B, const:C, mix:W*DIST+…
//	onoff:RATE,(ON),(OFF)       Poisson updates of rate RATE during ON periods;
//	                            ON and OFF period lengths drawn from the
//	                            distributions ON and OFF, e.g.
//	                            onoff:2,(pareto:1.5,1),(pareto:1.2,50)
//	nhpp:RATE[,TREND[,DAY[,WEEK]]]
//	                            non-homogeneous Poisson, rate
//	                            RATE·(1 + TREND·s)·(1 + DAY·cos 2πt/day)·(1 + WEEK·cos 2πt/week),
//	                            s = fraction of the window elapsed
//	lrd:H,(DIST)                intervals with marginal DIST and long-range
//	                            dependence of Hurst exponent H ∈ (0, 1)
func ParseProcess(spec string, unit float64) (Process, error) {
	spec = strings.TrimSpace(spec)
	name, args, _ := strings.Cut(spec, ":")
	switch strings.ToLower(name) {
	case "onoff":
		a, err := splitArgs(spec, args)
		if err != nil {
			return nil, err
		}
		if len(a) != 3 {
			return nil, fmt.Errorf("process %q: onoff takes RATE,(ON),(OFF)", spec)
		}
		rate, err := number(spec, a[0])
		if err != nil {
			return nil, err
		}
		if !(rate > 0) || math.IsInf(rate, 1) {
			return nil, fmt.Errorf("process %q: onoff RATE must be > 0 and finite", spec)
		}
		on, err := parenDist(spec, a[1])
		if err != nil {
			return nil, err
		}
		off, err := parenDist(spec, a[2])
		if err != nil {
			return nil, err
		}
		return OnOff{Rate: rate, On: on, Off: off}, nil
	case "nhpp":
		a, err := splitArgs(spec, args)
		if err != nil {
			return nil, err
		}
		if len(a) < 1 || len(a) > 4 {
			return nil, fmt.Errorf("process %q: nhpp takes RATE[,TREND[,DAY[,WEEK]]]", spec)
		}
		v := make([]float64, 4)
		for i, s := range a {
			if v[i], err = number(spec, s); err != nil {
				return nil, err
			}
		}
		p := NHPP{Rate: v[0], Trend: v[1], Day: v[2], Week: v[3], DayPeriod: units.Day / unit}
		switch {
		case !(unit > 0):
			return nil, fmt.Errorf("process %q: time unit must be > 0 seconds", spec)
		case !(p.Rate > 0) || math.IsInf(p.Rate, 1):
			return nil, fmt.Errorf("process %q: nhpp RATE must be > 0 and finite", spec)
		case !(p.Trend >= -1) || math.IsInf(p.Trend, 1):
			return nil, fmt.Errorf("process %q: nhpp TREND must be ≥ −1 (the rate at the end of the window is RATE·(1+TREND))", spec)
		case !(p.Day >= 0 && p.Day <= 1), !(p.Week >= 0 && p.Week <= 1):
			return nil, fmt.Errorf("process %q: nhpp DAY and WEEK amplitudes must be in [0, 1]", spec)
		}
		return p, nil
	case "lrd":
		a, err := splitArgs(spec, args)
		if err != nil {
			return nil, err
		}
		if len(a) != 2 {
			return nil, fmt.Errorf("process %q: lrd takes H,(DIST)", spec)
		}
		h, err := number(spec, a[0])
		if err != nil {
			return nil, err
		}
		if !(h > 0 && h < 1) {
			return nil, fmt.Errorf("process %q: Hurst exponent H must be in (0, 1)", spec)
		}
		d, err := parenDist(spec, a[1])
		if err != nil {
			return nil, err
		}
		return LRD{H: h, U: d}, nil
	}
	d, err := Parse(spec)
	if err != nil {
		return nil, fmt.Errorf("%w (or a process: onoff, nhpp, lrd)", err)
	}
	return Renewal{U: d}, nil
}

// splitArgs splits a comma-separated argument list at the top level
// (commas inside parentheses or braces do not split).
func splitArgs(spec, args string) ([]string, error) {
	var out []string
	depth, from := 0, 0
	for i, c := range args {
		switch c {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("process %q: unbalanced %q", spec, c)
			}
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(args[from:i]))
				from = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("process %q: unbalanced parentheses or braces", spec)
	}
	if strings.TrimSpace(args) != "" {
		out = append(out, strings.TrimSpace(args[from:]))
	}
	return out, nil
}

func number(spec, s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("process %q: parameter %q is not a number", spec, s)
	}
	return v, nil
}

func parenDist(spec, s string) (Dist, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return nil, fmt.Errorf("process %q: %q must be a distribution in parentheses, e.g. (pareto:1.5,1)", spec, s)
	}
	d, err := Parse(s[1 : len(s)-1])
	if err != nil {
		return nil, fmt.Errorf("process %q: %w", spec, err)
	}
	return d, nil
}

// Model is an update-process spec whose numeric parameters may be drawn
// per page: any number in a ParseProcess spec may be replaced by {DIST},
// a distribution (Parse syntax) the parameter is drawn from for each page.
// "exp:{lognormal:-3,1.5}" gives every page a Poisson process whose rate
// is lognormal across pages, so page update counts are heavy-tailed like
// Wikipedia's; "pareto:1.5,{lognormal:2,1}" draws the Lomax scale β.
type Model struct {
	spec  string
	unit  float64
	parts []string // literal text between the {…} groups: len(draws)+1
	draws []Dist
	fixed Process // the process when there is nothing to draw
}

// ParseModel reads a Model spec (see Model and ParseProcess). It checks the
// spec by building the process with every drawn parameter at its
// distribution's median.
func ParseModel(spec string, unit float64) (*Model, error) {
	m := &Model{spec: strings.TrimSpace(spec), unit: unit}
	s := m.spec
	from := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '}':
			return nil, fmt.Errorf("model %q: unbalanced '}'", spec)
		case '{':
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return nil, fmt.Errorf("model %q: unbalanced '{'", spec)
			}
			inner := s[i+1 : i+j]
			if strings.ContainsAny(inner, "{") {
				return nil, fmt.Errorf("model %q: drawn parameters cannot nest", spec)
			}
			d, err := Parse(inner)
			if err != nil {
				return nil, fmt.Errorf("model %q: drawn parameter: %w", spec, err)
			}
			m.parts = append(m.parts, s[from:i])
			m.draws = append(m.draws, d)
			i += j
			from = i + 1
		}
	}
	m.parts = append(m.parts, s[from:])
	med := make([]float64, len(m.draws))
	for i, d := range m.draws {
		med[i] = Quantile(d, 0.5)
	}
	p, err := m.build(med)
	if err != nil {
		return nil, fmt.Errorf("model %q: %w", spec, err)
	}
	if len(m.draws) == 0 {
		m.fixed = p
	}
	return m, nil
}

func (m *Model) build(v []float64) (Process, error) {
	var b strings.Builder
	for i, part := range m.parts {
		b.WriteString(part)
		if i < len(v) {
			b.WriteString(strconv.FormatFloat(v[i], 'g', -1, 64))
		}
	}
	return ParseProcess(b.String(), m.unit)
}

// Draw draws the page's parameters (one value per {…}, in order) from r and
// returns the resulting process and the drawn values. A draw that makes the
// process invalid (a uniform with A > B, say) is an error, not redrawn, so
// the truth is never silently conditioned.
func (m *Model) Draw(r *rand.Rand) (Process, []float64, error) {
	if m.fixed != nil {
		return m.fixed, nil, nil
	}
	v := make([]float64, len(m.draws))
	for i, d := range m.draws {
		v[i] = d.Rand(r)
	}
	p, err := m.build(v)
	if err != nil {
		return nil, v, fmt.Errorf("model %q with drawn parameters %v: %w", m.spec, v, err)
	}
	return p, v, nil
}

// Drawn reports whether the model draws parameters per page.
func (m *Model) Drawn() bool { return len(m.draws) > 0 }

// String is the spec as given.
func (m *Model) String() string { return m.spec }
