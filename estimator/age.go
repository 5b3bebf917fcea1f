package estimator

import (
	"fmt"

	"github.com/revisit-dev/revisit/series"
)

// Age-sampling estimators (SPEC §4.1): the crawler sees the age A(s_j) of
// the page at every visit (its Last-Modified header).

// m2 is M2, the ECDF of all ages: Ĝ_2(x_n) = #{j : A(s_j) ≤ x_n}/m. It
// converges to G_U for any sampling process (consistent).
type m2 struct {
	g grid
	h hist
}

func newM2(g grid) *m2 { return &m2{g: g, h: newHist(g)} }

func (e *m2) add(o *Obs) { e.h.addBin(binOf(o.A, e.g.inv, e.g.n), o.A*e.g.inv) }

func (e *m2) cdf() series.CDF {
	return series.CDF{Method: MethodM2, X: e.g.x, P: e.h.ecdf(), Samples: int(e.h.n)}
}

// m1 is M1: keep A(s_j) only where Q_{j,j+1} = 1 — the largest age seen
// inside each detected update cycle — and take the ECDF of the kept ages.
// It converges to the biased Ḡ_1(x) = E[G_U(x+S) − G_U(x)]/E[G_U(S)] (a
// survival function; F_U only for Poisson updates) and keeps the fraction
// p = E[G_U(S)] of the visits.
type m1 struct {
	g     grid
	h     hist
	prevA float64
	pairs int64 // visits j with a successor, the denominator of p
}

func newM1(g grid) *m1 { return &m1{g: g, h: newHist(g)} }

func (e *m1) add(o *Obs) {
	if o.J > 0 {
		e.pairs++
		if o.Q {
			e.h.addBin(binOf(e.prevA, e.g.inv, e.g.n), e.prevA*e.g.inv)
		}
	}
	e.prevA = o.A
}

// p is the fraction of visits M1 kept (NaN before a second visit).
func (e *m1) p() float64 { return float64(e.h.n) / float64(e.pairs) }

func (e *m1) cdf() series.CDF {
	return series.CDF{Method: MethodM1, X: e.g.x, P: e.h.ecdf(), Samples: int(e.h.n)}
}

func (e *m1) note() string {
	return fmt.Sprintf("kept %d of %d visits (p = %.4g)", e.h.n, e.pairs, e.p())
}
