package model

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// NHPP is a non-homogeneous Poisson process (plus the creation update at
// start) with rate function
//
//	λ(t) = Rate · (1 + Trend·(t − start)/(end − start)) · (1 + Day·cos(2πt/P_day)) · (1 + Week·cos(2πt/P_week))
//
// where t counts units from the Unix epoch, so the daily cycle peaks at
// 00:00 UTC and the weekly one on Thursday 00:00 UTC (the epoch's weekday).
// Trend is the relative change of the rate across the window (−1 ≤ Trend:
// the rate goes from Rate to Rate·(1 + Trend)); Day and Week are relative
// amplitudes in [0, 1]. Times are drawn exactly by thinning (Lewis &
// Shedler): candidates from a homogeneous Poisson process of rate
// λ_max = Rate·max(1, 1 + Trend)·(1 + Day)·(1 + Week), each kept with
// probability λ(t)/λ_max. The expected number of updates in [a, b) is
// Λ = ∫_a^b λ(t) dt (Integral). DayPeriod is one day in units
// (24 for hours); the week is 7 days.
type NHPP struct {
	Rate, Trend, Day, Week float64
	DayPeriod              float64
}

// Lambda is the rate λ(t) in the window [start, end).
func (p NHPP) Lambda(t, start, end float64) float64 {
	l := p.Rate
	if p.Trend != 0 {
		l *= 1 + p.Trend*(t-start)/(end-start)
	}
	if p.Day != 0 {
		l *= 1 + p.Day*math.Cos(2*math.Pi*t/p.DayPeriod)
	}
	if p.Week != 0 {
		l *= 1 + p.Week*math.Cos(2*math.Pi*t/(7*p.DayPeriod))
	}
	return l
}

func (p NHPP) lambdaMax() float64 {
	return p.Rate * math.Max(1, 1+p.Trend) * (1 + p.Day) * (1 + p.Week)
}

// AppendTimes implements Process (by thinning; exact).
func (p NHPP) AppendTimes(dst []float64, r *rand.Rand, start, end float64, max int) ([]float64, error) {
	n0 := len(dst)
	dst = append(dst, start)
	lm := p.lambdaMax()
	for t := start + r.ExpFloat64()/lm; t < end; t += r.ExpFloat64() / lm {
		if r.Float64()*lm < p.Lambda(t, start, end) {
			dst = append(dst, t)
			if err := tooMany(len(dst)-n0, max); err != nil {
				return dst, err
			}
		}
	}
	return dst, nil
}

// Integral is Λ(a, b) = ∫_a^b λ(t) dt for the window [start, end), by
// composite Simpson with at least 64 panels per day (relative error below
// 1e-9 for these smooth rates).
func (p NHPP) Integral(a, b, start, end float64) float64 {
	if b <= a {
		return 0
	}
	n := int(math.Ceil((b-a)/p.DayPeriod*64)) * 2
	if n < 1000 {
		n = 1000
	}
	h := (b - a) / float64(n)
	s := p.Lambda(a, start, end) + p.Lambda(b, start, end)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * p.Lambda(a+float64(i)*h, start, end)
	}
	return s * h / 3
}

// Mean is 1/Rate without a trend (the cycles average out: their
// frequencies differ, so the mean of the product is 1); NaN with a trend,
// which has no long-run mean: use Integral over the window instead.
func (p NHPP) Mean() float64 {
	if p.Trend != 0 {
		return math.NaN()
	}
	return 1 / p.Rate
}

// Interval is nil: the intervals of an NHPP are not identically
// distributed — except without trend and cycles, where the process is
// homogeneous Poisson and F_U is exponential with rate Rate.
func (p NHPP) Interval() Dist {
	if p.Trend == 0 && p.Day == 0 && p.Week == 0 {
		return Exponential{Rate: p.Rate}
	}
	return nil
}

func (p NHPP) String() string {
	return fmt.Sprintf("nhpp:%g,%g,%g,%g", p.Rate, p.Trend, p.Day, p.Week)
}
