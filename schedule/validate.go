package schedule

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// PlanOracle names the plan made from the exact age distributions of
// the evaluation window (WindowCurve: the optimum over all constant-rate
// plans at the budget, whose prediction is its realisation),
// PlanOracleTrain the one made from the exact ones of each page's
// training window (Validate): the second has no estimation error but the
// same change of window as the estimated plans, so the two oracles
// separate the cost of estimating from the cost of the process changing.
const (
	PlanOracle      = "oracle"
	PlanOracleTrain = "oracle-train"
)

// ValidateOptions configure Validate.
type ValidateOptions struct {
	Options         // budget, plans, min rate or prior, importance, host limits (rates per second)
	Sampler string  // the blind crawler's sampler spec (replay's syntax)
	Method  string  // estimator ("": M4 for constant delays, M6 otherwise)
	Train   float64 // fraction of the span used for training, in (0, 1)
	// Origins is the number of splits (rolling origins, ≥ 1; 0: 1): the
	// one at Train and Origins − 1 later ones, evenly spaced between it
	// and the end, each trained on what lies before it and evaluated
	// from it to the end. The tables are those of the first; the paired
	// differences are given at each.
	Origins int
	Seeds   []uint64
	Unit    float64 // seconds per unit
	Dataset string  // for the tables' source line
	// Target, when > 0, is a realised freshness: each plan's budget to
	// reach it is sought by bisection (BudgetFor). Options.Sweep, when
	// not empty, are multiples of the budget at which each plan's
	// realised freshness is measured too (nil: none, unlike Plan).
	Target float64
	// Window is the training window of the estimated plans (window.go):
	// "" or "all", a fraction in (0, 1], or "auto".
	Window string
	// Boot is the number of resamples of the pages for the paired
	// differences' intervals (0: 2,000).
	Boot int
	// StateDep, when not empty, runs the state-dependent experiment too
	// (Validation.StateDep; statedep.go) with these families of rules
	// besides constant timing: "backoff" (the plan's), "threshold", both
	// comma-separated, or "none". Experimental, not a plan of the command.
	StateDep string
}

// ValidationRow is one plan's realised freshness over the seeds.
type ValidationRow struct {
	Plan      string
	Realized  []float64 // per seed (the oracles: one value)
	Predicted []float64 // per seed, under the plan's own Ĝ (oracle: the exact Ĝ of the window)
	Mean      float64
	Lo, Hi    float64 // 95 % interval of the mean (Student t over seeds; NaN for one seed)
	// Spread is, per seed, the median over pages of |f_i/f_i^gu − 1|, the
	// plan's distance from the gu plan of the same seed (NaN for the
	// oracles or without gu).
	Spread []float64
	// Budget is, per seed, the budget (visits per second) at which the
	// plan's realised freshness reaches Target (+Inf: never); BudgetMean,
	// BudgetLo and BudgetHi its mean and 95 % interval.
	Budget                         []float64
	BudgetMean, BudgetLo, BudgetHi float64
	// Sweep is, per multiple of the budget (Options.Sweep), the realised
	// freshness per seed.
	Sweep [][]float64
	// PriorShare is, per seed, the share of the budget the plan gave to
	// the pages it planned on the prior.
	PriorShare []float64
	// Window is, per seed, the training window the plan was estimated on
	// (window.go; "" for the oracles).
	Window []string
	// page is each page's realised freshness, mean over the seeds, at
	// each origin (for the paired differences).
	page [][]float64
}

// Pair is the paired difference of two plans' realised freshness, A − B
// (a fraction: 0.01 is one point), the same pages under both.
type Pair struct {
	A, B string
	// Diff is at the first origin; Lo and Hi its 95 % interval over the
	// pages (percentile bootstrap, the pages resampled with replacement,
	// both plans on the same resample).
	Diff, Lo, Hi float64
	// AtOrigin is the difference at each origin; Ahead counts those
	// where A is ahead.
	AtOrigin []float64
	Ahead    int
}

// pairColumns are the columns of a paired-difference table, in the order
// of Pair.cells: first names the pair's column, diff the difference's.
func pairColumns(first, diff string) []tables.Column {
	return []tables.Column{
		{Name: first, Kind: tables.String},
		{Name: diff, Kind: tables.Float},
		{Name: "95% low", Kind: tables.Float},
		{Name: "95% high", Kind: tables.Float},
		{Name: "at each origin (points)", Kind: tables.String},
		{Name: "ahead at", Kind: tables.String},
	}
}

// cells is p's row of a paired-difference table (pairColumns), in points,
// named by name.
func (p Pair) cells(name string) []any {
	at := make([]string, len(p.AtOrigin))
	for k, d := range p.AtOrigin {
		at[k] = fmt.Sprintf("%+.2f", 100*d)
	}
	return []any{name, 100 * p.Diff, 100 * p.Lo, 100 * p.Hi, strings.Join(at, " "), fmt.Sprintf("%d of %d", p.Ahead, len(p.AtOrigin))}
}

// Validation is the result of Validate.
type Validation struct {
	Rows             []ValidationRow
	Pairs            []Pair // gu against each other plan (Verdict)
	Verdict          string // one sentence: which plan wins, by how much, where not
	Pages            int
	TrainFrom, Split int64 // Unix seconds: training [TrainFrom, Split), evaluation [Split, End]
	End              int64
	Origins          []int64 // Unix seconds of each split (Origins[0] = Split)
	Opt              ValidateOptions
	// NoEstimate is, per seed, the pages without a usable estimate (no
	// training data, or no change seen); OnPrior those planned on the
	// prior (Options.Prior) among them.
	NoEstimate, OnPrior []int
	// ImportanceStats and HostStats say how the importance and
	// host-limits files applied.
	ImportanceStats ImportanceStats
	HostStats       HostStats
	// Where decomposes gu's difference to the best other estimated plan
	// (WhereOf: the two) by how the pages' update rates changed between
	// the windows.
	Where   []Where
	WhereOf [2]string
	// StateDep is the state-dependent experiment (ValidateOptions.StateDep).
	StateDep *StateDep
}

// Validate replays a blind crawler (opt.Sampler) over the training window
// of every page — from its first update to the split, the quiet time
// after its last update included — estimates Ĝ and λ̂ from what it saw,
// computes every plan from them (the pages it knows nothing about on the
// prior, Options.Prior), and scores each plan by its exact realised
// freshness (Realized, uniform visit phase) on the true updates of the
// later evaluation window; once per seed, plus the two oracles. The
// windows are global: the span [first update, last update] of all pages
// cut at the fraction opt.Train (and at the later origins, Origins).
func Validate(ctx context.Context, pages []series.Page, opt ValidateOptions) (*Validation, error) {
	if !(opt.Train > 0 && opt.Train < 1) {
		return nil, fmt.Errorf("schedule: training fraction %g: want in (0, 1)", opt.Train)
	}
	if len(opt.Seeds) == 0 {
		return nil, fmt.Errorf("schedule: no seeds")
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("schedule: no pages")
	}
	names, err := ParsePlans(opt.Plans)
	if err != nil {
		return nil, err
	}
	cr, err := newCrawler(opt.Sampler, opt.Method)
	if err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	win, err := parseWindow(opt.Window)
	if err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	origins := max(opt.Origins, 1)
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range pages {
		if u := pages[i].Updates; len(u) > 0 {
			lo, hi = min(lo, u[0]), max(hi, u[len(u)-1])
		}
	}
	if hi <= lo {
		return nil, fmt.Errorf("schedule: the pages' updates span no time")
	}
	opt.Method = cr.method
	v := &Validation{Pages: len(pages), TrainFrom: lo, End: hi, Opt: opt}
	for k := range origins {
		f := opt.Train + float64(k)*(1-opt.Train)/float64(origins)
		v.Origins = append(v.Origins, lo+int64(f*float64(hi-lo)))
	}
	v.Split = v.Origins[0]
	unit := opt.Unit
	// Every page's update times in units since lo.
	all := make([][]float64, len(pages))
	for i := range pages {
		all[i] = make([]float64, len(pages[i].Updates))
		for k, u := range pages[i].Updates {
			all[i][k] = float64(u-lo) / unit
		}
	}
	popt := opt.Options
	popt.Plans, popt.Sweep = names, []float64{}
	if opt.Importance != "" { // joined once for every plan
		popt.weights, v.ImportanceStats, err = joinImportance(opt.Options, len(pages), func(i int) (int64, string) { return pages[i].ID, pages[i].Title })
		if err != nil {
			return nil, err
		}
	}
	e := &validation{v: v, pages: pages, all: all, cr: cr, win: win, popt: popt, names: names}
	if opt.StateDep != "" {
		if e.sd, err = newStateDep(cr, opt); err != nil {
			return nil, err
		}
	}
	for k, split := range v.Origins {
		if err := e.origin(ctx, k, float64(split-lo)/unit, float64(hi-lo)/unit); err != nil {
			return nil, err
		}
	}
	for k := range v.Rows {
		r := &v.Rows[k]
		r.Mean, r.Lo, r.Hi = meanCI(r.Realized)
		if opt.Target > 0 {
			r.BudgetMean, r.BudgetLo, r.BudgetHi = meanCI(r.Budget)
		}
	}
	v.pairs(popt.weights)
	// Where gu gains or loses against the best other estimated plan.
	var gu, other *ValidationRow
	for k := range v.Rows {
		switch r := &v.Rows[k]; {
		case r.Plan == PlanGU:
			gu = r
		case r.Plan != PlanOracle && r.Plan != PlanOracleTrain && (other == nil || r.Mean > other.Mean):
			other = r
		}
	}
	if gu != nil && other != nil {
		v.Where = v.where(gu, other, all, float64(v.Split-lo)/unit, float64(hi-lo)/unit, popt.weights)
		v.WhereOf = [2]string{gu.Plan, other.Plan}
	}
	if e.sd != nil {
		e.sd.finish(v, all, float64(v.Split-lo)/unit, float64(hi-lo)/unit, popt.weights)
		v.StateDep = e.sd.res
	}
	return v, nil
}

// validation is the state of one Validate.
type validation struct {
	v     *Validation
	pages []series.Page
	all   [][]float64
	cr    *crawler
	win   window
	popt  Options
	names []string
	sd    *stateDep // the state-dependent experiment, or nil
}

// row is the row of plan name, added at the first origin.
func (e *validation) row(name string) *ValidationRow {
	for k := range e.v.Rows {
		if e.v.Rows[k].Plan == name {
			return &e.v.Rows[k]
		}
	}
	e.v.Rows = append(e.v.Rows, ValidationRow{Plan: name})
	return &e.v.Rows[len(e.v.Rows)-1]
}

// origin validates at one split t0 (units since the start), evaluation to
// t1: the estimated plans per seed, then the oracles. The first origin
// (k = 0) fills every column of the tables; the others only each page's
// realised freshness.
func (e *validation) origin(ctx context.Context, k int, t0, t1 float64) error {
	v, opt := e.v, e.v.Opt
	main := k == 0
	sc := &scorer{all: e.all, t0: t0, t1: t1}
	// extra measures a plan of a prepared problem beyond the budget: its
	// realised freshness at each sweep point and the budget reaching
	// opt.Target.
	extra := func(r *ValidationRow, p *Problem, name string) {
		if !main {
			return
		}
		if len(r.Sweep) < len(opt.Sweep) {
			r.Sweep = make([][]float64, len(opt.Sweep))
		}
		for j, m := range opt.Sweep {
			phi, _ := sc.fresh(p, name, p.Budget*m)
			r.Sweep[j] = append(r.Sweep[j], phi)
		}
		if opt.Target > 0 {
			b := BudgetFor(opt.Target, p.Budget, func(b float64) (float64, bool) { return sc.fresh(p, name, b) })
			r.Budget = append(r.Budget, b/opt.Unit)
		}
	}
	// addPage adds a plan's per-page realised freshness (one seed of
	// nseeds) at this origin.
	addPage := func(r *ValidationRow, fresh []float64, nseeds int) {
		for len(r.page) <= k {
			r.page = append(r.page, make([]float64, len(e.pages)))
		}
		for i, f := range fresh {
			r.page[k][i] += f / float64(nseeds)
		}
	}
	for _, seed := range opt.Seeds {
		if err := ctx.Err(); err != nil {
			return err
		}
		sp, err := e.plans(seed, t0, t1)
		if err != nil {
			return err
		}
		res := sp.res
		sc.w = res.W
		if main {
			noEst := 0
			for i := range e.pages {
				if res.In.Note[i] != "" {
					noEst++
				}
			}
			v.NoEstimate = append(v.NoEstimate, noEst)
			v.OnPrior = append(v.OnPrior, res.OnPrior)
			v.HostStats = res.HostStats
		}
		var gu []float64
		for _, q := range sp.plans {
			if q.pr.Name == PlanGU {
				gu = q.pr.F
			}
		}
		for _, q := range sp.plans {
			pr := q.pr
			r := e.row(pr.Name)
			fresh := PageFreshness(e.all, pr.F, t0, t1)
			addPage(r, fresh, len(opt.Seeds))
			if !main {
				continue
			}
			r.Realized = append(r.Realized, weightedMean(fresh, res.W))
			r.Predicted = append(r.Predicted, pr.MeanG)
			r.PriorShare = append(r.PriorShare, pr.PriorShare)
			r.Window = append(r.Window, q.window)
			spread := math.NaN()
			if gu != nil {
				spread = rateSpread(pr.F, gu)
			}
			r.Spread = append(r.Spread, spread)
			extra(r, q.prob, pr.Name)
		}
		if e.sd != nil {
			probs := map[string]*Problem{}
			for _, q := range sp.plans {
				probs[q.pr.Name] = q.prob
			}
			if err := e.sd.run(e, k, seed, len(opt.Seeds), PlanStateDep, sp.res.prob, e.names, probs, res.W, t0, t1); err != nil {
				return err
			}
		}
	}
	// The oracles: gu on the exact age distributions of each page's
	// training window (its first update to the split; the pages created
	// after it on the prior, as the estimated plans) and of the
	// evaluation window (exact: its prediction is its realisation).
	for _, o := range []struct {
		name   string
		inTest bool
	}{{PlanOracleTrain, false}, {PlanOracle, true}} {
		in := &Input{Unit: opt.Unit, Method: "truth", Source: o.name, Exact: o.inTest}
		b := newCurveBuilder()
		for i := range e.pages {
			sp := SourcePage{ID: e.pages[i].ID, Title: e.pages[i].Title}
			if o.inTest {
				sp.X, sp.G, sp.Lambda = WindowCurve(e.all[i], t0, t1)
			} else if ts := e.all[i]; len(ts) > 0 && ts[0] < t0 {
				first := ts[0]
				sp.X, sp.G, sp.Lambda = WindowCurve(e.all[i], first, t0)
				sp.Watched = t0 - first
			} else {
				sp.Note = "created after the split"
			}
			in.add(b, &sp)
		}
		in.Curves = b.curves()
		oopt := e.popt
		oopt.Plans = []string{PlanGU}
		if o.inTest {
			oopt.Prior, oopt.MinRate = false, 0
		}
		res, err := Plan(in, oopt)
		if err != nil {
			return fmt.Errorf("schedule: %s: %w", o.name, err)
		}
		sc.w = res.W
		if e.sd != nil && o.inTest {
			if err := e.sd.run(e, k, opt.Seeds[0], 1, PlanStateDepOracle, res.prob, []string{PlanGU}, map[string]*Problem{PlanGU: res.prob}, res.W, t0, t1); err != nil {
				return err
			}
		}
		fresh := PageFreshness(e.all, res.Plans[0].F, t0, t1)
		r := e.row(o.name)
		addPage(r, fresh, 1)
		if !main {
			continue
		}
		r.Realized = []float64{weightedMean(fresh, res.W)}
		r.Predicted = []float64{res.Plans[0].MeanG}
		r.Spread = []float64{math.NaN()}
		r.PriorShare = []float64{res.Plans[0].PriorShare}
		r.Window = []string{""}
		extra(r, res.prob, PlanGU)
	}
	return nil
}

// seedPlans are the plans of one seed at one split: each plan, the
// problem it was solved on (for the sweep and the target) and its
// training window; res is the Result of gu's window (its notes, weights
// and prior).
type seedPlans struct {
	res   *Result
	plans []seedPlan
}

type seedPlan struct {
	pr     PlanResult
	prob   *Problem
	window string
}

// plans computes every plan of one seed at the split t0 (evaluation to
// t1): each page crawled over its training window (window.go), the plans
// from what the crawler saw.
func (e *validation) plans(seed uint64, t0, t1 float64) (*seedPlans, error) {
	chosen := map[string]float64{}
	for _, n := range e.names {
		chosen[n] = e.win.frac
	}
	if e.win.auto {
		var err error
		if chosen, err = e.backtest(seed, t0, t1); err != nil {
			return nil, err
		}
	}
	byFrac := map[float64]*Result{}
	sp := &seedPlans{}
	for _, n := range e.names {
		f := chosen[n]
		res, ok := byFrac[f]
		if !ok {
			in, err := e.estimate(seed, t0, f)
			if err != nil {
				return nil, err
			}
			if res, err = Plan(in, e.popt); err != nil {
				return nil, err
			}
			byFrac[f] = res
		}
		for _, pr := range res.Plans {
			if pr.Name == n {
				sp.plans = append(sp.plans, seedPlan{pr: pr, prob: res.prob, window: window{frac: f}.String()})
			}
		}
		if n == PlanGU || sp.res == nil {
			sp.res = res
		}
	}
	return sp, nil
}

// estimate crawls every page over its training window ending at t0 — the
// last frac of [0, t0], from the page's last update before that (which
// the crawler's first visit detects, as it detects a page's creation) —
// and returns the estimates as an Input. A page with no update before t0
// (created after it) has no estimate; its watched time is 0.
func (e *validation) estimate(seed uint64, t0, frac float64) (*Input, error) {
	in := &Input{Unit: e.v.Opt.Unit, Method: e.cr.method, Sampler: e.v.Opt.Sampler, Source: "validation"}
	b := newCurveBuilder()
	from := t0 * (1 - frac)
	var train []float64
	for i := range e.pages {
		p := &e.pages[i]
		sp := SourcePage{ID: p.ID, Title: p.Title}
		ts := e.all[i]
		j := max(0, sort.SearchFloat64s(ts, math.Nextafter(from, math.Inf(1)))-1) // last update ≤ from, or the first
		if len(ts) == 0 || ts[j] >= t0 {
			sp.Note = "no update before the split"
		} else {
			start := ts[j]
			train = train[:0]
			for ; j < len(ts) && ts[j] < t0; j++ {
				train = append(train, ts[j]-start)
			}
			var err error
			sp.X, sp.G, sp.Lambda, sp.Note, err = e.cr.crawl(train, t0-start, model.NewRand(seed, uint64(p.ID)))
			if err != nil {
				return nil, fmt.Errorf("schedule: page %d (%s): %w", p.ID, p.Title, err)
			}
			sp.Watched = t0 - start
		}
		in.add(b, &sp)
	}
	in.Curves = b.curves()
	return in, nil
}

// weightedMean is Σ w_i x_i / Σ w_i (w nil: 1 each), NaN values left out.
func weightedMean(x, w []float64) float64 {
	num, den := 0.0, 0.0
	for i, v := range x {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		if math.IsNaN(v) || wi == 0 {
			continue
		}
		num += wi * v
		den += wi
	}
	return num / den
}

// meanCI is the mean of xs and its 95 % interval mean ± t_{0.975, n−1}·s/√n
// (NaN bounds for fewer than 2 values).
func meanCI(xs []float64) (mean, lo, hi float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) < 2 {
		return mean, math.NaN(), math.NaN()
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975)
	return mean, mean - q*sd/math.Sqrt(n), mean + q*sd/math.Sqrt(n)
}

// Bundle is the validation table for the report.
func (v *Validation) Bundle() *tables.Bundle {
	o := v.Opt
	seeds := make([]string, len(o.Seeds))
	for i, s := range o.Seeds {
		seeds[i] = fmt.Sprint(s)
	}
	src := fmt.Sprintf("dataset %s; %d pages; crawler %s (%s); training %s – %s, evaluation to %s; budget %g visits/day; seeds %s",
		o.Dataset, v.Pages, o.Sampler, o.Method, unixDate(v.TrainFrom), unixDate(v.Split), unixDate(v.End), PerDay(o.Budget), strings.Join(seeds, ","))
	t := tables.Table{
		ID: "schedule_validation", Title: "Realised freshness of the plans on the true updates of the evaluation window",
		Source: src, Section: tables.SectionSchedule, Order: 0,
		Notes: []string{
			"Each seed: a blind crawler replays each page's training window (from its first update to the split, the quiet time after its last update included), the plans are computed from its estimates, and each plan's freshness is measured exactly on the true update times of the later window (uniform visit phase; a page never visited has no copy; docs/methods.md#schedule-validation).",
			"oracle-train: the gu plan on the exact age distributions of each page's training window (no estimation error, but planned on the past); oracle: on those of the evaluation window itself, the optimum of every constant-rate plan at this budget, whose prediction is its realisation. One value each.",
			fmt.Sprintf("Pages without a usable estimate (none seen before the split, or no change seen), per seed: %v; of them planned on the corpus's prior: %v (the others get the min rate).", v.NoEstimate, v.OnPrior),
		},
		Columns: []tables.Column{
			{Name: "plan", Kind: tables.String},
			{Name: "realised freshness", Kind: tables.Percent, Doc: "mean over seeds"},
			{Name: "95% low", Kind: tables.Percent},
			{Name: "95% high", Kind: tables.Percent},
			{Name: "predicted (under Ĝ)", Kind: tables.Percent, Doc: "what the plan's own estimates predicted, mean over seeds"},
			{Name: "rates vs gu", Kind: tables.Percent, Doc: "median over pages of |f/f_gu − 1|, mean over seeds"},
			{Name: "budget to prior pages", Kind: tables.Percent, Doc: "share of the visits given to the pages planned on the prior, mean over seeds"},
		},
	}
	if w, _ := parseWindow(o.Window); w != (window{frac: 1}) {
		var per []string
		for _, r := range v.Rows {
			if r.Plan != PlanOracle && r.Plan != PlanOracleTrain {
				per = append(per, r.Plan+": "+strings.Join(r.Window, ","))
			}
		}
		t.Notes = append(t.Notes, fmt.Sprintf("Training window %s (per plan and seed: %s).", w, strings.Join(per, "; ")))
	}
	for _, s := range []string{v.ImportanceStats.Summary(), v.HostStats.Summary()} {
		if s != "" {
			t.Notes = append(t.Notes, upperFirst(s)+".")
		}
	}
	for _, r := range v.Rows {
		pm, _, _ := meanCI(r.Predicted)
		sm, _, _ := meanCI(r.Spread)
		ps, _, _ := meanCI(r.PriorShare)
		t.Rows = append(t.Rows, []any{r.Plan, r.Mean, r.Lo, r.Hi, pm, sm, ps})
	}
	b := &tables.Bundle{Tables: []tables.Table{t}}
	if len(v.Pairs) > 0 {
		b.Tables = append(b.Tables, v.pairsTable(src))
	}
	if len(v.Where) > 0 {
		b.Tables = append(b.Tables, v.whereTable(src))
	}
	if o.Target > 0 {
		b.Tables = append(b.Tables, v.targetTable(src))
	}
	if len(o.Sweep) > 0 {
		st, fig := v.sweepTable(src)
		b.Tables = append(b.Tables, st)
		b.Figures = append(b.Figures, fig)
	}
	if v.StateDep != nil {
		b.Tables = append(b.Tables, v.StateDep.tables(v, src)...)
	}
	return b
}

// pairsTable is the paired differences and the verdict.
func (v *Validation) pairsTable(src string) tables.Table {
	origins := make([]string, len(v.Origins))
	for k, o := range v.Origins {
		origins[k] = unixDate(o)
	}
	ref := v.Pairs[0].A
	boot := v.Opt.Boot
	if boot <= 0 {
		boot = DefaultBoot
	}
	t := tables.Table{
		ID: "schedule_validation_pairs", Title: fmt.Sprintf("Paired differences of realised freshness: %s against each plan", ref),
		Source: src, Section: tables.SectionSchedule, Order: 1,
		Notes: []string{
			"Verdict: " + v.Verdict,
			fmt.Sprintf("%s − plan in points of realised freshness, the same pages under both (importance-weighted, each page's mean over the seeds); the interval is over the pages (%d bootstrap resamples, percentiles 2.5 and 97.5) at the first split; the same difference at each split (rolling origins %s, each trained on what lies before it and evaluated to %s). A win is decided when the interval is above 0 and the plan is ahead at every origin.", ref, boot, strings.Join(origins, ", "), unixDate(v.End)),
		},
		Columns: pairColumns("plan", ref+" − plan (points)"),
	}
	for _, p := range v.Pairs {
		t.Rows = append(t.Rows, p.cells(p.B))
	}
	return t
}

// whereTable is the decomposition of gu's difference to the best other
// plan by the change of the pages' update rates.
func (v *Validation) whereTable(src string) tables.Table {
	a, b := v.WhereOf[0], v.WhereOf[1]
	t := tables.Table{
		ID: "schedule_validation_where", Title: fmt.Sprintf("Where %s gains or loses against %s: pages by the change of their update rate", a, b),
		Source: src, Section: tables.SectionSchedule, Order: 2,
		Notes: []string{
			fmt.Sprintf("Each page's update rate in the evaluation window over its rate in its training window (its first update to the split); %s − %s in points of realised freshness over all pages, split by group (the parts add up to the difference at the first split; importance-weighted, seeds averaged).", a, b),
		},
		Columns: []tables.Column{
			{Name: "pages", Kind: tables.String},
			{Name: "count", Kind: tables.Int},
			{Name: "weight", Kind: tables.Percent},
			{Name: a, Kind: tables.Percent},
			{Name: b, Kind: tables.Percent},
			{Name: a + " − " + b + " (points)", Kind: tables.Float},
		},
	}
	for _, w := range v.Where {
		t.Rows = append(t.Rows, []any{w.Group, int64(w.Pages), w.Weight, w.A, w.B, 100 * w.Points})
	}
	return t
}

// targetTable is the budget each plan needs to reach the target realised
// freshness.
func (v *Validation) targetTable(src string) tables.Table {
	t := tables.Table{
		ID:      "schedule_validation_target",
		Title:   fmt.Sprintf("Budget each plan needs to reach %.4g realised freshness", v.Opt.Target),
		Source:  src,
		Section: tables.SectionSchedule, Order: 3,
		Notes: []string{
			"Per seed, bisection on the budget (to a relative 1e-4) until the plan, solved again at that budget from the same estimates, reaches the target on the evaluation window's true updates; the same realised-freshness measure as above.",
			"∞: the plan does not reach the target at any budget.",
		},
		Columns: []tables.Column{
			{Name: "plan", Kind: tables.String},
			{Name: "visits/day", Kind: tables.Float, Doc: "mean over seeds"},
			{Name: "95% low", Kind: tables.Float},
			{Name: "95% high", Kind: tables.Float},
			{Name: "× gu", Kind: tables.Float, Doc: "ratio to the gu plan's budget"},
		},
	}
	gu := math.NaN()
	for _, r := range v.Rows {
		if r.Plan == PlanGU {
			gu = r.BudgetMean
		}
	}
	for _, r := range v.Rows {
		t.Rows = append(t.Rows, []any{r.Plan, PerDay(r.BudgetMean), PerDay(r.BudgetLo), PerDay(r.BudgetHi), r.BudgetMean / gu})
	}
	return t
}

// sweepTable is each plan's realised freshness (mean over seeds) against
// the budget, as a table and a figure.
func (v *Validation) sweepTable(src string) (tables.Table, tables.Figure) {
	t := tables.Table{
		ID: "schedule_validation_budget", Title: "Realised freshness against the budget", Source: src,
		Section: tables.SectionSchedule, Order: 4,
		Notes:   []string{"Each plan solved again at each budget from the same estimates; mean over seeds."},
		Columns: []tables.Column{{Name: "visits/day", Kind: tables.Float}},
	}
	fig := tables.Figure{
		ID: "schedule_validation_budget", Title: "Realised freshness against budget, per plan", Source: src,
		Section: tables.SectionSchedule, Order: 5, XLabel: "budget (visits/day)", YLabel: "realised freshness", LogX: true,
	}
	for _, r := range v.Rows {
		t.Columns = append(t.Columns, tables.Column{Name: r.Plan, Kind: tables.Percent})
		fig.Curves = append(fig.Curves, tables.Curve{Name: r.Plan, Dashed: r.Plan == PlanOracle || r.Plan == PlanOracleTrain})
	}
	for k, m := range v.Opt.Sweep {
		b := PerDay(v.Opt.Budget * m)
		row := []any{b}
		for j, r := range v.Rows {
			phi, _, _ := meanCI(r.Sweep[k])
			row = append(row, phi)
			if !math.IsNaN(phi) {
				fig.Curves[j].X = append(fig.Curves[j].X, b)
				fig.Curves[j].Y = append(fig.Curves[j].Y, phi)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, fig
}

func unixDate(s int64) string { return time.Unix(s, 0).UTC().Format("2006-01-02") }
