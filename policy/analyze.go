package policy

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"time"

	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// Options configures Run.
type Options struct {
	Cycle  int64 // cycle length in seconds (required)
	Budget int   // R, downloads per cycle in total (required, ≤ number of pages)
	// Start and End bound the replay (Unix seconds; 0: the earliest and
	// latest update). The crawler holds a copy of every page as of Start.
	Start, End int64
	Grouping   string   // "group" (default), "namespace", "source" or "hash:K"
	Policies   []string // subset of Names, in any order (nil: all)
	// SampleSize is s for proportional, greedy and subset (0: round(√(N r)),
	// N the mean number of pages per site and r = R / pages, at least 1).
	SampleSize int
	K          int     // adaptive batch size (0 → 5)
	Alpha      float64 // adaptive confidence level (0 → 0.95)
	RhoT       float64 // adaptive threshold (0: the previous cycle's ChangeRatio)
	Seed       uint64
	// SampleSizes are the s of the greedy sweep (nil: a grid from 1 to the
	// largest site, with round(√(N r)) in it); Budgets the R of the budget
	// sweep (nil: R/8 … 4R). NoSweeps skips both.
	SampleSizes []int
	Budgets     []int
	NoSweeps    bool
	Dataset     string // names the input in the provenance line
	// Progress, if set, is called by Run after every cycle replayed with
	// the cycles done and the total of the stage; Log, if set, gets a
	// progress line every LogEvery (see progress.go).
	Progress func(done, total int)
	Log      func(format string, a ...any)
	now      func() time.Time // the clock of the progress lines (tests)
}

func (o Options) params(c *Corpus) Params {
	p := Params{SampleSize: o.SampleSize, K: o.K, Alpha: o.Alpha, RhoT: o.RhoT}
	if p.SampleSize == 0 {
		p.SampleSize = max(1, int(math.Round(OptimalSample(c, o.Budget))))
	}
	if p.K == 0 {
		p.K = 5
	}
	if p.Alpha == 0 {
		p.Alpha = 0.95
	}
	return p
}

// OptimalSample is √(N r), the sample size per site that SPEC §4.5 compares
// greedy's optimum with: N the mean number of pages per site, r = R/pages.
func OptimalSample(c *Corpus, budget int) float64 {
	return math.Sqrt(c.MeanSiteSize() * float64(budget) / float64(len(c.Pages)))
}

// stream is the random stream of one replay: a hash of its whole
// configuration (the policy, the budget R and the parameters s, k, α,
// ρ_t), so that each replay is reproducible on its own and the same
// configuration is the same replay in every table that shows it (the
// policy table, the budget sweep at R, greedy's sweep at its s).
func stream(name string, budget int, prm Params) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/R=%d/s=%d/k=%d/alpha=%g/rho=%g", name, budget, prm.SampleSize, prm.K, prm.Alpha, prm.RhoT)
	return h.Sum64()
}

// Results replays the chosen policies with the options' budget; a
// cancelled ctx stops it (ctx.Err()).
func Results(ctx context.Context, c *Corpus, opt Options) ([]Result, error) {
	return results(ctx, c, opt, nil)
}

func results(ctx context.Context, c *Corpus, opt Options, pr *progress) ([]Result, error) {
	names := opt.Policies
	if len(names) == 0 {
		names = Names
	}
	prm := opt.params(c)
	var out []Result
	for _, n := range names {
		p, ok := New(n, prm)
		if !ok {
			return nil, fmt.Errorf("policy: unknown policy %q (want one of %v)", n, Names)
		}
		r, err := replay(ctx, c, p, opt.Budget, model.NewRand(opt.Seed, stream(n, opt.Budget, prm)), pr)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// GreedySweep replays greedy for each sample size s and returns its mean
// and standard deviation of ChangeRatio over cycles; a cancelled ctx stops
// it (ctx.Err()).
func GreedySweep(ctx context.Context, c *Corpus, opt Options, sizes []int) (mean, sd []float64, err error) {
	return greedySweep(ctx, c, opt, sizes, nil)
}

func greedySweep(ctx context.Context, c *Corpus, opt Options, sizes []int, pr *progress) (mean, sd []float64, err error) {
	prm := opt.params(c)
	for _, s := range sizes {
		prm.SampleSize = s
		p, _ := New("greedy", prm)
		r, err := replay(ctx, c, p, opt.Budget, model.NewRand(opt.Seed, stream("greedy", opt.Budget, prm)), pr)
		if err != nil {
			return nil, nil, err
		}
		mean, sd = append(mean, r.Mean()), append(sd, r.SD())
	}
	return mean, sd, nil
}

// bestSample says which sample size s has the highest mean ChangeRatio,
// but names it only when it is distinguishable: its mean exceeds every
// other size's by more than two standard errors of the difference,
// 2·√(sd_best² + sd_s²)/√cycles (sd over cycles; the sizes replay the
// same cycles, so this ignores their correlation and is conservative
// when it is positive). Otherwise it says that no s stands out, with the
// range of the means.
func bestSample(sizes []int, mean, sd []float64, cycles int) string {
	if len(mean) == 0 {
		return "No sample size was replayed"
	}
	best := 0
	lo, hi := mean[0], mean[0]
	for i := range mean {
		if mean[i] > mean[best] {
			best = i
		}
		lo, hi = math.Min(lo, mean[i]), math.Max(hi, mean[i])
	}
	if len(mean) == 1 {
		return fmt.Sprintf("Only s = %d was replayed (ChangeRatio %.1f%%)", sizes[0], 100*mean[0])
	}
	n := math.Sqrt(float64(max(cycles, 1)))
	for i := range mean {
		if i != best && mean[best]-mean[i] <= 2*math.Hypot(sd[best], sd[i])/n {
			return fmt.Sprintf("No s stands out: mean ChangeRatio %.1f–%.1f%% over s = %d…%d; the highest, s = %d's %.1f%%, is within two standard errors (SD/√%d cycles) of s = %d's %.1f%%",
				100*lo, 100*hi, sizes[0], sizes[len(sizes)-1], sizes[best], 100*mean[best], cycles, sizes[i], 100*mean[i])
		}
	}
	return fmt.Sprintf("Best s = %d (ChangeRatio %.1f%%, more than two standard errors (SD/√%d cycles) above every other s)", sizes[best], 100*mean[best], cycles)
}

// defaultSizes is a √2-spaced grid of sample sizes from 1 to the point
// where sampling alone takes the whole budget (⌈R/sites⌉, or the largest
// site), with round(√(N r)) in it.
func defaultSizes(c *Corpus, budget int) []int {
	largest := 0
	for _, s := range c.Sites {
		largest = max(largest, len(s))
	}
	largest = min(largest, max(1, (budget+len(c.Sites)-1)/len(c.Sites)))
	set := map[int]bool{max(1, int(math.Round(OptimalSample(c, budget)))): true}
	for s := 1.0; int(s) <= largest; s *= math.Sqrt2 {
		set[int(math.Round(s))] = true
	}
	set[largest] = true
	var out []int
	for s := range set {
		if s >= 1 && s <= largest {
			out = append(out, s)
		}
	}
	sort.Ints(out)
	return out
}

func defaultBudgets(c *Corpus, budget int) []int {
	set := map[int]bool{}
	for _, f := range []float64{1.0 / 8, 1.0 / 4, 1.0 / 2, 1, 2, 4} {
		r := int(math.Round(float64(budget) * f))
		if r >= 1 && r <= len(c.Pages) {
			set[r] = true
		}
	}
	var out []int
	for r := range set {
		out = append(out, r)
	}
	sort.Ints(out)
	return out
}

// Run is the download-policy stage for reports (SPEC §4.5, §7 item 7): the
// ChangeRatio of every policy (mean and standard deviation over cycles),
// greedy's ChangeRatio against its sample size with √(N r) marked, the
// ChangeRatio of every policy against the budget, and the sites. A
// cancelled ctx stops it within one cycle: it returns ctx.Err() and no
// bundle.
func Run(ctx context.Context, pages []series.Page, opt Options) (*tables.Bundle, error) {
	c, err := NewCorpus(pages, opt.Grouping, opt.Cycle, opt.Start, opt.End)
	if err != nil {
		return nil, err
	}
	if opt.Budget < 1 || opt.Budget > len(pages) {
		return nil, fmt.Errorf("policy: budget %d must lie in [1, %d pages]", opt.Budget, len(pages))
	}
	prm := opt.params(c)
	grouping := opt.Grouping
	if grouping == "" {
		grouping = ByGroup
	}
	cyc := time.Duration(opt.Cycle) * time.Second
	src := fmt.Sprintf("dataset %s; %d pages in %d sites (by %s); %d cycles of %s from %s; R = %d per cycle (r = %.3g); s = %d, adaptive k = %d, α = %g, ρ_t = %s; seed %d",
		orDash(opt.Dataset), len(pages), len(c.Sites), grouping, c.N, cycleString(cyc), time.Unix(c.Start, 0).UTC().Format("2006-01-02"),
		opt.Budget, float64(opt.Budget)/float64(len(pages)), prm.SampleSize, prm.K, prm.Alpha, rhoString(prm.RhoT), opt.Seed)
	b := &tables.Bundle{}

	names := opt.Policies
	if len(names) == 0 {
		names = Names
	}
	var sizes, budgets []int
	if !opt.NoSweeps {
		if sizes = opt.SampleSizes; len(sizes) == 0 {
			sizes = defaultSizes(c, opt.Budget)
		}
		if budgets = opt.Budgets; len(budgets) == 0 {
			budgets = defaultBudgets(c, opt.Budget)
		}
	}
	pr := newProgress(opt, c.N*(len(names)+len(sizes)+len(budgets)*len(names)))

	res, err := results(ctx, c, opt, pr)
	if err != nil {
		return nil, err
	}
	ct := tables.Table{
		ID: "policy_change_ratio", Title: "Download policies under a budget: ChangeRatio", Source: src, Section: tables.SectionPolicies, Order: 20,
		Notes: []string{"ChangeRatio = changed pages downloaded / pages downloaded in a cycle; a page is changed if it has an update since the crawler's last download of it. Every policy spends exactly R downloads per cycle."},
		Columns: []tables.Column{{Name: "policy", Kind: tables.String}, {Name: "ChangeRatio", Kind: tables.Percent},
			{Name: "sd over cycles", Kind: tables.Percent}, {Name: "cycles", Kind: tables.Int}, {Name: "downloads", Kind: tables.Int}},
	}
	for _, r := range res {
		total := 0
		for _, s := range r.Spent {
			total += s
		}
		ct.Rows = append(ct.Rows, []any{r.Policy, r.Mean(), r.SD(), tables.I(len(r.Ratio)), tables.I(total)})
	}
	b.Tables = append(b.Tables, ct)

	if !opt.NoSweeps {
		mean, sd, err := greedySweep(ctx, c, opt, sizes, pr)
		if err != nil {
			return nil, err
		}
		opt0 := OptimalSample(c, opt.Budget)
		verdict := bestSample(sizes, mean, sd, c.N)
		gt := tables.Table{
			ID: "policy_greedy_sample", Title: "Greedy sampling: ChangeRatio against the sample size per site", Source: src, Section: tables.SectionPolicies, Order: 21,
			Notes: []string{fmt.Sprintf("%s; √(N r) = %.2f with N = %.1f pages per site and r = %.4g.",
				verdict, opt0, c.MeanSiteSize(), float64(opt.Budget)/float64(len(pages))),
				fmt.Sprintf("Each s is replayed with the random stream of its configuration: s = %d is the same replay as greedy in policy_change_ratio.", prm.SampleSize)},
			Columns: []tables.Column{{Name: "s", Kind: tables.Int}, {Name: "ChangeRatio", Kind: tables.Percent}, {Name: "sd over cycles", Kind: tables.Percent}},
		}
		curve := tables.Curve{Name: "greedy"}
		lo, hi := 1.0, 0.0
		for i, s := range sizes {
			gt.Rows = append(gt.Rows, []any{tables.I(s), mean[i], sd[i]})
			curve.X, curve.Y = append(curve.X, float64(s)), append(curve.Y, mean[i])
			curve.YLo, curve.YHi = append(curve.YLo, mean[i]-sd[i]), append(curve.YHi, mean[i]+sd[i])
			lo, hi = math.Min(lo, mean[i]-sd[i]), math.Max(hi, mean[i]+sd[i])
		}
		b.Tables = append(b.Tables, gt)
		b.Figures = append(b.Figures, tables.Figure{
			ID: "policy_greedy_sample", Title: "Greedy sampling: ChangeRatio against sample size", Source: src, Section: tables.SectionPolicies, Order: 21,
			XLabel: "pages sampled per site s", YLabel: "ChangeRatio", LogX: true,
			Curves:  []tables.Curve{curve, {Name: "√(N r)", X: []float64{opt0, opt0}, Y: []float64{lo, hi}, Dashed: true}},
			Caption: fmt.Sprintf("Mean ChangeRatio over %d cycles, shaded ± one standard deviation over cycles; dashed: √(N r) = %.2f. %s.", c.N, opt0, verdict),
		})

		bt := tables.Table{
			ID: "policy_budget", Title: "Download policies: ChangeRatio against the budget R", Source: src, Section: tables.SectionPolicies, Order: 22,
			Notes: []string{"Sampling policies use s = round(√(N r)) at each budget.",
				fmt.Sprintf("A replay's random choices come from a stream of its configuration (policy, R, s, k, α, ρ_t) and the seed: the row R = %d is the same replay as policy_change_ratio, and greedy there the same as policy_greedy_sample's row s = %d.", opt.Budget, prm.SampleSize)},
			Columns: []tables.Column{{Name: "R", Kind: tables.Int}, {Name: "r = R/pages", Kind: tables.Percent}},
		}
		curves := make([]tables.Curve, len(names))
		for i, n := range names {
			bt.Columns = append(bt.Columns, tables.Column{Name: n, Kind: tables.Percent})
			curves[i].Name = n
		}
		for _, R := range budgets {
			o := opt
			o.Budget = R // a zero SampleSize is re-derived from R
			prm := o.params(c)
			row := []any{tables.I(R), float64(R) / float64(len(pages))}
			for i, n := range names {
				p, ok := New(n, prm)
				if !ok {
					return nil, fmt.Errorf("policy: unknown policy %q", n)
				}
				r, err := replay(ctx, c, p, R, model.NewRand(opt.Seed, stream(n, R, prm)), pr)
				if err != nil {
					return nil, err
				}
				row = append(row, r.Mean())
				curves[i].X, curves[i].Y = append(curves[i].X, float64(R)), append(curves[i].Y, r.Mean())
			}
			bt.Rows = append(bt.Rows, row)
		}
		b.Tables = append(b.Tables, bt)
		b.Figures = append(b.Figures, tables.Figure{
			ID: "policy_budget", Title: "Download policies: ChangeRatio against the budget", Source: src, Section: tables.SectionPolicies, Order: 22,
			XLabel: "downloads per cycle R", YLabel: "ChangeRatio", LogX: true, Curves: curves,
		})
	}
	b.Tables = append(b.Tables, siteTable(c, src))
	return b, nil
}

// siteTable lists the sites with their size and mean per-cycle change
// fraction (the fraction of their pages updated within a cycle).
func siteTable(c *Corpus, src string) tables.Table {
	t := tables.Table{
		ID: "policy_sites", Title: "Download policies: sites", Source: src, Section: tables.SectionPolicies, Order: 23,
		Columns: []tables.Column{{Name: "site", Kind: tables.String}, {Name: "pages", Kind: tables.Int}, {Name: "updates in range", Kind: tables.Int},
			{Name: "updated per cycle", Kind: tables.Percent, Doc: "mean over cycles of the fraction of the site's pages with an update inside the cycle"}},
	}
	type row struct {
		name     string
		pages    int
		updates  int
		fraction float64
	}
	var rows []row
	end := c.At(c.N - 1)
	for s, pages := range c.Sites {
		r := row{name: c.Names[s], pages: len(pages)}
		hit := 0
		for _, p := range pages {
			last := -1
			for _, u := range c.Pages[p].Updates {
				if u <= c.Start || u > end {
					continue
				}
				r.updates++
				if k := int((u - c.Start - 1) / c.Cycle); k != last {
					hit++
					last = k
				}
			}
		}
		r.fraction = float64(hit) / float64(len(pages)*c.N)
		rows = append(rows, r)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].pages > rows[j].pages })
	for i, r := range rows {
		if i >= 50 {
			t.Notes = append(t.Notes, fmt.Sprintf("%d smaller sites not listed.", len(rows)-50))
			break
		}
		t.Rows = append(t.Rows, []any{r.name, tables.I(r.pages), tables.I(r.updates), r.fraction})
	}
	return t
}

func cycleString(d time.Duration) string {
	switch {
	case d%(7*24*time.Hour) == 0:
		return fmt.Sprintf("%dw", d/(7*24*time.Hour))
	case d%(24*time.Hour) == 0:
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	return d.String()
}

func rhoString(r float64) string {
	if r == 0 {
		return "previous ChangeRatio"
	}
	return fmt.Sprintf("%g", r)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
