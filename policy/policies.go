package policy

import (
	"math"
	"slices"
	"sort"
)

// Names lists the policies in report order.
var Names = []string{"oracle", "adaptive", "greedy", "proportional", "subset", "frequency", "round-robin"}

// Params are the tuning knobs of the sampling policies.
type Params struct {
	SampleSize int     // s, pages sampled per site by proportional, greedy and subset
	K          int     // adaptive: pages sampled per site per round
	Alpha      float64 // adaptive: confidence level of the interval on a site's change fraction
	RhoT       float64 // adaptive: threshold ρ_t on the change fraction; 0: the policy's previous ChangeRatio (0.5 in the first cycle)
}

// New returns the named policy (see Names).
func New(name string, prm Params) (Policy, bool) {
	switch name {
	case "round-robin":
		return &roundRobin{}, true
	case "frequency":
		return frequency{}, true
	case "proportional":
		return sampling{name: name, s: prm.SampleSize, greedy: false}, true
	case "greedy":
		return sampling{name: name, s: prm.SampleSize, greedy: true}, true
	case "subset":
		return sampling{name: name, s: prm.SampleSize, greedy: true, subset: true}, true
	case "adaptive":
		return adaptive{k: prm.K, alpha: prm.Alpha, rho: prm.RhoT}, true
	case "oracle":
		return oracle{}, true
	}
	return nil, false
}

// fill downloads pages of order that are not yet taken until the budget is
// spent or order runs out.
func fill(c *Cycle, order []int) error {
	for _, p := range order {
		if c.Left() == 0 {
			return nil
		}
		if c.Taken(p) {
			continue
		}
		if _, err := c.Download(p); err != nil {
			return err
		}
	}
	return nil
}

// fillRandom spends what is left of the budget on untaken pages in random
// order, so that every policy spends exactly its budget.
func fillRandom(c *Cycle) error {
	if c.Left() == 0 {
		return nil
	}
	return fill(c, c.Rand.Perm(len(c.C.Pages)))
}

// roundRobin downloads pages in a fixed cyclic order (site by site, page
// by page), R per cycle, continuing where the previous cycle stopped.
type roundRobin struct{ next int }

func (*roundRobin) Name() string { return "round-robin" }
func (r *roundRobin) Plan(c *Cycle) error {
	var order []int
	for _, s := range c.C.Sites {
		order = append(order, s...)
	}
	for c.Left() > 0 {
		p := order[r.next%len(order)]
		r.next++
		if c.Taken(p) {
			continue
		}
		if _, err := c.Download(p); err != nil {
			return err
		}
	}
	return nil
}

// frequency is the change-frequency-based policy: each page's change rate
// is estimated from its history of detected changes,
// λ̂_p = (X_p + 0.5)/(τ_p + C) (X_p downloads that found a change over the
// time τ_p they covered; C the cycle length — half a change per cycle as
// the prior of a page never downloaded), and the R pages with the highest
// probability of having changed since their last download,
// 1 − exp(−λ̂_p (t − last_p)), are downloaded (ties: the oldest copy first).
type frequency struct{}

func (frequency) Name() string { return "frequency" }
func (frequency) Plan(c *Cycle) error {
	n := len(c.C.Pages)
	pr := make([]float64, n)
	order := make([]int, n)
	C := float64(c.C.Cycle)
	for p := range order {
		order[p] = p
		lam := (float64(c.Detected[p]) + 0.5) / (float64(c.Covered[p]) + C)
		pr[p] = -math.Expm1(-lam * float64(c.T-c.Last[p]))
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if pr[a] != pr[b] {
			return pr[a] > pr[b]
		}
		return c.Last[a] < c.Last[b]
	})
	return fill(c, order)
}

// oracle downloads only changed pages (in random order) while there are
// any: the upper bound on ChangeRatio, min(R, changed)/R. It fills the
// rest of the budget with unchanged pages.
type oracle struct{}

func (oracle) Name() string { return "oracle" }
func (oracle) Plan(c *Cycle) error {
	// The first R changed pages of a random order are a uniform choice
	// among the changed ones; stop looking once the budget is spent.
	for _, p := range c.Rand.Perm(len(c.C.Pages)) {
		if c.Left() == 0 {
			return nil
		}
		if c.Peek(p) {
			if _, err := c.Download(p); err != nil {
				return err
			}
		}
	}
	return fillRandom(c)
}

// siteSample is one site's sampling state in a cycle: its pages in random
// order, how many of them were sampled and how many of those had changed.
type siteSample struct {
	site    int
	order   []int
	rank    []int // rank[p] is page p's position in its site's random order
	sampled int
	changed int
}

func (s *siteSample) rho() float64 {
	if s.sampled == 0 {
		return 0
	}
	return float64(s.changed) / float64(s.sampled)
}

// sample downloads the next m pages of the site (fewer if the site or the
// budget runs out).
func (s *siteSample) sample(c *Cycle, m int) error {
	for ; m > 0 && s.sampled < len(s.order) && c.Left() > 0; m-- {
		ch, err := c.Download(s.order[s.sampled])
		if err != nil {
			return err
		}
		s.sampled++
		if ch {
			s.changed++
		}
	}
	return nil
}

// rest is the site's unsampled pages, the oldest copy (earliest last
// download) first, ties in the site's random order; only the first k are
// guaranteed in that order (k ≥ all: the whole rest). Which of a site's
// pages to spend the budget on is not the sampling policies' question
// (they choose sites): taking the stalest first is never worse in
// expectation than a random choice, and on real traces it is much better.
func (s *siteSample) rest(c *Cycle, k int) []int {
	r := s.order[s.sampled:]
	less := func(a, b int) bool {
		if c.Last[a] != c.Last[b] {
			return c.Last[a] < c.Last[b]
		}
		return s.rank[a] < s.rank[b]
	}
	if k < len(r)/4 {
		// Partial selection: a max-heap of the k best in r[:k], the rest
		// swapped in when better; O(n log k) instead of a full sort.
		h := r[:k]
		down := func(i int) {
			for {
				l := 2*i + 1
				if l >= len(h) {
					return
				}
				if m := l + 1; m < len(h) && less(h[l], h[m]) {
					l = m
				}
				if !less(h[i], h[l]) {
					return
				}
				h[i], h[l] = h[l], h[i]
				i = l
			}
		}
		for i := len(h)/2 - 1; i >= 0; i-- {
			down(i)
		}
		for j := k; j < len(r); j++ {
			if len(h) > 0 && less(r[j], h[0]) {
				h[0], r[j] = r[j], h[0]
				down(0)
			}
		}
		r = h
	}
	slices.SortFunc(r, func(a, b int) int {
		if less(a, b) {
			return -1
		}
		if less(b, a) {
			return 1
		}
		return 0
	})
	return r
}

func newSamples(c *Cycle) []*siteSample {
	ss := make([]*siteSample, 0, len(c.C.Sites))
	rank := make([]int, len(c.C.Pages))
	for _, i := range c.Rand.Perm(len(c.C.Sites)) {
		pages := c.C.Sites[i]
		order := make([]int, len(pages))
		for j, k := range c.Rand.Perm(len(pages)) {
			order[j] = pages[k]
			rank[pages[k]] = j
		}
		ss = append(ss, &siteSample{site: i, order: order, rank: rank})
	}
	return ss
}

// sampling is the sampling-based policy family of SPEC §4.5. Each cycle it
// downloads s random pages of every site (sites in random order, while the
// budget lasts), estimates each site's change fraction ρ̂ from its sample
// and spends the rest of the budget on the sites' unsampled pages
// (within a site, the unsampled pages with the oldest copy first):
//
//   - proportional: site i gets a share of the rest proportional to
//     ρ̂_i·(N_i − s_i), its expected number of changed unsampled pages
//     (capped at N_i − s_i, the excess passed on, rounded by largest
//     remainder);
//   - greedy: the sites with the highest ρ̂ first, each downloaded whole;
//   - subset (for budgets too small to sample every site): only
//     m = max(1, ⌊R/(2s)⌋) random sites are sampled — about half the
//     budget — and the rest is spent greedily among them.
//
// Whatever is left after every sampled site is exhausted goes to random
// pages, so the budget is always spent exactly.
type sampling struct {
	name           string
	s              int
	greedy, subset bool
}

func (p sampling) Name() string { return p.name }
func (p sampling) Plan(c *Cycle) error {
	s := max(p.s, 1)
	ss := newSamples(c)
	if p.subset {
		m := max(1, c.Budget/(2*s))
		if m < len(ss) {
			ss = ss[:m]
		}
	}
	var sampled []*siteSample
	for _, x := range ss {
		if c.Left() == 0 {
			break
		}
		if err := x.sample(c, s); err != nil {
			return err
		}
		sampled = append(sampled, x)
	}
	if p.greedy {
		sort.SliceStable(sampled, func(i, j int) bool { return sampled[i].rho() > sampled[j].rho() })
		for _, x := range sampled {
			if c.Left() == 0 {
				break
			}
			if err := fill(c, x.rest(c, c.Left())); err != nil {
				return err
			}
		}
		return fillRandom(c)
	}
	w := make([]float64, len(sampled))
	caps := make([]int, len(sampled))
	for i, x := range sampled {
		caps[i] = len(x.order) - x.sampled
		w[i] = x.rho() * float64(caps[i])
	}
	for i, a := range Allocate(c.Left(), w, caps) {
		if a == 0 {
			continue
		}
		if err := fill(c, sampled[i].rest(c, a)[:a]); err != nil {
			return err
		}
	}
	return fillRandom(c)
}

// Allocate splits total units among bins in proportion to weights w, no bin
// above its cap: bins whose share exceeds their cap get the cap and the
// excess is shared among the others (water-filling); fractional shares are
// rounded by largest remainder. When every remaining weight is 0 the
// shares follow the caps. The result sums to min(total, Σcaps).
func Allocate(total int, w []float64, caps []int) []int {
	n := len(w)
	a := make([]int, n)
	capSum := 0
	for _, c := range caps {
		capSum += c
	}
	total = min(total, capSum)
	if total <= 0 {
		return a
	}
	share := make([]float64, n)
	active := make([]bool, n)
	for i := range active {
		active[i] = caps[i] > 0
	}
	left := float64(total)
	for {
		ws := 0.0
		for i := range w {
			if active[i] {
				ws += w[i]
			}
		}
		weight := func(i int) float64 {
			if ws > 0 {
				return w[i] / ws
			}
			cs := 0
			for j := range caps {
				if active[j] {
					cs += caps[j]
				}
			}
			return float64(caps[i]) / float64(cs)
		}
		capped := false
		for i := range w {
			if active[i] && left*weight(i) >= float64(caps[i]) {
				share[i] = float64(caps[i])
				active[i] = false
				left -= float64(caps[i])
				capped = true
			}
		}
		if !capped {
			for i := range w {
				if active[i] {
					share[i] = left * weight(i)
				}
			}
			break
		}
	}
	got := 0
	type rem struct {
		i int
		f float64
	}
	var rs []rem
	for i, s := range share {
		a[i] = int(math.Floor(s + 1e-9))
		got += a[i]
		if a[i] < caps[i] {
			rs = append(rs, rem{i, s - float64(a[i])})
		}
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].f > rs[j].f })
	for k := 0; got < total && len(rs) > 0; k = (k + 1) % len(rs) {
		if a[rs[k].i] < caps[rs[k].i] {
			a[rs[k].i]++
			got++
		}
	}
	return a
}

// adaptive is adaptive sampling: in rounds, every undecided site (random
// order) has k more random pages downloaded; a site is dropped when the
// upper end of the α-confidence (Wilson score) interval of its change
// fraction falls below ρ_t, and downloaded whole when the lower end rises
// above ρ_t (those sites in order of estimated fraction, after the round).
// Budget left when every site is decided goes to the unsampled pages of
// the sites with the highest estimated fraction first. With ρ_t = 0 the
// threshold follows the policy's own ChangeRatio of the previous cycle
// (0.5 in the first): a site is worth downloading whole when it beats what
// the budget achieved on average.
type adaptive struct {
	k          int
	alpha, rho float64
}

func (adaptive) Name() string { return "adaptive" }
func (p adaptive) Plan(c *Cycle) error {
	k := max(p.k, 1)
	z := math.Sqrt2 * math.Erfinv(p.alpha)
	rho := p.rho
	if rho == 0 {
		rho = c.Prev
		if math.IsNaN(rho) {
			rho = 0.5
		}
	}
	ss := newSamples(c)
	undecided := ss
	for len(undecided) > 0 && c.Left() > 0 {
		var next, all []*siteSample
		for _, x := range undecided {
			if c.Left() == 0 {
				break
			}
			if err := x.sample(c, k); err != nil {
				return err
			}
			lo, hi := Wilson(x.changed, x.sampled, z)
			switch {
			case x.sampled == len(x.order):
			case hi < rho:
			case lo > rho:
				all = append(all, x)
			default:
				next = append(next, x)
			}
		}
		sort.SliceStable(all, func(i, j int) bool { return all[i].rho() > all[j].rho() })
		for _, x := range all {
			if c.Left() == 0 {
				break
			}
			if err := fill(c, x.rest(c, c.Left())); err != nil {
				return err
			}
			x.sampled = len(x.order)
		}
		undecided = next
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].rho() > ss[j].rho() })
	for _, x := range ss {
		if c.Left() == 0 {
			break
		}
		if err := fill(c, x.rest(c, c.Left())); err != nil {
			return err
		}
	}
	return fillRandom(c)
}

// Wilson is the Wilson score interval for a binomial proportion with x
// successes in m trials at normal quantile z: (p̂ + z²/2m ± z·sqrt(p̂(1−p̂)/m
// + z²/4m²)) / (1 + z²/m). It returns [0, 1] for m = 0.
func Wilson(x, m int, z float64) (lo, hi float64) {
	if m == 0 {
		return 0, 1
	}
	n := float64(m)
	ph := float64(x) / n
	d := 1 + z*z/n
	c := (ph + z*z/(2*n)) / d
	h := z / d * math.Sqrt(ph*(1-ph)/n+z*z/(4*n*n))
	return math.Max(0, c-h), math.Min(1, c+h)
}
