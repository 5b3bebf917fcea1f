package nhpp

import (
	"fmt"
	"math"
)

// State is the trend of the mean time between updates inside a window.
type State int

const (
	Constant   State = iota // MTBU flat within the threshold: homogeneous rate
	Increasing              // MTBU rising: the update rate falls (β < 1)
	Decreasing              // MTBU falling: the update rate rises (β > 1)
)

func (s State) String() string {
	switch s {
	case Increasing:
		return "increasing"
	case Decreasing:
		return "decreasing"
	}
	return "constant"
}

// States lists the window types in report order.
var States = []State{Increasing, Decreasing, Constant}

// Window is a consistent window of a page's update times (SPEC §4.4).
//
// Time origin: times[Origin] — the last update of the previous window, or
// the page's first update for the first window — is the window's time
// zero and is not one of its events. The window's events are
// times[Origin+1 … End], so it has n = End − Origin events at local times
// t_i = times[Origin+i] − times[Origin], i = 1…n, all > 0. Every fit and
// score of this package uses these local times: the window is treated as
// a power-law process started at its origin.
type Window struct {
	Origin, End int
	State       State
}

// N is the number of events, End − Origin.
func (w Window) N() int { return w.End - w.Origin }

// Local returns the window's local event times t_1…t_n.
func (w Window) Local(times []float64) []float64 {
	t := make([]float64, w.N())
	for i := range t {
		t[i] = times[w.Origin+1+i] - times[w.Origin]
	}
	return t
}

// MinWindow is the smallest number of events a window keeps after merging:
// the bias-corrected intensity needs n ≥ 4.
const MinWindow = 4

// Windows cuts the ascending update times of one page into consistent
// windows, SPEC §4.4, following the page's mean time between updates
// MTBU(t_i) = t_i / i, where t_i = times[i] − times[0] is measured from the
// page's first update and i counts the updates after it. (The page-wide
// MTBU is a running mean, smooth enough that its trend is not lost in the
// noise of single intervals; the fits then use each window's local times,
// see Window.)
//
//  1. A window starts with its first 3 events; its state is Increasing when
//     MTBU(t_3) > (1+θ)·MTBU(t_1), Decreasing when MTBU(t_3) < (1−θ)·MTBU(t_1),
//     Constant otherwise.
//  2. It extends one event at a time while the next MTBU agrees with the
//     state within θ: for Increasing, MTBU stays ≥ (1−θ)·(its running
//     maximum); for Decreasing, ≤ (1+θ)·(its running minimum); for
//     Constant, max/min of MTBU over the window stays ≤ (1+θ)/(1−θ).
//  3. When the next event disagrees, the window is cut where the MTBU
//     trend turned — at the running maximum (Increasing), the running
//     minimum (Decreasing), or for Constant the last extreme in the
//     direction opposite to the break within the window's second half —
//     but never before its 3rd event; the next window's origin is the cut.
//  4. Windows with fewer than MinWindow events are merged: the first half
//     of their events (rounded down) goes to the left neighbour, the rest
//     to the right one (all to the only neighbour at either end).
//
// θ must lie in (0, 1). Fewer than 2 times give no window; a page too
// short for one full window gives one window of all its events.
func Windows(times []float64, theta float64) ([]Window, error) {
	if !(theta > 0 && theta < 1) {
		return nil, fmt.Errorf("nhpp: threshold θ = %g must lie in (0, 1)", theta)
	}
	for i := 1; i < len(times); i++ {
		if !(times[i] > times[i-1]) {
			return nil, fmt.Errorf("nhpp: update times not strictly increasing at index %d (%g after %g)", i, times[i], times[i-1])
		}
	}
	last := len(times) - 1
	if last < 1 {
		return nil, nil
	}
	var ws []Window
	o := 0
	for o < last {
		if o+3 > last {
			ws = append(ws, Window{Origin: o, End: last, State: Constant})
			break
		}
		m := func(k int) float64 { return (times[k] - times[0]) / float64(k) }
		w := Window{Origin: o, End: o + 3}
		r := m(o+3) / m(o+1)
		switch {
		case r > 1+theta:
			w.State = Increasing
		case r < 1-theta:
			w.State = Decreasing
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		arglo, arghi := o, o
		for k := o + 1; k <= o+3; k++ {
			if v := m(k); v <= lo {
				lo, arglo = v, k
			}
			if v := m(k); v >= hi {
				hi, arghi = v, k
			}
		}
		cut := -1
		for k := o + 4; k <= last; k++ {
			v := m(k)
			breach, up := false, false
			switch w.State {
			case Increasing:
				breach = v < (1-theta)*hi
			case Decreasing:
				breach, up = v > (1+theta)*lo, true
			case Constant:
				if v > lo*(1+theta)/(1-theta) {
					breach, up = true, true
				} else if v < hi*(1-theta)/(1+theta) {
					breach = true
				}
			}
			if breach {
				switch w.State {
				case Increasing:
					cut = arghi
				case Decreasing:
					cut = arglo
				default:
					cut = lastExtreme(m, o+(k-o)/2, k-1, up)
				}
				if cut < o+3 {
					cut = k - 1
				}
				break
			}
			if v <= lo {
				lo, arglo = v, k
			}
			if v >= hi {
				hi, arghi = v, k
			}
			w.End = k
		}
		if cut >= 0 {
			w.End = cut
		}
		ws = append(ws, w)
		o = w.End
	}
	return merge(ws), nil
}

// lastExtreme is the index in [from, to] of the minimum MTBU (when the
// break went up: the rate fell after it) or of the maximum (when it went
// down), the latest one on ties.
func lastExtreme(m func(int) float64, from, to int, up bool) int {
	best := from
	for k := from; k <= to; k++ {
		if (up && m(k) <= m(best)) || (!up && m(k) >= m(best)) {
			best = k
		}
	}
	return best
}

// merge removes windows with fewer than MinWindow events, half of their
// events to each neighbour.
func merge(ws []Window) []Window {
	for len(ws) > 1 {
		j := -1
		for i, w := range ws {
			if w.N() < MinWindow {
				j = i
				break
			}
		}
		if j < 0 {
			break
		}
		w := ws[j]
		switch {
		case j == 0:
			ws[1].Origin = w.Origin
		case j == len(ws)-1:
			ws[j-1].End = w.End
		default:
			b := w.Origin + w.N()/2
			ws[j-1].End = b
			ws[j+1].Origin = b
		}
		ws = append(ws[:j], ws[j+1:]...)
	}
	return ws
}
