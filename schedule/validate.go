package schedule

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// PlanOracle names the plan made from the true G_U of the evaluation
// window, PlanOracleTrain the one made from the true G_U of the training
// window (Validate): the second has no estimation error but the same
// change of window as the estimated plans, so the two oracles separate
// the cost of estimating from the cost of the process changing.
const (
	PlanOracle      = "oracle"
	PlanOracleTrain = "oracle-train"
)

// ValidateOptions configure Validate.
type ValidateOptions struct {
	Options         // budget, plans, min rate, importance, host limits (rates per second)
	Sampler string  // the blind crawler's sampler spec (replay's syntax)
	Method  string  // estimator ("": M4 for constant delays, M6 otherwise)
	Train   float64 // fraction of the span used for training, in (0, 1)
	Seeds   []uint64
	Unit    float64 // seconds per unit
	Dataset string  // for the tables' source line
	// Target, when > 0, is a realised freshness: each plan's budget to
	// reach it is sought by bisection (BudgetFor). Options.Sweep, when
	// not empty, are multiples of the budget at which each plan's
	// realised freshness is measured too (nil: none, unlike Plan).
	Target float64
}

// ValidationRow is one plan's realised freshness over the seeds.
type ValidationRow struct {
	Plan      string
	Realized  []float64 // per seed (the oracle: one value)
	Predicted []float64 // per seed, under the plan's own Ĝ (oracle: the true G_U)
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
}

// Validation is the result of Validate.
type Validation struct {
	Rows             []ValidationRow
	Pages            int
	TrainFrom, Split int64 // Unix seconds: training [TrainFrom, Split), evaluation [Split, End]
	End              int64
	Opt              ValidateOptions
	NoEstimate       []int // per seed: pages without a usable estimate
	// ImportanceStats and HostStats say how the importance and
	// host-limits files applied.
	ImportanceStats ImportanceStats
	HostStats       HostStats
}

// Validate replays a blind crawler (opt.Sampler) over the training window
// of every page, estimates Ĝ and λ̂ from what it saw, computes every plan
// from them, and scores each plan by its exact realised freshness
// (Realized, uniform visit phase) on the true updates of the later
// evaluation window; once per seed, plus the oracle plan made from the
// true G_U of the evaluation window's own intervals (gu on the truth). The
// windows are global: the span [first update, last update] of all pages
// cut at the fraction opt.Train.
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
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range pages {
		if u := pages[i].Updates; len(u) > 0 {
			lo, hi = min(lo, u[0]), max(hi, u[len(u)-1])
		}
	}
	if hi <= lo {
		return nil, fmt.Errorf("schedule: the pages' updates span no time")
	}
	split := lo + int64(opt.Train*float64(hi-lo))
	opt.Method = cr.method
	v := &Validation{Pages: len(pages), TrainFrom: lo, Split: split, End: hi, Opt: opt}
	unit := opt.Unit
	t0, t1 := float64(split-lo)/unit, float64(hi-lo)/unit
	// Every page's update times in units since lo: history for Realized.
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
	sc := &scorer{all: all, t0: t0, t1: t1}
	// extra measures a plan of a prepared problem beyond the budget: its
	// realised freshness at each sweep point and the budget reaching
	// opt.Target.
	extra := func(r *ValidationRow, p *Problem, name string) {
		if len(r.Sweep) < len(opt.Sweep) {
			r.Sweep = make([][]float64, len(opt.Sweep))
		}
		for k, m := range opt.Sweep {
			phi, _ := sc.fresh(p, name, p.Budget*m)
			r.Sweep[k] = append(r.Sweep[k], phi)
		}
		if opt.Target > 0 {
			b := BudgetFor(opt.Target, p.Budget, func(b float64) (float64, bool) { return sc.fresh(p, name, b) })
			r.Budget = append(r.Budget, b/unit)
		}
	}
	for _, seed := range opt.Seeds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		in := &Input{Unit: unit, Method: cr.method, Sampler: opt.Sampler, Source: "validation"}
		b := newCurveBuilder()
		noEst := 0
		for i := range pages {
			p := &pages[i]
			var train []float64
			for _, u := range p.Updates {
				if u >= split {
					break
				}
				train = append(train, float64(u-p.Updates[0])/unit)
			}
			x, g, lambda, note, err := cr.crawl(train, model.NewRand(seed, uint64(p.ID)))
			if err != nil {
				return nil, fmt.Errorf("schedule: page %d (%s): %w", p.ID, p.Title, err)
			}
			if note != "" {
				noEst++
			}
			in.IDs = append(in.IDs, p.ID)
			in.Titles = append(in.Titles, p.Title)
			in.Lambda = append(in.Lambda, lambda)
			in.Note = append(in.Note, note)
			b.add(x, g)
		}
		in.Curves = b.curves()
		res, err := Plan(in, popt)
		if err != nil {
			return nil, err
		}
		v.NoEstimate = append(v.NoEstimate, noEst)
		v.HostStats = res.HostStats
		sc.w = res.W
		var gu []float64
		for _, pr := range res.Plans {
			if pr.Name == PlanGU {
				gu = pr.F
			}
		}
		for k, pr := range res.Plans {
			if len(v.Rows) <= k {
				v.Rows = append(v.Rows, ValidationRow{Plan: pr.Name})
			}
			r := &v.Rows[k]
			r.Realized = append(r.Realized, PlanFreshness(all, pr.F, res.W, t0, t1))
			r.Predicted = append(r.Predicted, pr.MeanG)
			spread := math.NaN()
			if gu != nil {
				spread = rateSpread(pr.F, gu)
			}
			r.Spread = append(r.Spread, spread)
			extra(r, res.prob, pr.Name)
		}
	}
	// The oracles: gu on the true G_U of the training and of the
	// evaluation window.
	for _, o := range []struct {
		name   string
		inTest bool
	}{{PlanOracleTrain, false}, {PlanOracle, true}} {
		in := &Input{Unit: unit, Method: "truth", Source: o.name}
		b := newCurveBuilder()
		for i := range pages {
			p := &pages[i]
			var ups []int64
			for _, u := range p.Updates {
				if (u >= split) == o.inTest {
					ups = append(ups, u)
				}
			}
			x, g, lambda, note := TrueCurve(ups, unit)
			in.IDs = append(in.IDs, p.ID)
			in.Titles = append(in.Titles, p.Title)
			in.Lambda = append(in.Lambda, lambda)
			in.Note = append(in.Note, note)
			b.add(x, g)
		}
		in.Curves = b.curves()
		oopt := popt
		oopt.Plans = []string{PlanGU}
		res, err := Plan(in, oopt)
		if err != nil {
			return nil, fmt.Errorf("schedule: %s: %w", o.name, err)
		}
		sc.w = res.W
		r := ValidationRow{Plan: o.name,
			Realized:  []float64{PlanFreshness(all, res.Plans[0].F, res.W, t0, t1)},
			Predicted: []float64{res.Plans[0].MeanG},
			Spread:    []float64{math.NaN()}}
		extra(&r, res.prob, PlanGU)
		v.Rows = append(v.Rows, r)
	}
	for k := range v.Rows {
		r := &v.Rows[k]
		r.Mean, r.Lo, r.Hi = meanCI(r.Realized)
		if opt.Target > 0 {
			r.BudgetMean, r.BudgetLo, r.BudgetHi = meanCI(r.Budget)
		}
	}
	return v, nil
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
			"Each seed: a blind crawler replays the training window, the plans are computed from its estimates, and each plan's freshness is measured exactly on the true update times of the later window (uniform visit phase; docs/methods.md#schedule).",
			"oracle-train: the gu plan on the true G_U of the training window (no estimation error, but planned on the past); oracle: on the true G_U of the evaluation window itself. One value each.",
			fmt.Sprintf("Pages without a usable estimate (given the min rate), per seed: %v.", v.NoEstimate),
		},
		Columns: []tables.Column{
			{Name: "plan", Kind: tables.String},
			{Name: "realised freshness", Kind: tables.Percent, Doc: "mean over seeds"},
			{Name: "95% low", Kind: tables.Percent},
			{Name: "95% high", Kind: tables.Percent},
			{Name: "predicted (under Ĝ)", Kind: tables.Percent, Doc: "what the plan's own estimates predicted, mean over seeds"},
			{Name: "rates vs gu", Kind: tables.Percent, Doc: "median over pages of |f/f_gu − 1|, mean over seeds"},
		},
	}
	for _, s := range []string{v.ImportanceStats.Summary(), v.HostStats.Summary()} {
		if s != "" {
			t.Notes = append(t.Notes, upperFirst(s)+".")
		}
	}
	for _, r := range v.Rows {
		pm, _, _ := meanCI(r.Predicted)
		sm, _, _ := meanCI(r.Spread)
		t.Rows = append(t.Rows, []any{r.Plan, r.Mean, r.Lo, r.Hi, pm, sm})
	}
	b := &tables.Bundle{Tables: []tables.Table{t}}
	if o.Target > 0 {
		b.Tables = append(b.Tables, v.targetTable(src))
	}
	if len(o.Sweep) > 0 {
		st, fig := v.sweepTable(src)
		b.Tables = append(b.Tables, st)
		b.Figures = append(b.Figures, fig)
	}
	return b
}

// targetTable is the budget each plan needs to reach the target realised
// freshness.
func (v *Validation) targetTable(src string) tables.Table {
	t := tables.Table{
		ID:      "schedule_validation_target",
		Title:   fmt.Sprintf("Budget each plan needs to reach %.4g realised freshness", v.Opt.Target),
		Source:  src,
		Section: tables.SectionSchedule, Order: 1,
		Notes: []string{
			"Per seed, bisection on the budget (to a relative 1e-4) until the plan, solved again at that budget from the same estimates, reaches the target on the evaluation window's true updates; the same realised-freshness measure as above.",
			"∞: the plan does not reach the target at any budget (pages it never visits stay stale).",
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
		Section: tables.SectionSchedule, Order: 2,
		Notes:   []string{"Each plan solved again at each budget from the same estimates; mean over seeds."},
		Columns: []tables.Column{{Name: "visits/day", Kind: tables.Float}},
	}
	fig := tables.Figure{
		ID: "schedule_validation_budget", Title: "Realised freshness against budget, per plan", Source: src,
		Section: tables.SectionSchedule, Order: 3, XLabel: "budget (visits/day)", YLabel: "realised freshness", LogX: true,
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
