package schedule

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"slices"

	"github.com/revisit-dev/revisit/internal/units"
)

// Options configure Plan. Rates are in visits per second (ParseRate).
type Options struct {
	Budget  float64
	Plans   []string // nil: PlanNames
	MinRate float64
	// Prior plans the pages without a usable estimate, or with no change
	// seen, on the corpus's prior (Problem.Prior) instead of MinRate.
	Prior bool
	// Importance is a file of page importances w_i: lines of a key and an
	// importance (eachPair, ParseImportance), the key a page's title (or
	// URL) or its decimal id; "": 1 for every page. Pages it does not
	// name get MissingWeight; it must name at least one page.
	Importance    string
	MissingWeight float64
	// HostLimits are per-host limits on the pages' hosts (Host of the
	// title; ReadHostLimits); nil: none. At least one must apply.
	HostLimits *HostLimitSet
	// Sweep are the multiples of the budget of the freshness-vs-budget
	// table (nil: 1/8 … 8 by factors of 2; empty non-nil: none).
	Sweep []float64
	// StoreGrew, when not nil, is called by PlanSource with the bytes
	// of its store (Result.StoreBytes) each time it has grown by another
	// 16 MiB while reading, and once at the end: the command sets its soft
	// memory limit from it (the store is live to the end, so a fixed
	// limit below it would make the collector run without pause).
	StoreGrew func(bytes int64)

	// weights are the importances joined already (Validate joins them
	// once for all its plans); nil: from Importance.
	weights []float64
}

// PlanResult is one plan: its rates and mean predictions (per page
// predictions are computed from the rates when written, Result.Predicted,
// so that a plan costs 8 bytes per page).
type PlanResult struct {
	Name string
	*Solution
	// MeanG and MeanPoisson are the importance-weighted means.
	MeanG, MeanPoisson float64
	// FastShare is the share of the budget spent on the 10 % pages with
	// the largest λ̂; PriorShare the share spent on the pages planned on
	// the prior (Problem.Prior: the plan knows little about them).
	FastShare, PriorShare float64
	Visited               int64 // pages with f > 0
}

// SweepPoint is the predicted freshness (under Ĝ) of each plan at one
// budget.
type SweepPoint struct {
	Budget float64   // visits per second
	Fresh  []float64 // per plan, in Result.Plans order
}

// Result is a computed schedule.
type Result struct {
	In      *Input
	W       []float64 // importance per page
	Plans   []PlanResult
	Sweep   []SweepPoint
	Budget  float64 // visits per second
	MinRate float64
	Hosts   int // hosts with a limit that have pages
	// ImportanceStats and HostStats say how the importance and
	// host-limits files applied (zero without them).
	ImportanceStats ImportanceStats
	HostStats       HostStats
	// Unchanged counts the pages that never changed or have no usable
	// estimate (Problem.Unchanged): they get MinRate; OnPrior those
	// planned on the prior instead (Options.Prior).
	Unchanged, OnPrior int
	N                  int // pages

	prob   *Problem // prepared: predictions are computed when written
	src    *Source  // PlanSource: read again for ids and titles when written
	idHash uint64   // PlanSource: FNV-1a of the page ids in order
}

// Plan computes every plan for the input. It overwrites in.Curves (the
// values become D, see ToD).
func Plan(in *Input, opt Options) (*Result, error) {
	names, err := ParsePlans(opt.Plans)
	if err != nil {
		return nil, err
	}
	if !(opt.Budget > 0) {
		return nil, fmt.Errorf("schedule: budget %g visits/s: want > 0", opt.Budget)
	}
	n := len(in.IDs)
	perUnit := in.Unit // visits per second → per unit
	res := &Result{In: in, Budget: opt.Budget, MinRate: opt.MinRate, N: n}
	if id, dup := duplicateID(slices.Clone(in.IDs)); dup {
		a := slices.Index(in.IDs, id)
		b := a + 1 + slices.Index(in.IDs[a+1:], id)
		return nil, fmt.Errorf("schedule: %w", sharedIDError(id, in.Titles[a], a, b))
	}
	res.W = opt.weights
	if res.W == nil && opt.Importance != "" {
		var err error
		res.W, res.ImportanceStats, err = joinImportance(opt, n, func(i int) (int64, string) { return in.IDs[i], in.Titles[i] })
		if err != nil {
			return nil, err
		}
	}
	p := &Problem{Curves: &in.Curves, Lambda: in.Lambda, W: res.W, Budget: opt.Budget * perUnit, MinRate: opt.MinRate * perUnit,
		Exact: in.Exact, Prior: opt.Prior && !in.Exact, Watched: in.Watched}
	if p.Prior {
		p.Lambda = slices.Clone(in.Lambda) // the prior sets λ̃ of its pages
	}
	if opt.HostLimits != nil {
		hi := newHostIndex(opt.HostLimits)
		for i := range n {
			hi.add(in.Titles[i], perUnit)
		}
		var err error
		if p.Limits, res.HostStats, err = hi.done(n); err != nil {
			return nil, err
		}
		res.Hosts = res.HostStats.Applied
	}
	if err := p.Prepare(); err != nil {
		return nil, err
	}
	res.prob = p
	for i := range n {
		if p.Unchanged(i) {
			res.Unchanged++
		}
	}
	res.OnPrior = p.onPrior
	fast := fastest(p.Lambda, 0.1)
	for _, name := range names {
		s, err := p.Solve(name)
		if err != nil {
			return nil, fmt.Errorf("schedule: plan %s: %w", name, err)
		}
		pr := PlanResult{Name: name, Solution: s}
		var num, numP, den, fs, ps float64
		for i, f := range s.F {
			if f > 0 {
				pr.Visited++
			}
			if p.OnPrior(i) {
				ps += f
			}
			g, po := p.Predicted(i, f)
			w := p.w(i)
			num += w * g
			numP += w * po
			den += w
		}
		for _, i := range fast {
			fs += s.F[i]
		}
		pr.MeanG, pr.MeanPoisson = num/den, numP/den
		pr.FastShare, pr.PriorShare = fs/s.Used, ps/s.Used
		res.Plans = append(res.Plans, pr)
	}
	sweep := opt.Sweep
	if sweep == nil {
		sweep = DefaultSweep()
	}
	for _, m := range sweep {
		q := *p
		q.Budget = p.Budget * m
		pt := SweepPoint{Budget: opt.Budget * m}
		for _, name := range names {
			s, err := q.Solve(name)
			if err != nil {
				// A budget below the pages' minimum rates: no point.
				pt.Fresh = append(pt.Fresh, math.NaN())
				continue
			}
			pt.Fresh = append(pt.Fresh, meanFresh(&q, s.F))
		}
		res.Sweep = append(res.Sweep, pt)
	}
	return res, nil
}

// meanFresh is Σ w_i φ_i(f_i) / Σ w_i under Ĝ.
func meanFresh(p *Problem, f []float64) float64 {
	var num, den float64
	for i := range f {
		g, _ := p.Predicted(i, f[i])
		num += p.w(i) * g
		den += p.w(i)
	}
	return num / den
}

// fastest returns the indices of the ⌈q n⌉ largest λ̂ (ties by index).
func fastest(lambda []float64, q float64) []int {
	idx := make([]int, len(lambda))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(lambda[b], lambda[a]) })
	k := int(math.Ceil(q * float64(len(lambda))))
	return idx[:k]
}

// PerDay converts a rate in visits per second to visits per day.
func PerDay(perSecond float64) float64 { return perSecond * units.Day }

// Predicted is page i's freshness at rate f (per unit) under its Ĝ and
// under the Poisson model with its λ̂.
func (r *Result) Predicted(i int, f float64) (underG, underPoisson float64) {
	return r.prob.Predicted(i, f)
}

// StoreBytes is the memory of PlanSource's store of the pages' curves
// (store.Bytes; 0 for Plan, whose input is the caller's).
func (r *Result) StoreBytes() int64 {
	if r.prob == nil || r.prob.st == nil {
		return 0
	}
	return r.prob.st.Bytes()
}

// Lambda is page i's λ̂ (per unit).
func (r *Result) Lambda(i int) float64 { return r.prob.Lambda[i] }

// Note is page i's note ("" if its estimate is usable), and says when
// the page is planned on the prior.
func (r *Result) Note(i int) string {
	note := ""
	if r.prob.st != nil {
		note = r.prob.st.Note(i)
	} else {
		note = r.In.Note[i]
	}
	if r.prob.OnPrior(i) {
		if note == "" {
			note = "no change seen"
		}
		note += "; planned on the prior"
	}
	return note
}

// eachPage calls fn with every page's index, id and title in order: from
// the input, or read again from the source (PlanSource), checking that it
// gives the same pages.
func (r *Result) eachPage(fn func(i int, id int64, title string) error) error {
	if r.src == nil {
		for i := range r.In.IDs {
			if err := fn(i, r.In.IDs[i], r.In.Titles[i]); err != nil {
				return err
			}
		}
		return nil
	}
	i := 0
	h := fnv.New64a()
	var idb [8]byte
	err := r.src.EachName(func(id int64, title string) error {
		if i >= r.N {
			return fmt.Errorf("page %d: more pages than when planned (%d): the input changed", id, r.N)
		}
		putID(&idb, id)
		h.Write(idb[:])
		if err := fn(i, id, title); err != nil {
			return err
		}
		i++
		return nil
	})
	if err != nil {
		return err
	}
	if i != r.N || h.Sum64() != r.idHash {
		return fmt.Errorf("schedule: the input gave other pages when read again (%d, planned %d): it changed while planning", i, r.N)
	}
	return nil
}

// DefaultSweep is the budgets of the freshness-against-budget table when
// Options.Sweep is nil: ⅛ … 8 times the budget, in factors of 2.
func DefaultSweep() []float64 { return []float64{0.125, 0.25, 0.5, 1, 2, 4, 8} }
