package model

import (
	"errors"
	"fmt"
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
