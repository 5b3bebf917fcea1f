package nhpp

import (
	"math"

	"github.com/revisit-dev/revisit/estimator"
)

// Cumulative is an estimated mean-value function Λ(t) = A·t^B of a window's
// update process in local time (see Window): the expected number of updates
// in (0, t]. Every estimator of this package has this form; its MTBU is
// t/Λ(t) and its intensity λ(t) = A·B·t^{B−1}.
type Cumulative struct {
	A, B float64
}

// Valid reports whether Λ is an increasing function (A, B > 0, finite).
func (c Cumulative) Valid() bool {
	return c.A > 0 && c.B > 0 && !math.IsInf(c.A, 0) && !math.IsInf(c.B, 0)
}

// At is Λ(t) = A t^B.
func (c Cumulative) At(t float64) float64 { return c.A * math.Pow(t, c.B) }

// Intensity is λ(t) = A B t^{B−1}.
func (c Cumulative) Intensity(t float64) float64 { return c.A * c.B * math.Pow(t, c.B-1) }

// Inverse is the time at which Λ reaches y: (y/A)^{1/B}.
func (c Cumulative) Inverse(y float64) float64 { return math.Pow(y/c.A, 1/c.B) }

// Rebuild is the i-th update time the estimate implies, t̂_i = Λ^{−1}(i):
// the time at which t̂_i = i·MTBU(t̂_i).
func (c Cumulative) Rebuild(i int) float64 { return c.Inverse(float64(i)) }

// Weibull is the power-law process (Weibull) maximum-likelihood fit to the
// local event times t_1 < … < t_n of a window (failure-truncated at t_n),
// SPEC §4.4:
//
//	β̂ = n / Σ_{i=1}^{n} ln(t_n/t_i),   η̂ = t_n / n^{1/β̂},
//
// with Λ(t) = (t/η̂)^β̂ = n (t/t_n)^β̂. It needs n ≥ 2.
type Weibull struct {
	N         int
	Beta, Eta float64
	Tn        float64
}

// FitWeibull computes the MLE from the local event times.
func FitWeibull(t []float64) Weibull {
	n := len(t)
	w := Weibull{N: n, Beta: math.NaN(), Eta: math.NaN()}
	if n < 2 {
		return w
	}
	tn := t[n-1]
	s := 0.0
	for _, x := range t {
		s += math.Log(tn / x)
	}
	w.Tn = tn
	w.Beta = float64(n) / s
	w.Eta = tn / math.Pow(float64(n), 1/w.Beta)
	return w
}

// Cumulative is Λ̂(t) = (t/η̂)^β̂.
func (w Weibull) Cumulative() Cumulative {
	return Cumulative{A: float64(w.N) / math.Pow(w.Tn, w.Beta), B: w.Beta}
}

// BetaCorrected is the bias-corrected shape β̃ = (n−2)/n · β̂ (unbiased for
// failure-truncated data: E[β̂] = n β/(n−2)).
func (w Weibull) BetaCorrected() float64 {
	return float64(w.N-2) / float64(w.N) * w.Beta
}

// Corrected is the bias-corrected intensity of SPEC §4.4,
//
//	λ̌(t) = (n−3)/(n−2) · n β̃ t^{β̃−1} / t_n^{β̃},
//
// as its mean-value function Λ̌(t) = (n−3)/(n−2) · n (t/t_n)^{β̃}. It needs
// n ≥ 4 (invalid otherwise).
func (w Weibull) Corrected() Cumulative {
	n := float64(w.N)
	if w.N < 4 {
		return Cumulative{A: math.NaN(), B: math.NaN()}
	}
	b := w.BetaCorrected()
	return Cumulative{A: (n - 3) / (n - 2) * n / math.Pow(w.Tn, b), B: b}
}

// Duane is the Duane-plot fit: the least-squares line of ln MTBU(t_i) =
// ln(t_i/i) on ln t_i, slope γ and intercept ln α, so MTBU(t) = α t^γ.
// SPEC §4.4 writes its rate λ(t) = t^{−γ}/α, which is N(t)/t, the
// cumulative mean rate; the mean-value function is Λ(t) = t^{1−γ}/α and
// the instantaneous intensity (1−γ) t^{−γ}/α.
type Duane struct {
	Gamma, Alpha float64
}

// FitDuane regresses on the local event times; it needs n ≥ 2 distinct
// times.
func FitDuane(t []float64) Duane {
	var sx, sy, sxx, sxy float64
	n := float64(len(t))
	for i, x := range t {
		lx := math.Log(x)
		ly := lx - math.Log(float64(i+1))
		sx += lx
		sy += ly
		sxx += lx * lx
		sxy += lx * ly
	}
	den := n*sxx - sx*sx
	if len(t) < 2 || den <= 0 {
		return Duane{Gamma: math.NaN(), Alpha: math.NaN()}
	}
	g := (n*sxy - sx*sy) / den
	return Duane{Gamma: g, Alpha: math.Exp((sy - g*sx) / n)}
}

// Failed reports a Duane fit that describes no power-law process: γ or α
// not finite, α ≤ 0, or γ outside (−1, 1). With γ ≥ 1 the mean-value
// function Λ(t) = t^{1−γ}/α would not increase; with γ ≤ −1 the count
// would grow at least as fast as t², which in a window is a burst after a
// gap rather than a trend (on the real Anarchism history such windows give
// γ = −1.9 and −5.3, with α = MTBU at t = 1 unit extrapolated to 8·10⁸
// and 1.8·10¹⁰).
func (d Duane) Failed() bool {
	return math.IsNaN(d.Gamma) || math.IsInf(d.Gamma, 0) || math.IsNaN(d.Alpha) || math.IsInf(d.Alpha, 0) ||
		d.Alpha <= 0 || d.Gamma <= -1 || d.Gamma >= 1
}

// Rate is SPEC's λ(t) = t^{−γ}/α.
func (d Duane) Rate(t float64) float64 { return math.Pow(t, -d.Gamma) / d.Alpha }

// Cumulative is Λ(t) = t^{1−γ}/α (valid for γ < 1).
func (d Duane) Cumulative() Cumulative { return Cumulative{A: 1 / d.Alpha, B: 1 - d.Gamma} }

// Poisson is the homogeneous maximum-likelihood rate of a window, λ = n/t_n,
// with Λ(t) = λt.
func Poisson(t []float64) Cumulative {
	if len(t) == 0 {
		return Cumulative{A: math.NaN(), B: 1}
	}
	return Cumulative{A: float64(len(t)) / t[len(t)-1], B: 1}
}

// Baselines are the comparison-sampling Poisson rates of SPEC §4.3
// (estimator.Naive, estimator.ChoGarciaMolina, estimator.Matloff) applied to one
// window: a crawler visits at τ, 2τ, …, Kτ ≤ t_n (local time) and X
// of its K visits find an update since the previous one.
type Baselines struct {
	Tau     float64
	K, X    int
	Naive   float64 // X/(Kτ)
	ChoGM   float64 // −(1/τ) ln((K − X + 0.5)/(K + 0.5))
	Matloff float64 // −(1/τ) ln(1 − X/K); NaN when X = K (undefined)
}

// FitBaselines counts the visits at multiples of τ (τ ≤ 0 uses the window's
// mean interval t_n/n) and computes the three rates.
func FitBaselines(t []float64, tau float64) Baselines {
	n := len(t)
	b := Baselines{Naive: math.NaN(), ChoGM: math.NaN(), Matloff: math.NaN()}
	if n == 0 {
		return b
	}
	tn := t[n-1]
	if !(tau > 0) {
		tau = tn / float64(n)
	}
	b.Tau = tau
	b.K = int(math.Floor(tn/tau + 1e-9))
	if b.K == 0 {
		return b
	}
	j := 0
	for k := 1; k <= b.K; k++ {
		v := float64(k) * tau
		if k == b.K && math.Abs(v-tn) <= 1e-9*tn {
			v = tn // the last visit at t_n up to rounding
		}
		found := false
		for j < n && t[j] <= v {
			j++
			found = true
		}
		if found {
			b.X++
		}
	}
	// The replay's Poisson baselines (docs/methods.md#poisson-baselines),
	// with n = K visits spanning Kτ.
	b.Naive, _ = estimator.Naive(b.X, b.K, float64(b.K)*tau)
	b.ChoGM, _ = estimator.ChoGarciaMolina(b.X, b.K, tau)
	b.Matloff, _ = estimator.Matloff(b.X, b.K, tau) // NaN when X = K
	return b
}
