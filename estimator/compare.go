package estimator

import (
	"math"

	"github.com/revisit-dev/revisit/series"
)

// Comparison-sampling estimators (SPEC §4.1): the crawler only learns
// Q_{j−1,j}, whether the page changed since its previous visit. A visit
// with Q_{j−1,j} = 1 is a detection.
//
// The first visit is a detection too: Q_{0,1} = 1 for the page's creation.
// The first visit s_1 lies in the first cycle after the first update u_1
// (the start of the window, s_1 = U·S_0 ≥ u_1), so at the crawler's
// virtual previous visit s_1 − S_0 (s_1 − Δ for constant delays) the page
// did not exist yet: a crawler that meets a page for the first time knows
// it is new to it, exactly as a later visit knows that the page changed.
// Without this rule the first update cycle, U_1, would be missing from
// every comparison estimator (nothing about the age would be known before
// the first change detected after u_1): on the real Anarchism history,
// U_1 = 1,145 h is 1.6 % of the lifetime and its loss alone put M4 and M5
// 1.2 percentage points of KS distance from G_U. The first visit is an
// ordinary detection in every formula below (M3's first sample is the
// distance from it to the next detection, M4's a_1 = Δ, M5 counts that
// sample, G-M4's s*_1 is the virtual previous visit); M6 needs no rule, as
// it pairs real visits only, by their update cycles.

// cmpConst holds M3, M4 and M5, which need constant delays Δ; all three work
// in integer multiples of Δ, so no rounding is involved.
//
// M3 ("create-based") samples D_k = (r_{k+1} − r_k)Δ, the distance between
// consecutive detections r_k (r_1 = 1, the first visit); its ECDF converges
// to the biased 1 − Ḡ_3(x_n) with Ḡ_3(x_n) = (G_U(x_{n+1}) − G_U(x_n))/G_U(Δ)
// and E[D_3] = Δ/G_U(Δ).
//
// M4 keeps a_j = Δ if Q_{j−1,j} = 1 else a_{j−1} + Δ, with a_1 = Δ
// (= A⁺(s_j) = Δ⌈A(s_j)/Δ⌉ for visits not exactly at an update), and takes
// the ECDF of all a_j: Ĝ_4(x_n) → G_U(x_n). On the grid it equals M2 over
// the same visits, because A(s_j) ≤ nΔ ⇔ A⁺(s_j) ≤ nΔ.
//
// M5 is G_5(x_n) = (1/T) Σ_j min(x_n, a_j) Q_{j,j+1}. The a_j with
// Q_{j,j+1} = 1 are exactly M3's samples D_k, and T is taken as Σ_k D_k =
// (r_K − r_1)Δ, the span the samples cover (from the first visit to the
// last detection), so that G_5 reaches 1: G_5(x_n) = Σ_k min(x_n, D_k)/Σ_k
// D_k, the age distribution of M3's samples. It is M4 without the visits
// after the last detection.
type cmpConst struct {
	g        grid
	last     int // index of the last detection, −1 before the first
	m3, m4   hist
	sumD     int64 // Σ D_k/Δ
	detected int64
}

func newCmpConst(g grid) *cmpConst {
	return &cmpConst{g: g, last: -1, m3: newHist(g), m4: newHist(g)}
}

func (e *cmpConst) add(o *Obs) {
	if o.Q || (o.J == 0 && !o.Ref) { // the first visit detects the creation
		e.detected++
		if e.last >= 0 {
			d := o.J - e.last
			e.m3.addBin(min(d, e.g.n+1), float64(d))
			e.sumD += int64(d)
		}
		e.last = o.J
	}
	if e.last >= 0 {
		a := o.J - e.last + 1
		e.m4.addBin(min(a, e.g.n+1), float64(a))
	}
}

func (e *cmpConst) m3CDF() series.CDF {
	return series.CDF{Method: MethodM3, X: e.g.x, P: e.m3.ecdf(), Samples: int(e.m3.n)}
}

func (e *cmpConst) m4CDF() series.CDF {
	return series.CDF{Method: MethodM4, X: e.g.x, P: e.m4.ecdf(), Samples: int(e.m4.n)}
}

// meanD3 is the mean of M3's samples, the estimate of E[D_3] = Δ/G_U(Δ).
func (e *cmpConst) meanD3() float64 {
	if e.m3.n == 0 {
		return math.NaN()
	}
	return float64(e.sumD) / float64(e.m3.n) * e.g.step
}

// m5CDF is G_5(x_n) = Σ_k min(n, D_k/Δ) / Σ_k D_k/Δ from M3's histogram.
func (e *cmpConst) m5CDF() series.CDF {
	p := make([]float64, len(e.g.x))
	if e.sumD == 0 {
		for i := range p {
			p[i] = math.NaN()
		}
		return series.CDF{Method: MethodM5, X: e.g.x, P: p}
	}
	// Σ_k min(n, d_k) = Σ_{d ≤ n} d·c_d + n·#{d > n}.
	below, sumBelow := int64(0), int64(0)
	for n := range p {
		below += e.m3.c[n]
		sumBelow += int64(n) * e.m3.c[n]
		p[n] = float64(sumBelow+int64(n)*(e.m3.n-below)) / float64(e.sumD)
	}
	return series.CDF{Method: MethodM5, X: e.g.x, P: p, Samples: int(e.m3.n)}
}

// gm4 is G-M4, the generalisation of M4 to random delays: with
// s*_j = max{s_k : k < j, Q_kj = 1} (the visit just before the last
// detection at or before j) it samples s_j − s*_j and takes the ECDF. The
// first visit detects the creation, so s*_1 is the crawler's virtual
// previous visit s_1 − S_0 (Obs.Prev) and every visit gives a sample. It
// is biased for random S (SPEC shows it for contrast); with constant Δ it
// equals M4.
type gm4 struct {
	g     grid
	h     hist
	prevS float64
	star  float64
	seen  bool
}

func newGM4(g grid) *gm4 { return &gm4{g: g, h: newHist(g)} }

func (e *gm4) add(o *Obs) {
	switch {
	case o.J == 0 && !o.Ref: // the creation, detected at the first visit
		e.star, e.seen = o.Prev, true
	case o.Q:
		e.star, e.seen = e.prevS, true
	}
	if e.seen {
		d := o.S - e.star
		e.h.addBin(binOf(d, e.g.inv, e.g.n), d*e.g.inv)
	}
	e.prevS = o.S
}

func (e *gm4) cdf() series.CDF {
	return series.CDF{Method: MethodGM4, X: e.g.x, P: e.h.ecdf(), Samples: int(e.h.n)}
}
