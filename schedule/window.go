package schedule

import (
	"fmt"
	"strconv"
	"strings"
)

// window is the training window of Validate's estimated plans: the last
// frac of the training span (1: all of it, each page from its first
// update), or, auto, the fraction each plan does best with when
// back-tested inside the training window (backtest): a process that
// changes over time is planned better from its recent past, one that
// does not from all of it.
type window struct {
	frac float64
	auto bool
}

// windowFracs are the fractions auto chooses from.
var windowFracs = []float64{1, 0.5, 0.25, 0.125}

// parseWindow reads --train-window: "" or "all", a fraction in (0, 1],
// or "auto".
func parseWindow(s string) (window, error) {
	switch s = strings.TrimSpace(strings.ToLower(s)); s {
	case "", "all":
		return window{frac: 1}, nil
	case "auto":
		return window{frac: 1, auto: true}, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f > 0 && f <= 1) {
		return window{}, fmt.Errorf("training window %q: want all, auto or a fraction in (0, 1]", s)
	}
	return window{frac: f}, nil
}

func (w window) String() string {
	if w.auto {
		return "auto"
	}
	if w.frac == 1 {
		return "all"
	}
	return "last " + strconv.FormatFloat(w.frac, 'g', 4, 64)
}

// backtest chooses each plan's training window for the split t0 without
// looking past it: the training window's own last part [t0 − V, t0), V
// the evaluation window's length t1 − t0 but at most half the training
// span, plays the evaluation window; each fraction of windowFracs is
// crawled up to t0 − V, every plan computed from it and scored by its
// realised freshness on the true updates of [t0 − V, t0). Each plan gets
// the fraction it did best with (the longer window on a tie).
func (e *validation) backtest(seed uint64, t0, t1 float64) (map[string]float64, error) {
	v := min(t1-t0, t0/2)
	inner := t0 - v
	best := map[string]float64{}
	score := map[string]float64{}
	for _, f := range windowFracs {
		in, err := e.estimate(seed, inner, f)
		if err != nil {
			return nil, err
		}
		res, err := Plan(in, e.popt)
		if err != nil {
			return nil, err
		}
		for _, pr := range res.Plans {
			phi := weightedMean(PageFreshness(e.all, pr.F, inner, t0), res.W)
			if old, ok := score[pr.Name]; !ok || phi > old {
				score[pr.Name], best[pr.Name] = phi, f
			}
		}
	}
	return best, nil
}
