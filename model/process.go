package model

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Process is an update process: it generates the update times of one page
// in a window. Every process starts with an update at start (the page's
// creation, like a wiki page's first revision) and then produces its
// updates in (start, end). Times are in the caller's unit (hours, days),
// counted from the Unix epoch so that calendar cycles (nhpp) have a phase.
type Process interface {
	// AppendTimes appends the update times in [start, end), increasing,
	// to dst and returns it. With max > 0 it stops with ErrTooMany once
	// more than max times would be produced, so a mistyped rate cannot
	// exhaust memory.
	AppendTimes(dst []float64, r *rand.Rand, start, end float64, max int) ([]float64, error)
	// Mean is the long-run mean interval E[U] in closed form; +Inf when it
	// is infinite and NaN when the process has none (a trend).
	Mean() float64
	// Interval is the stationary distribution F_U of the intervals when it
	// has a closed form (renewal processes; the marginal of the LRD model,
	// for which G_U = Interval().AgeCDF too by ergodicity), nil otherwise.
	Interval() Dist
	// String is the spec ParseProcess reads back.
	String() string
}

// ErrTooMany is returned by AppendTimes when a process produces more times
// than the limit it was given.
var ErrTooMany = errors.New("too many updates in the window")

// Times returns the update times of p in [start, end) without a limit.
func Times(p Process, r *rand.Rand, start, end float64) ([]float64, error) {
	return p.AppendTimes(nil, r, start, end, 0)
}

func tooMany(n, max int) error {
	if max > 0 && n > max {
		return fmt.Errorf("%w (more than %d)", ErrTooMany, max)
	}
	return nil
}

// Renewal is the ordinary renewal process with i.i.d. intervals U ~ F_U
// starting with an update at start: u_0 = start, u_{i+1} = u_i + U_i.
// Its intervals follow F_U exactly, E[U] = U.Mean(), and G_U is
// U.AgeCDF (SPEC §3, §6.1).
type Renewal struct{ U Dist }

// AppendTimes implements Process.
func (p Renewal) AppendTimes(dst []float64, r *rand.Rand, start, end float64, max int) ([]float64, error) {
	n0 := len(dst)
	for t := start; t < end; t += p.U.Rand(r) {
		dst = append(dst, t)
		if err := tooMany(len(dst)-n0, max); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// Mean is E[U].
func (p Renewal) Mean() float64 { return p.U.Mean() }

// Interval is F_U.
func (p Renewal) Interval() Dist { return p.U }

// String is the interval distribution's spec (a renewal process is written
// as its F_U: "pareto:3,1").
func (p Renewal) String() string { return p.U.String() }

// OnOff alternates ON and OFF periods with lengths drawn from On and Off
// (heavy-tailed for bursty pages); during ON periods updates form a Poisson
// process of rate Rate, during OFF periods there are none. The page is
// created at start, at the beginning of an ON period. Not a renewal
// process: intervals inside a burst are short and the ones spanning an OFF
// period long, so the CoV exceeds 1. In the long run
// E[U] = (E[ON] + E[OFF]) / (Rate·E[ON]) (renewal-reward: updates per cycle
// have mean Rate·E[ON]); F_U has no closed form.
type OnOff struct {
	Rate    float64
	On, Off Dist
}

// AppendTimes implements Process.
func (p OnOff) AppendTimes(dst []float64, r *rand.Rand, start, end float64, max int) ([]float64, error) {
	n0 := len(dst)
	dst = append(dst, start)
	t := start
	for t < end {
		onEnd := t + p.On.Rand(r)
		for s := t + r.ExpFloat64()/p.Rate; s < onEnd && s < end; s += r.ExpFloat64() / p.Rate {
			dst = append(dst, s)
			if err := tooMany(len(dst)-n0, max); err != nil {
				return dst, err
			}
		}
		t = onEnd + p.Off.Rand(r)
	}
	return dst, nil
}

// Mean is (E[ON] + E[OFF]) / (Rate·E[ON]).
func (p OnOff) Mean() float64 {
	on, off := p.On.Mean(), p.Off.Mean()
	if math.IsInf(on, 1) {
		if math.IsInf(off, 1) {
			return math.NaN() // no long-run fraction of time ON
		}
		return 1 / p.Rate // ON periods dominate: Poisson in the long run
	}
	return (on + off) / (p.Rate * on)
}

// Interval is nil: F_U of an ON/OFF process has no closed form.
func (p OnOff) Interval() Dist { return nil }

func (p OnOff) String() string {
	return fmt.Sprintf("onoff:%g,(%s),(%s)", p.Rate, p.On, p.Off)
}
