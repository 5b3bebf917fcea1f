package model

import (
	"fmt"
	"math"
	"math/rand/v2"
)

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
