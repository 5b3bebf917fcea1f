package nhpp

import (
	"context"
	"math"
)

// Estimator is a named fit of a window's mean-value function from its
// local event times (see Window): FitK fits the first k events from the
// window's prefix sums in O(1), so that refitting after every visit costs
// nothing.
type Estimator struct {
	Name string
	FitK func(p *Prefix, k int) Cumulative
}

// Fit fits all of t.
func (e Estimator) Fit(t []float64) Cumulative { return e.FitK(NewPrefix(t), len(t)) }

// Predictors are the estimators that can be refitted on a growing prefix
// of a window, in report order: the Weibull MLE, its bias correction, the
// Duane plot and the homogeneous Poisson MLE.
var Predictors = []Estimator{
	{"Weibull MLE", func(p *Prefix, k int) Cumulative { return p.Weibull(k).Cumulative() }},
	{"Weibull corrected", func(p *Prefix, k int) Cumulative { return p.Weibull(k).Corrected() }},
	{"Duane", func(p *Prefix, k int) Cumulative { return p.Duane(k).Cumulative() }},
	{"Poisson MLE", func(p *Prefix, k int) Cumulative { return Poisson(p.t[:k]) }},
}

// Prefix holds the running sums the fits need for every prefix t_1…t_k of
// a window: Σ ln t_i for the Weibull MLE and the four least-squares sums
// of the Duane plot.
type Prefix struct {
	t                 []float64
	lnt, sy, sxx, sxy []float64 // cumulative, index k = sum over the first k
}

// NewPrefix computes the running sums of t.
func NewPrefix(t []float64) *Prefix {
	n := len(t)
	p := &Prefix{t: t, lnt: make([]float64, n+1), sy: make([]float64, n+1), sxx: make([]float64, n+1), sxy: make([]float64, n+1)}
	for i, x := range t {
		lx := math.Log(x)
		ly := lx - math.Log(float64(i+1))
		p.lnt[i+1] = p.lnt[i] + lx
		p.sy[i+1] = p.sy[i] + ly
		p.sxx[i+1] = p.sxx[i] + lx*lx
		p.sxy[i+1] = p.sxy[i] + lx*ly
	}
	return p
}

// Weibull is FitWeibull(t[:k]): Σ_{i≤k} ln(t_k/t_i) = k ln t_k − Σ ln t_i.
func (p *Prefix) Weibull(k int) Weibull {
	w := Weibull{N: k, Beta: math.NaN(), Eta: math.NaN()}
	if k < 2 {
		return w
	}
	tk := p.t[k-1]
	w.Tn = tk
	w.Beta = float64(k) / (float64(k)*math.Log(tk) - p.lnt[k])
	w.Eta = tk / math.Pow(float64(k), 1/w.Beta)
	return w
}

// Duane is FitDuane(t[:k]).
func (p *Prefix) Duane(k int) Duane {
	n := float64(k)
	sx, sy := p.lnt[k], p.sy[k]
	den := n*p.sxx[k] - sx*sx
	if k < 2 || den <= 0 {
		return Duane{Gamma: math.NaN(), Alpha: math.NaN()}
	}
	g := (n*p.sxy[k] - sx*sy) / den
	return Duane{Gamma: g, Alpha: math.Exp((sy - g*sx) / n)}
}

// EstimatorNames lists every estimator scored by RebuildMSE in Analyze:
// the Predictors, then the comparison-sampling baselines of SPEC §4.3.
var EstimatorNames = []string{"Weibull MLE", "Weibull corrected", "Duane", "Poisson MLE", "naive", "Cho–GM", "Matloff"}

// Estimates fits every estimator of EstimatorNames to one window's local
// times; the baselines visit every τ (τ ≤ 0: the window's mean interval).
func Estimates(t []float64, tau float64) []Cumulative {
	out := make([]Cumulative, 0, len(EstimatorNames))
	for _, e := range Predictors {
		out = append(out, e.Fit(t))
	}
	b := FitBaselines(t, tau)
	for _, r := range []float64{b.Naive, b.ChoGM, b.Matloff} {
		out = append(out, Cumulative{A: r, B: 1})
	}
	return out
}

// RebuildSSE is Σ_i (t̂_i − t_i)² over the window's events, with the update
// times rebuilt from the estimate, t̂_i = Λ^{−1}(i) (SPEC §4.4 score). It is
// NaN when the estimate is invalid (e.g. Duane with γ ≥ 1, Matloff with
// X = K).
func RebuildSSE(t []float64, c Cumulative) float64 {
	if !c.Valid() {
		return math.NaN()
	}
	s := 0.0
	for i, x := range t {
		d := c.Rebuild(i+1) - x
		s += d * d
	}
	return s
}

// Prediction counts what a crawler does when it visits each window at the
// predicted next update.
type Prediction struct {
	Updates   int // events after the first MinWindow of the window: the ones to detect
	Visits    int
	Detected  int // visits that found at least one update since the previous visit
	Premature int // visits that found none
	Fallbacks int // visits planned by the Poisson MLE because the estimate was invalid
	Capped    bool
}

// Precision is detected updates / visits (SPEC §4.4).
func (p Prediction) Precision() float64 { return float64(p.Detected) / float64(p.Visits) }

// Recall is detected updates / updates to detect: below 1 when one visit
// found several updates at once or the window ended before a visit.
func (p Prediction) Recall() float64 { return float64(p.Detected) / float64(p.Updates) }

// Add accumulates q into p.
func (p *Prediction) Add(q Prediction) {
	p.Updates += q.Updates
	p.Visits += q.Visits
	p.Detected += q.Detected
	p.Premature += q.Premature
	p.Fallbacks += q.Fallbacks
	p.Capped = p.Capped || q.Capped
}

// Predict replays next-update prediction inside one window (local times t,
// see Window): the crawler knows the first MinWindow events exactly and
// stands at c = t_4. Repeatedly it fits the estimator on the k events it
// knows, visits at v = Λ^{−1}(Λ(c) + 1) — one expected update after its
// last visit — and learns every event in (c, v] (as a history or
// Last-Modified would tell it): a detected update if there is one, a
// premature visit if not; then c = v. It stops when the next visit would
// fall after the window's last event t_n, or after 100·n + 100 visits
// (Capped). An invalid estimate or v ≤ c is replaced by the Poisson MLE's
// v = c + t_k/k (counted in Fallbacks).
func Predict(t []float64, e Estimator) Prediction {
	p, _ := predict(context.Background(), t, e)
	return p
}

// predict is Predict checking ctx every 4096 visits (a window of n events
// may take up to 100·n + 100).
func predict(ctx context.Context, t []float64, e Estimator) (Prediction, error) {
	n := len(t)
	var p Prediction
	if n <= MinWindow {
		return p, nil
	}
	p.Updates = n - MinWindow
	k := MinWindow
	c := t[k-1]
	pre := NewPrefix(t)
	for {
		if p.Visits%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				return p, err
			}
		}
		if p.Visits >= 100*n+100 {
			p.Capped = true
			break
		}
		f := e.FitK(pre, k)
		v := math.NaN()
		if f.Valid() {
			v = f.Inverse(f.At(c) + 1)
		}
		if !(v > c) || math.IsInf(v, 0) {
			v = c + t[k-1]/float64(k)
			p.Fallbacks++
		}
		if v > t[n-1] {
			break
		}
		p.Visits++
		j := k
		for j < n && t[j] <= v {
			j++
		}
		if j > k {
			p.Detected++
			k = j
		} else {
			p.Premature++
		}
		c = v
	}
	return p, nil
}
