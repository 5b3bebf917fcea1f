package policy

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// Cycle is what a policy sees and does in one download cycle.
type Cycle struct {
	C      *Corpus
	Index  int   // cycle number
	T      int64 // download time
	Budget int
	Rand   *rand.Rand
	// Prev is this policy's ChangeRatio in the previous cycle (NaN in the
	// first one).
	Prev float64
	// Last[p] is the time of the crawler's last download of page p (Start
	// if never downloaded); Downloads[p] and Detected[p] count its
	// downloads and those that found a change; Covered[p] sums the time
	// spans those downloads covered. Policies read these; Download writes.
	Last      []int64
	Downloads []int
	Detected  []int
	Covered   []int64

	took    map[int]bool
	spent   int
	changed int
}

// Left is the budget still unspent in this cycle.
func (c *Cycle) Left() int { return c.Budget - c.spent }

// Taken reports whether page p was already downloaded in this cycle.
func (c *Cycle) Taken(p int) bool { return c.took[p] }

// Download spends one unit of budget on page p and reports whether the page
// had changed since the crawler's last download of it. Downloading with no
// budget left or the same page twice in a cycle is a policy bug and
// returns an error.
func (c *Cycle) Download(p int) (bool, error) {
	if c.spent >= c.Budget {
		return false, fmt.Errorf("policy: budget %d exhausted in cycle %d", c.Budget, c.Index)
	}
	if c.took[p] {
		return false, fmt.Errorf("policy: page %d downloaded twice in cycle %d", p, c.Index)
	}
	c.took[p] = true
	c.spent++
	ch := c.C.Changed(p, c.Last[p], c.T)
	c.Covered[p] += c.T - c.Last[p]
	c.Last[p] = c.T
	c.Downloads[p]++
	if ch {
		c.changed++
		c.Detected[p]++
	}
	return ch, nil
}

// Peek reports whether page p has changed since its last download without
// downloading it: only the oracle may use it.
func (c *Cycle) Peek(p int) bool { return c.C.Changed(p, c.Last[p], c.T) }

// Policy chooses the downloads of one cycle by calling Download exactly
// Budget times.
type Policy interface {
	Name() string
	Plan(c *Cycle) error
}

// Result is one policy's replay over every cycle.
type Result struct {
	Policy string
	Ratio  []float64 // ChangeRatio per cycle: changed pages downloaded / pages downloaded
	Spent  []int     // downloads per cycle (always the budget)
}

// Mean is the ChangeRatio averaged over cycles.
func (r Result) Mean() float64 {
	s := 0.0
	for _, x := range r.Ratio {
		s += x
	}
	return s / float64(len(r.Ratio))
}

// SD is the sample standard deviation of the ChangeRatio over cycles.
func (r Result) SD() float64 {
	if len(r.Ratio) < 2 {
		return math.NaN()
	}
	m := r.Mean()
	s := 0.0
	for _, x := range r.Ratio {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(r.Ratio)-1))
}

// Replay runs one policy over every cycle of the corpus with budget R per
// cycle; rng drives every random choice. It fails if the policy does not
// spend exactly R downloads in a cycle, and returns ctx.Err() when ctx is
// cancelled (checked before every cycle).
func Replay(ctx context.Context, c *Corpus, p Policy, budget int, rng *rand.Rand) (Result, error) {
	return replay(ctx, c, p, budget, rng, nil)
}

// replay is Replay, telling pr of every cycle replayed.
func replay(ctx context.Context, c *Corpus, p Policy, budget int, rng *rand.Rand, pr *progress) (Result, error) {
	n := len(c.Pages)
	if budget < 1 || budget > n {
		return Result{}, fmt.Errorf("policy: budget %d must lie in [1, %d pages]", budget, n)
	}
	cy := &Cycle{C: c, Budget: budget, Rand: rng, Last: make([]int64, n), Downloads: make([]int, n),
		Detected: make([]int, n), Covered: make([]int64, n)}
	for i := range cy.Last {
		cy.Last[i] = c.Start
	}
	res := Result{Policy: p.Name()}
	cy.Prev = math.NaN()
	for k := 0; k < c.N; k++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		cy.Index, cy.T = k, c.At(k)
		cy.took, cy.spent, cy.changed = make(map[int]bool, budget), 0, 0
		if err := p.Plan(cy); err != nil {
			return res, fmt.Errorf("%s, cycle %d: %w", p.Name(), k, err)
		}
		if cy.spent != budget {
			return res, fmt.Errorf("%s, cycle %d: spent %d downloads of a budget of %d", p.Name(), k, cy.spent, budget)
		}
		res.Spent = append(res.Spent, cy.spent)
		res.Ratio = append(res.Ratio, float64(cy.changed)/float64(cy.spent))
		cy.Prev = res.Ratio[k]
		pr.cycle()
	}
	return res, nil
}
