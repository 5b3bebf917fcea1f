package estimator

import (
	"context"
	"fmt"
	"math"
)

// Bounds on the work of one page × sampler job (Options.MaxVisits and
// MaxPairs). Crawling with every method costs tens of nanoseconds a visit
// and M6 about a nanosecond a pair on one core, so a job at the defaults
// takes under a minute of CPU for its visits and for M6's pairs
// (bench/replay-bounds.sh runs jobs at and beyond the bounds). Memory
// does not grow with either: the observers keep histograms on the grid,
// and M6 keeps only the visits within x_max of the last one,
// at most about √(2·MaxPairs) of them (16 bytes each, 5 MB).
const (
	DefaultMaxVisits int64 = 500_000_000
	DefaultMaxPairs  int64 = 50_000_000_000
)

// MaxAutoGrid bounds the grid x_max/h of an automatic h, chosen per page
// (replay's DefaultsOf) or per URL (ObservedDefaults): five times the
// 1000/0.05 = 20,000 points of x_max = 1000 h at h = 0.05 h; a heavy-tailed page whose 0.99
// quantile of G_U is 10⁴·E[U] would otherwise need 10⁶.
const MaxAutoGrid = 100_000

// MaxGrid is the largest grid a replay accepts: x_max/step ≤ 10⁶ points.
// Every estimate of a page holds its grid (about 200 bytes per point over
// a page's rows), so a larger grid costs more memory per page than the
// crawl itself.
const MaxGrid = 1e6

// Skip reasons of page × sampler jobs left out by the limits (Meta.Skipped).
const (
	SkipMaxVisits = "over_max_visits"
	SkipMaxPairs  = "over_max_pairs"
	// SkipMaxGrid is a page × sampler whose grid x_max/step, chosen per
	// page, exceeds MaxGrid points.
	SkipMaxGrid = "over_max_grid"
)

// Work is the expected work of one crawl of a window of length T: Visits
// = λT + 1, and, for M6 with random delays, Pairs = the pairs of visits
// within x_max it counts: each visit pairs with the W = λ(x_max + h)
// visits before it (fewer at the start of the window), Σ_j min(j, W) =
// V²/2 if V ≤ W, else V·W − W²/2. M6 on constant delays and the other
// methods visit no pairs.
type Work struct {
	Visits float64
	Pairs  float64
}

// EstimateWork is the expected Work of crawling a window of length T (in
// units) with sampler s under cfg.
func EstimateWork(s Sampler, T float64, cfg *Config) Work {
	v := s.Rate*T + 1
	w := Work{Visits: v}
	m6 := len(cfg.Methods) == 0
	for _, m := range cfg.Methods {
		m6 = m6 || m == MethodM6
	}
	if m6 && !s.Constant() {
		win := s.Rate * (cfg.XMax + cfg.H)
		if v <= win {
			w.Pairs = v * v / 2
		} else {
			w.Pairs = v*win - win*win/2
		}
	}
	return w
}

// LimitError is a page × sampler job left out because its work exceeds a
// limit: its expected work before the crawl, or, as a guard, the work
// actually done reaching twice the limit.
type LimitError struct {
	Reason string  // SkipMaxVisits or SkipMaxPairs
	Work   float64 // visits or pairs, expected or reached
	Limit  int64
}

func (e *LimitError) Error() string {
	what, flag := "visits", "--max-visits"
	switch e.Reason {
	case SkipMaxPairs:
		what, flag = "M6 pairs", "--max-pairs"
	case SkipMaxGrid:
		return fmt.Sprintf("x_max/step = %.3g grid points, more than %d (give --x-max, or a coarser step)", e.Work, e.Limit)
	}
	return fmt.Sprintf("about %.3g %s, more than %s %d", e.Work, what, flag, e.Limit)
}

// Check is the LimitError of w under the limits (nil when it fits).
func (w Work) Check(maxVisits, maxPairs int64) *LimitError {
	if !(w.Visits <= float64(maxVisits)) {
		return &LimitError{SkipMaxVisits, w.Visits, maxVisits}
	}
	if !(w.Pairs <= float64(maxPairs)) {
		return &LimitError{SkipMaxPairs, w.Pairs, maxPairs}
	}
	return nil
}

// PollEvery is how many loop iterations pass between checks of the
// context and the limits inside a crawl.
const PollEvery = 4096

// Guard stops a crawl when its context is cancelled or its work exceeds
// the limits (0: none): the crawler polls it every PollEvery steps, M6
// while it pairs visits. A nil *Guard never stops. One crawl writes its
// reason, from its own goroutine.
type Guard struct {
	ctx                 context.Context
	done                <-chan struct{}
	maxVisits, maxPairs int64 // the limits
	capVisits, capPairs int64 // the run-time caps: twice the limits
	err                 error // why the crawl stopped
}

// NewGuard watches ctx with run-time caps of twice the limits (the
// estimate checked before the crawl is an expectation; the caps only stop
// a crawl that runs far beyond it).
func NewGuard(ctx context.Context, maxVisits, maxPairs int64) *Guard {
	return &Guard{ctx: ctx, done: ctx.Done(), maxVisits: maxVisits, maxPairs: maxPairs,
		capVisits: satDouble(maxVisits), capPairs: satDouble(maxPairs)}
}

func satDouble(x int64) int64 {
	if x <= 0 || x > math.MaxInt64/2 {
		return x
	}
	return 2 * x
}

// cancelled reports whether the context is done, without blocking; safe
// from any goroutine.
func (g *Guard) cancelled() bool {
	if g == nil || g.done == nil {
		return false
	}
	select {
	case <-g.done:
		return true
	default:
		return false
	}
}

// Poll records and returns why the crawl must stop after visits visits,
// or nil.
func (g *Guard) Poll(visits int) error {
	if g == nil {
		return nil
	}
	if g.err != nil {
		return g.err
	}
	if g.cancelled() {
		g.err = g.ctx.Err()
	} else if g.capVisits > 0 && int64(visits) > g.capVisits {
		g.err = &LimitError{SkipMaxVisits, float64(visits), g.maxVisits}
	}
	return g.err
}

// Stopped reports whether the crawl has a reason to stop already.
func (g *Guard) Stopped() bool { return g != nil && g.err != nil }

// MaxPairs is the guard's limit on M6's pairs (0 for a nil guard).
func (g *Guard) MaxPairs() int64 {
	if g == nil {
		return 0
	}
	return g.maxPairs
}
