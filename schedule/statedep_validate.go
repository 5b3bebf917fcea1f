package schedule

import (
	"fmt"
	"math"
	"strings"

	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
)

// Rows of the state-dependent experiment (ValidateOptions.StateDep).
const (
	PlanStateDep       = "statedep"        // planned on the training estimates
	PlanStateDepOracle = "statedep-oracle" // planned on the evaluation window's exact Ĝ
)

// StateDep is the state-dependent experiment of a validation: the
// state-dependent plan (statedep.go) planned on each seed's estimates at
// the budget, simulated on the true updates of the evaluation window, and
// every constant-rate plan solved again from the same estimates at the
// budget it really spent (its visits in the window over the window's
// length), so that the two are compared at equal realised budget; and
// the same on the evaluation window's exact Ĝ (statedep-oracle against
// the oracle, first seed only): what the policy could do with the
// distributions known.
type StateDep struct {
	Rows []StateDepRow
	// Pairs are statedep − each constant-rate plan, and statedep-oracle −
	// oracle; Best is the constant-rate plan of largest realised
	// freshness at statedep's budget.
	Pairs   []Pair
	Best    string
	Verdict string
	// Where decomposes statedep − Best by the change of the pages'
	// update rates (as Validation.Where).
	Where []Where
	Dmin  float64 // the policy's smallest delay, units (the crawler's step)
	Rules string  // the families of state-dependent rules (ValidateOptions.StateDep)
}

// StateDepRow is one row of the experiment.
type StateDepRow struct {
	ValidationRow
	// Budget is, per seed, the realised budget (visits per second in the
	// evaluation window) of the state-dependent rows, and the budget the
	// constant-rate rows were solved at (the same number); Planned the
	// budget the state-dependent plan predicted for itself.
	Budget, Planned []float64
	// Rules is, per seed, the pages on each family of rules (never,
	// constant, backoff, threshold) of a state-dependent row.
	Rules [][4]int
}

// stateDep is the experiment's state during Validate.
type stateDep struct {
	res  *StateDep
	dmin float64
	fam  families
}

// newStateDep checks that the experiment can run: a crawler with a fixed
// step (the policy's smallest delay), no host limits.
func newStateDep(cr *crawler, opt ValidateOptions) (*stateDep, error) {
	if opt.HostLimits != nil {
		return nil, fmt.Errorf("schedule: the state-dependent plan does not support host limits")
	}
	s := cr.s
	if s.Relative {
		return nil, fmt.Errorf("schedule: the state-dependent plan needs a sampler with a fixed step, not %s", opt.Sampler)
	}
	fam, err := parseFamilies(opt.StateDep)
	if err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	d := 1 / s.Rate / 4
	if s.Constant() {
		d = s.Delta
	}
	return &stateDep{res: &StateDep{Dmin: d, Rules: opt.StateDep}, dmin: d, fam: fam}, nil
}

func (s *stateDep) row(name string) *StateDepRow {
	for k := range s.res.Rows {
		if s.res.Rows[k].Plan == name {
			return &s.res.Rows[k]
		}
	}
	s.res.Rows = append(s.res.Rows, StateDepRow{ValidationRow: ValidationRow{Plan: name}})
	return &s.res.Rows[len(s.res.Rows)-1]
}

// addPage adds a row's per-page freshness of one seed of nseeds at origin k.
func (r *StateDepRow) addPage(k int, fresh []float64, nseeds int) {
	for len(r.page) <= k {
		r.page = append(r.page, make([]float64, len(fresh)))
	}
	for i, f := range fresh {
		r.page[k][i] += f / float64(nseeds)
	}
}

// run plans the state-dependent policy on prob (prepared, at the
// budget), simulates it on the true updates of [t0, t1) after a warm-up
// as long as the window, and scores the constant-rate plans on probs at
// the budget it spent: rows name and, for each of names (their problems
// in probs), the plan's name (the oracle's for statedep-oracle).
func (s *stateDep) run(e *validation, k int, seed uint64, nseeds int, name string, prob *Problem, names []string, probs map[string]*Problem, w []float64, t0, t1 float64) error {
	ids := make([]int64, len(e.pages))
	for i := range e.pages {
		ids[i] = e.pages[i].ID
	}
	pol, err := prob.planStateDep(ids, s.dmin, s.fam, seed)
	if err != nil {
		return err
	}
	fresh := make([]float64, len(e.pages))
	visits := 0
	start := math.Max(0, t0-(t1-t0))
	for i := range e.pages {
		var n int
		fresh[i], n = pol.simulate(i, e.all[i], start, t0, t1, model.NewRand(seed, uint64(e.pages[i].ID)^0x5eed5ade))
		visits += n
	}
	spent := float64(visits) / (t1 - t0) // per unit
	unit := e.v.Opt.Unit
	r := s.row(name)
	r.addPage(k, fresh, nseeds)
	if k == 0 {
		r.Realized = append(r.Realized, weightedMean(fresh, w))
		r.Predicted = append(r.Predicted, pol.MeanFresh)
		r.Budget = append(r.Budget, spent/unit)
		r.Planned = append(r.Planned, pol.Budget/unit)
		r.Rules = append(r.Rules, pol.Counts())
	}
	for _, n := range names {
		p, ok := probs[n]
		if !ok {
			continue
		}
		q := *p
		q.Budget = spent
		sol, err := q.Solve(n)
		if err != nil {
			return fmt.Errorf("schedule: %s at the state-dependent plan's budget: %w", n, err)
		}
		cf := PageFreshness(e.all, sol.F, t0, t1)
		rn := n
		if name == PlanStateDepOracle {
			rn = PlanOracle
		}
		cr := s.row(rn)
		cr.addPage(k, cf, nseeds)
		if k == 0 {
			cr.Realized = append(cr.Realized, weightedMean(cf, w))
			pred := 0.0
			for i := range cf {
				phi, _ := q.Predicted(i, sol.F[i])
				pred += weightOf(w, i) * phi
			}
			cr.Predicted = append(cr.Predicted, pred/sumWeights(w, len(cf)))
			cr.Budget = append(cr.Budget, spent/unit)
		}
	}
	return nil
}

func sumWeights(w []float64, n int) float64 {
	if w == nil {
		return float64(n)
	}
	return sum(w)
}

// finish computes the means, the pairs and the verdict.
func (s *stateDep) finish(v *Validation, all [][]float64, t0, t1 float64, w []float64) {
	res := s.res
	for k := range res.Rows {
		r := &res.Rows[k]
		r.Mean, r.Lo, r.Hi = meanCI(r.Realized)
	}
	var sd, sdo, best, oracle *StateDepRow
	for k := range res.Rows {
		switch r := &res.Rows[k]; r.Plan {
		case PlanStateDep:
			sd = r
		case PlanStateDepOracle:
			sdo = r
		case PlanOracle:
			oracle = r
		default:
			if best == nil || r.Mean > best.Mean {
				best = r
			}
		}
	}
	if sd == nil {
		return
	}
	for k := range res.Rows {
		if r := &res.Rows[k]; r != sd && r != sdo && r != oracle {
			res.Pairs = append(res.Pairs, v.pair(&sd.ValidationRow, &r.ValidationRow, w))
		}
	}
	if sdo != nil && oracle != nil {
		res.Pairs = append(res.Pairs, v.pair(&sdo.ValidationRow, &oracle.ValidationRow, w))
	}
	if best == nil {
		return
	}
	res.Best = best.Plan
	res.Where = v.where(&sd.ValidationRow, &best.ValidationRow, all, t0, t1, w)
	var b strings.Builder
	p := v.pair(&sd.ValidationRow, &best.ValidationRow, w)
	verdict := "it does not win"
	if p.decided() {
		verdict = "it wins"
	}
	fmt.Fprintf(&b, "On these %d pages the state-dependent plan realises %.2f %% at %.4g visits/day (planned %.4g), the best constant-rate plan at that budget (%s) %.2f %%: %+.2f points (%+.2f to %+.2f over pages; ahead at %d of %d origins): %s.",
		v.Pages, 100*sd.Mean, PerDay(mean(sd.Budget)), PerDay(mean(sd.Planned)), best.Plan, 100*best.Mean, 100*p.Diff, 100*p.Lo, 100*p.Hi, p.Ahead, len(p.AtOrigin), verdict)
	if sdo != nil && oracle != nil {
		q := v.pair(&sdo.ValidationRow, &oracle.ValidationRow, w)
		fmt.Fprintf(&b, " Planned on the evaluation window's own distributions it realises %+.2f points against the oracle (%+.2f to %+.2f over pages; ahead at %d of %d origins).",
			100*q.Diff, 100*q.Lo, 100*q.Hi, q.Ahead, len(q.AtOrigin))
	}
	res.Verdict = b.String()
}

func mean(xs []float64) float64 {
	m, _, _ := meanCI(xs)
	return m
}

// tables are the experiment's tables: the rows, the pairs with the
// verdict, and where statedep gains or loses against the best
// constant-rate plan.
func (s *StateDep) tables(v *Validation, src string) []tables.Table {
	rows := tables.Table{
		ID: "schedule_validation_statedep", Title: "State-dependent timing (experimental) against the constant-rate plans at its realised budget",
		Source: src, Section: tables.SectionSchedule, Order: 6,
		Notes: []string{
			fmt.Sprintf("statedep: per page the best rule under its estimated Ĝ for each visit rate — constant timing, a delay d₀ + k·â growing with the estimated age â, or a visit when the probability of a change since the last visit reaches p — the budget spent by the Lagrangian on those frontiers; simulated on the true updates of the evaluation window (after a warm-up as long as the window), no delay below %.4g units (the crawler's step). Each constant-rate plan is solved again from the same estimates at the budget statedep really spent there (docs/methods.md#schedule-statedep).", s.Dmin),
			"statedep-oracle: the same planned on the evaluation window's exact Ĝ, against the oracle at its realised budget (first seed).",
		},
		Columns: []tables.Column{
			{Name: "plan", Kind: tables.String},
			{Name: "realised freshness", Kind: tables.Percent, Doc: "mean over seeds"},
			{Name: "95% low", Kind: tables.Percent},
			{Name: "95% high", Kind: tables.Percent},
			{Name: "predicted", Kind: tables.Percent, Doc: "under the plan's own Ĝ, mean over seeds"},
			{Name: "visits/day", Kind: tables.Float, Doc: "realised (statedep) or solved at (constant-rate plans), mean over seeds"},
			{Name: "planned visits/day", Kind: tables.Float},
			{Name: "pages never, constant, backoff, threshold", Kind: tables.String, Doc: "the rules statedep chose, first seed"},
		},
	}
	for _, r := range s.Rows {
		rules, planned := "", math.NaN()
		if len(r.Rules) > 0 {
			n := r.Rules[0]
			rules = fmt.Sprintf("%d, %d, %d, %d", n[0], n[1], n[2], n[3])
			planned = PerDay(mean(r.Planned))
		}
		rows.Rows = append(rows.Rows, []any{r.Plan, r.Mean, r.Lo, r.Hi, mean(r.Predicted), PerDay(mean(r.Budget)), planned, rules})
	}
	origins := make([]string, len(v.Origins))
	for k, o := range v.Origins {
		origins[k] = unixDate(o)
	}
	pairs := tables.Table{
		ID: "schedule_validation_statedep_pairs", Title: "Paired differences: the state-dependent plan against each constant-rate plan at equal realised budget",
		Source: src, Section: tables.SectionSchedule, Order: 7,
		Notes: []string{
			"Verdict: " + s.Verdict,
			fmt.Sprintf("statedep − plan in points of realised freshness, the same pages under both (importance-weighted, each page's mean over the seeds); the interval is over the pages (percentile bootstrap) at the first split; the same difference at each split (rolling origins %s). It wins where the interval is above 0 and it is ahead at every origin.", strings.Join(origins, ", ")),
		},
		Columns: pairColumns("pair", "difference (points)"),
	}
	for _, p := range s.Pairs {
		pairs.Rows = append(pairs.Rows, p.cells(p.A+" − "+p.B))
	}
	out := []tables.Table{rows, pairs}
	if len(s.Where) > 0 {
		where := tables.Table{
			ID: "schedule_validation_statedep_where", Title: fmt.Sprintf("Where statedep gains or loses against %s: pages by the change of their update rate", s.Best),
			Source: src, Section: tables.SectionSchedule, Order: 8,
			Notes: []string{"As the table of where gu gains or loses: each page's update rate in the evaluation window over its rate in its training window; the parts add up to the difference at the first split."},
			Columns: []tables.Column{
				{Name: "pages", Kind: tables.String},
				{Name: "count", Kind: tables.Int},
				{Name: "weight", Kind: tables.Percent},
				{Name: PlanStateDep, Kind: tables.Percent},
				{Name: s.Best, Kind: tables.Percent},
				{Name: "statedep − " + s.Best + " (points)", Kind: tables.Float},
			},
		}
		for _, g := range s.Where {
			where.Rows = append(where.Rows, []any{g.Group, int64(g.Pages), g.Weight, g.A, g.B, 100 * g.Points})
		}
		out = append(out, where)
	}
	return out
}

// CheckStateDep checks a ValidateOptions.StateDep value (its families of
// rules) before any work.
func CheckStateDep(s string) error {
	_, err := parseFamilies(s)
	return err
}
