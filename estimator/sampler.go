package estimator

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/model"
)

// SamplerSyntax documents the sampler specs ParseSampler reads.
const SamplerSyntax = `exp:λ         exponential delays with rate λ per unit (mean 1/λ)
const:Δ       constant delay Δ units (rate 1/Δ)
uniform:λ     delays uniform on [0, 2/λ]
pareto:α,λ    Lomax delays with shape α > 1, scale (α−1)/λ so that the mean is 1/λ
dist:SPEC     delays from any model distribution (as revisit generate --model), e.g. dist:weibull:0.5,1
kx            as λ or Δ: relative to each page's mean interval E[U]
              (exp:20x is λ = 20/E[U], const:0.05x is Δ = 0.05·E[U])`

// Sampler is a crawler's sampling process F_S (SPEC §4): i.i.d. delays S_j
// between visits with rate λ = 1/E[S]. The first visit is placed uniformly
// at random in the first cycle: s_1 = U·S_0 with U ~ Uniform[0, 1) and
// S_0 ~ F_S (U·Δ for constant delays), so the crawler is not phase-locked
// with the trace.
//
// A relative sampler ("exp:20x", "const:0.05x", "uniform:kx", "pareto:α,kx")
// sets its rate or delay per page from the page's mean interval E[U]:
// λ = k/E[U], or Δ = k·E[U]. ParseSampler gives it for E[U] = 1 unit
// (Rate = k, Delta = k); ForMean gives it for a page. Its Spec stays the
// same on every page, so results group by sampler.
type Sampler struct {
	Spec     string     // as given, e.g. "exp:2" or "exp:20x"
	Rate     float64    // λ = 1/E[S] per unit
	Delta    float64    // Δ for constant delays, 0 otherwise
	Dist     model.Dist // F_S
	Relative bool       // λ or Δ is relative to the page's E[U] (ForMean)
}

// ParseSampler reads a sampler spec (see SamplerSyntax). A relative spec
// is returned for E[U] = 1 unit (see ForMean).
func ParseSampler(spec string) (Sampler, error) { return parseSampler(spec, 1) }

// ForMean is the sampler on a page whose mean interval is meanU units:
// s itself when it is absolute, else its relative rate or delay scaled
// (λ = k/meanU, Δ = k·meanU). meanU must be finite and > 0.
func (s Sampler) ForMean(meanU float64) (Sampler, error) {
	if !s.Relative {
		return s, nil
	}
	if !(meanU > 0) || math.IsInf(meanU, 0) {
		return Sampler{}, fmt.Errorf("sampler %q: relative to E[U], which must be finite and > 0, got %g", s.Spec, meanU)
	}
	out, err := parseSampler(s.Spec, meanU)
	if err == nil && !(out.Rate > 0 && !math.IsInf(out.Rate, 0)) {
		err = fmt.Errorf("sampler %q at E[U] = %g: rate %g is not finite and > 0", s.Spec, meanU, out.Rate)
	}
	return out, err
}

// parseSampler reads spec with relative values ("kx") scaled by the mean
// interval meanU.
func parseSampler(spec string, meanU float64) (Sampler, error) {
	s := strings.TrimSpace(spec)
	name, args, ok := strings.Cut(s, ":")
	if !ok || args == "" {
		return Sampler{}, fmt.Errorf("sampler %q: want NAME:PARAMS, one of\n%s", spec, SamplerSyntax)
	}
	out := Sampler{Spec: s}
	num := func(a string) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("sampler %q: %q is not a finite number", spec, a)
		}
		return v, nil
	}
	// relNum reads a rate or delay, "kx" meaning k relative to E[U].
	relNum := func(a string) (v float64, rel bool, err error) {
		a = strings.TrimSpace(a)
		if k, ok := strings.CutSuffix(strings.ToLower(a), "x"); ok {
			a, rel = k, true
			out.Relative = true
		}
		v, err = num(a)
		return v, rel, err
	}
	rate := func(a string) (float64, error) {
		v, rel, err := relNum(a)
		if err != nil {
			return 0, err
		}
		if v <= 0 {
			return 0, fmt.Errorf("sampler %q: the rate λ must be > 0, got %g", spec, v)
		}
		if rel {
			v /= meanU // λ = k/E[U]
		}
		return v, nil
	}
	switch strings.ToLower(name) {
	case "exp", "exponential", "poisson":
		l, err := rate(args)
		if err != nil {
			return Sampler{}, err
		}
		out.Rate, out.Dist = l, model.Exponential{Rate: l}
	case "const", "constant":
		d, rel, err := relNum(args)
		if err != nil {
			return Sampler{}, err
		}
		if d <= 0 {
			return Sampler{}, fmt.Errorf("sampler %q: the delay Δ must be > 0, got %g", spec, d)
		}
		if rel {
			d *= meanU // Δ = k·E[U]
		}
		out.Rate, out.Delta, out.Dist = 1/d, d, model.Constant{C: d}
	case "uniform", "unif":
		l, err := rate(args)
		if err != nil {
			return Sampler{}, err
		}
		out.Rate, out.Dist = l, model.Uniform{A: 0, B: 2 / l}
	case "pareto", "lomax":
		a, l, ok := strings.Cut(args, ",")
		if !ok {
			return Sampler{}, fmt.Errorf("sampler %q: pareto takes α,λ", spec)
		}
		alpha, err := num(a)
		if err != nil {
			return Sampler{}, err
		}
		if alpha <= 1 {
			return Sampler{}, fmt.Errorf("sampler %q: the shape α must be > 1 for a finite mean, got %g", spec, alpha)
		}
		lam, err := rate(l)
		if err != nil {
			return Sampler{}, err
		}
		out.Rate, out.Dist = lam, model.Pareto{Alpha: alpha, Beta: (alpha - 1) / lam}
	case "dist", "model":
		d, err := model.Parse(args)
		if err != nil {
			return Sampler{}, fmt.Errorf("sampler %q: %w", spec, err)
		}
		m := d.Mean()
		if !(m > 0) || math.IsInf(m, 0) {
			return Sampler{}, fmt.Errorf("sampler %q: the delay distribution needs a finite mean > 0, got %g", spec, m)
		}
		out.Rate, out.Dist = 1/m, d
		if c, ok := d.(model.Constant); ok {
			out.Delta = c.C
		}
	default:
		return Sampler{}, fmt.Errorf("sampler %q: unknown sampler %q, want one of\n%s", spec, name, SamplerSyntax)
	}
	return out, nil
}

// SamplerSpec is a sampler label, the text that names a sampler in
// estimates.parquet's sampler column, in replay.json and in schedule's
// --sampler: a spec of SamplerSyntax ("exp:2", "const:0.5x") as replay
// writes it, or the label of estimate's observed captures ("observed
// const:Δ", ObservedConst, and ObservedIrregular). ParseSamplerSpec reads
// every form, through ParseSampler (which reads the user's --sampler of
// replay, simulate, run and schedule's crawler: specs only); String gives
// the text back as read (without the spaces around a spec), since it
// labels rows, names observation files and seeds random streams.
type SamplerSpec struct {
	// Sampler is the sampling process the text names, for E[U] = 1 unit
	// when relative (ForMean), with Spec the whole text; for
	// ObservedIrregular only Spec is set.
	Sampler
	// Observed: the label of estimate's observed captures, which
	// describes a real crawler's delays; it is no spec a virtual crawler
	// runs (ParseSampler, the parser of the user's --sampler, refuses it).
	Observed bool
}

// ParseSamplerSpec reads a sampler spec or an observed-captures label
// (SamplerSpec): the specs of SamplerSyntax and the labels estimate
// writes, "observed " followed by such a spec or ObservedIrregular.
func ParseSamplerSpec(text string) (SamplerSpec, error) {
	if text == ObservedIrregular {
		return SamplerSpec{Sampler: Sampler{Spec: text}, Observed: true}, nil
	}
	if rest, ok := strings.CutPrefix(text, ObservedPrefix); ok {
		s, err := ParseSampler(rest)
		if err != nil {
			return SamplerSpec{}, err
		}
		s.Spec = ObservedPrefix + s.Spec
		return SamplerSpec{Sampler: s, Observed: true}, nil
	}
	s, err := ParseSampler(text)
	if err != nil {
		return SamplerSpec{}, err
	}
	return SamplerSpec{Sampler: s}, nil
}

// ObservedConst is the label of observed captures whose delays are a
// constant Δ units: "observed const:Δ", Δ to 6 significant digits.
func ObservedConst(delta float64) SamplerSpec {
	text := fmt.Sprintf(ObservedPrefix+"const:%.6g", delta)
	s, err := ParseSamplerSpec(text)
	if err != nil { // Δ not finite and > 0: the label still names the rows
		return SamplerSpec{Sampler: Sampler{Spec: text}, Observed: true}
	}
	return s
}

// String is the text the spec was read from.
func (s SamplerSpec) String() string { return s.Spec }

// Constant reports whether the delays are a constant Δ (comparison methods
// M3, M4, M5 and the Cho/Matloff baselines need it).
func (s Sampler) Constant() bool { return s.Delta > 0 }

// Step is the grid step of the estimates for this sampler: x_n = nΔ for
// constant delays, y_n = nh otherwise.
func (s Sampler) Step(h float64) float64 {
	if s.Constant() {
		return s.Delta
	}
	return h
}
