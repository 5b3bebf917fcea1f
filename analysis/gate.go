package analysis

import "sync"

// pageAnalysisBytes estimates the heap a worker needs at the peak of
// analyzePage on a page of n updates (TestHugePageMemory with GOGC=5
// measures it within a few per cent): the page's own update times and
// its intervals (8 bytes each), plus the largest of the screen's stages:
// the ACF by FFT (2 arrays of the padded length m, a power of two ≥ 2n,
// autocovFFT, and 8 bytes per update of what the GC has not taken back
// yet when they are allocated in a row), the periodogram (about 5 copies of
// the series: its copy, gonum's FFT work and the coefficients) and the
// Lilliefors test (a sorted copy and its radix scratch). Pages below
// minUpdates are not screened: their intervals, keys and survival bins
// only.
func pageAnalysisBytes(n, minUpdates, maxLag int) int64 {
	b := 16 * int64(n)
	if n < minUpdates {
		return b + 16*int64(n)
	}
	stage := 40 * int64(n) // periodogram; above the Lilliefors test's 16
	if n*(maxLag+1) > directACFWork {
		m := int64(2)
		for m < 2*int64(n) {
			m *= 2
		}
		stage = max(stage, 16*m+8*int64(n))
	}
	return b + stage
}

// byteGate is a weighted semaphore on estimated bytes: a worker about to
// analyse a giant page (one whose pageAnalysisBytes exceeds its share of
// the budget) takes the page's bytes and waits while other giants hold
// so many that the total would exceed the budget. A page of more than
// the whole budget waits until no other giant is in progress, then runs
// alone among the giants. The results do not depend on the order in
// which the giants get through: the pass folds them in dataset order.
type byteGate struct {
	mu     sync.Mutex
	cond   sync.Cond
	budget int64
	used   int64
	peak   int64 // the largest sum held at once, for the tests
}

func newByteGate(budget int64) *byteGate {
	g := &byteGate{budget: budget}
	g.cond.L = &g.mu
	return g
}

// acquire waits until w bytes (at most the budget) fit, takes them and
// returns what release must give back.
func (g *byteGate) acquire(w int64) int64 {
	w = min(w, g.budget)
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.used > 0 && g.used+w > g.budget {
		g.cond.Wait()
	}
	g.used += w
	g.peak = max(g.peak, g.used)
	return w
}

func (g *byteGate) release(w int64) {
	g.mu.Lock()
	g.used -= w
	g.mu.Unlock()
	g.cond.Broadcast()
}
