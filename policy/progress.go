package policy

import (
	"time"

	"github.com/revisit-dev/revisit/internal/human"
)

// The policies stage replays every policy over every cycle, then greedy at
// each sample size and every policy at each budget of the sweeps: on a
// corpus of 10,000 pages and 500 cycles that is tens of seconds. Run
// counts the cycles replayed against the total it works out before the
// first (cycles · (policies + sample sizes + budgets · policies)) and
// tells Options.Progress after every cycle and Options.Log every
// LogEvery, as replay logs its page×sampler jobs.

// LogEvery is the time between two progress lines of Run through
// Options.Log; the first comes after LogEvery too, so that a run shorter
// than that prints none.
const LogEvery = 2 * time.Second

// progress counts the cycles replayed by Run.
type progress struct {
	done, total int
	start, last time.Time
	now         func() time.Time
	every       time.Duration
	fn          func(done, total int)
	logf        func(format string, a ...any)
}

func newProgress(opt Options, total int) *progress {
	if opt.Progress == nil && opt.Log == nil {
		return nil
	}
	now := opt.now
	if now == nil {
		now = time.Now
	}
	t := now()
	return &progress{total: total, start: t, last: t, now: now, every: LogEvery, fn: opt.Progress, logf: opt.Log}
}

// cycle records one cycle replayed.
func (p *progress) cycle() {
	if p == nil {
		return
	}
	p.done++
	if p.fn != nil {
		p.fn(p.done, p.total)
	}
	if p.logf == nil {
		return
	}
	if t := p.now(); t.Sub(p.last) >= p.every {
		p.last = t
		el := t.Sub(p.start)
		p.logf("policies: %s of %s cycles replayed (%d%%, %s cycles/s, %s elapsed)", human.Comma(int64(p.done)), human.Comma(int64(p.total)),
			100*p.done/max(p.total, 1), human.Rate(int64(p.done), el), el.Round(time.Second))
	}
}
