package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/policy"
)

func newPoliciesCmd(g *globals) *cobra.Command {
	var (
		cycle, budget, grouping, start, end, out string
		names                                    []string
		samples, budgets                         []int
		opt                                      policy.Options
		noSweeps                                 bool
	)
	cmd := &cobra.Command{
		Use:   "policies DATASET",
		Short: "Replay download policies under a budget of R downloads per cycle and compare their ChangeRatio",
		Long: `policies replays download policies on a dataset's real update series
(docs/methods.md#policies). Pages are grouped into sites (the dataset's group column:
Wikipedia namespace or wiki, Yelp city; --sites picks another grouping), time
is cut into cycles of --cycle, and every cycle the crawler downloads exactly
--budget pages in total. A page is "changed" in a cycle if it has an update
since the crawler's last download of it; the crawler holds a copy of every
page at the start.

POLICIES (--policies, default all):
  oracle        downloads only changed pages: the upper bound
  adaptive      samples --k pages per site per round; drops a site when the
                upper end of its --alpha confidence interval on the change
                fraction is below --rho, downloads it whole when the lower
                end is above (--rho 0: the previous cycle's ChangeRatio)
  greedy        samples s pages per site, then downloads the sites with the
                highest sampled change fraction first
  proportional  samples s pages per site, spends the rest in proportion to
                each site's estimated number of changed pages
  subset        greedy on a random subset of about R/(2s) sites (small R)
  frequency     the R pages most likely changed, by each page's history of
                detected changes
  round-robin   every page in turn

Metric: ChangeRatio = changed pages downloaded / pages downloaded, mean and
standard deviation over cycles. Unless --no-sweeps, also greedy's ChangeRatio
against the sample size s (with √(N r) marked: N pages per site, r = R/pages)
and every policy's ChangeRatio against the budget (R/8 … 4R).`,
		Example: `  # weekly cycles, 500 downloads a week, sites from the group column
  revisit policies ds --cycle 7d --budget 500

  # 2 % of the pages a day, 20 synthetic sites, tables for revisit report
  revisit policies ds --cycle 1d --budget 2% --sites hash:20 -o results/policies

  # only the sampling policies, fixed sample size, a given period
  revisit policies ds --cycle 30d --budget 100 --policies greedy,proportional,adaptive --sample 4 --start 2005-01-01 --end 2008-01-01`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := refuseRenamed(cmd, renamedSites); err != nil {
				return err
			}
			c, err := units.ParseDuration(cycle)
			if err != nil {
				return usagef("--cycle: %v", err)
			}
			opt.Cycle = c
			if budget == "" {
				return usagef("--budget is required (downloads per cycle, or a percentage of the pages such as 2%%)")
			}
			budgetR, err := policy.ParseBudget(budget) // its form; the pages are counted later
			if err != nil {
				return usagef("--budget: %v", err)
			}
			for _, b := range budgets {
				if b < 1 {
					return usagef("--budgets: %d: want budgets ≥ 1", b)
				}
			}
			if _, err := policy.SiteKey(grouping); err != nil {
				return usagef("--sites: %v", err)
			}
			opt.Grouping = grouping
			for _, n := range names {
				if _, ok := policy.New(n, policy.Params{}); !ok {
					return usagef("--policies: unknown policy %q (want %s)", n, strings.Join(policy.Names, ", "))
				}
			}
			opt.Policies = names
			for _, s := range []struct {
				flag string
				v    string
				to   *int64
			}{{"--start", start, &opt.Start}, {"--end", end, &opt.End}} {
				if s.v == "" {
					continue
				}
				t, err := units.ParseStart(s.v)
				if err != nil {
					return usagef("%s: %v", s.flag, err)
				}
				*s.to = t.Unix()
			}
			if opt.Start != 0 && opt.End != 0 && opt.End <= opt.Start {
				return usagef("--end must be after --start")
			}
			if !(opt.Alpha > 0 && opt.Alpha < 1) {
				return usagef("--alpha %g: want a confidence level in (0, 1)", opt.Alpha)
			}
			if opt.RhoT < 0 || opt.RhoT >= 1 {
				return usagef("--rho %g: want a change fraction in [0, 1) (0: adaptive)", opt.RhoT)
			}
			if opt.SampleSize < 0 || opt.K < 1 {
				return usagef("--sample must be ≥ 0 and --k ≥ 1")
			}
			for _, s := range samples {
				if s < 1 {
					return usagef("--samples: sizes must be ≥ 1")
				}
			}
			opt.SampleSizes, opt.NoSweeps = samples, noSweeps

			if out != "" {
				if err := checkResults("policies", out, "policies"); err != nil {
					return err
				}
			}
			ds, err := dataset.Open(args[0])
			if err != nil {
				return err
			}
			pages, err := ds.All()
			if err != nil {
				return err
			}
			if len(pages) == 0 {
				return fmt.Errorf("dataset %s: no pages", args[0])
			}
			r, err := budgetR.Downloads(len(pages))
			if err != nil {
				return usagef("--budget: %v", err)
			}
			opt.Budget = r
			for _, b := range budgets {
				if b < 1 || b > len(pages) {
					return usagef("--budgets: %d outside [1, %d pages]", b, len(pages))
				}
			}
			opt.Budgets = budgets
			opt.Dataset = args[0]
			if !g.quiet {
				fmt.Fprintf(os.Stderr, "policies: %s, cycle %s, R = %s per cycle…\n", human.Count(int64(len(pages)), "page", "pages"), cycle, human.Comma(int64(r)))
				opt.Log = g.console(cmd).Log() // a progress line every policy.LogEvery
			}
			b, err := policy.Run(cmd.Context(), pages, opt)
			if err != nil {
				return err
			}
			if w := cmd.OutOrStdout(); g.console(cmd).PrintsTables(out) {
				for _, t := range b.Tables {
					if t.ID == "policy_sites" && len(t.Rows) > 15 {
						t.Rows = t.Rows[:15]
						t.Notes = append([]string{"(first 15 sites; all in the written table)"}, t.Notes...)
					}
					tables.Fprint(w, t) // a failed write is standard output's, reported at exit (stdoutError)
				}
				if len(b.Tables) > 0 {
					fmt.Fprintln(w, human.Text("Source: "+b.Tables[0].Source))
				}
			}
			if out != "" {
				// Atomically: a failure leaves no half-written results.
				err := tables.WriteResults(cmd.Context(), out, "policies", func(tmp string) error {
					if err := b.Write(tmp); err != nil {
						return fmt.Errorf("policies: %w", err)
					}
					return nil
				})
				if err != nil {
					return err
				}
				if !g.quiet {
					fmt.Fprintf(os.Stderr, "policies: wrote %d tables and %d figures under %s\n", len(b.Tables), len(b.Figures), human.Path(out))
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&cycle, "cycle", "7d", "cycle length (s, m, h, d, w, y), e.g. 7d")
	f.StringVar(&budget, "budget", "", "downloads per cycle R in total (R or R/cycle), or a percentage of the pages (e.g. 2%) (required); not a rate per day, which is schedule's --budget")
	f.StringVar(&grouping, "sites", "group", "sites by: group (the dataset's group column), namespace, source, or hash:K (K synthetic sites)")
	addRenamed(f, renamedSites)
	f.StringSliceVar(&names, "policies", nil, "policies to replay (comma-separated; default all: "+strings.Join(policy.Names, ",")+")")
	f.IntVar(&opt.SampleSize, "sample", 0, "pages sampled per site s by greedy, proportional and subset (0: round(√(N r)))")
	f.IntVar(&opt.K, "k", 5, "adaptive: pages sampled per site per round")
	f.Float64Var(&opt.Alpha, "alpha", 0.95, "adaptive: confidence level of the interval on a site's change fraction")
	f.Float64Var(&opt.RhoT, "rho", 0, "adaptive: threshold ρ_t on the change fraction (0: the previous cycle's ChangeRatio)")
	f.Uint64Var(&opt.Seed, "seed", 1, "random seed (same seed, same output)")
	f.StringVar(&start, "start", "", "start of the replay, YYYY-MM-DD (default: the earliest update)")
	f.StringVar(&end, "end", "", "end of the replay, YYYY-MM-DD (default: the latest update)")
	f.IntSliceVar(&samples, "samples", nil, "sample sizes of the greedy sweep (default: 1, √2, 2, … up to R/sites)")
	f.IntSliceVar(&budgets, "budgets", nil, "budgets of the budget sweep (default: R/8, R/4, R/2, R, 2R, 4R)")
	f.BoolVar(&noSweeps, "no-sweeps", false, "skip the sample-size and budget sweeps")
	f.StringVarP(&out, "output", "o", "", "also write tables and figures (JSON) under this directory for revisit report (replaces earlier policies results there; refuses any other non-empty directory)")
	return cmd
}
