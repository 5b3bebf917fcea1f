package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/policy"
)

func newPoliciesCmd(g *globals) *cobra.Command {
	var opt policy.CommandOptions
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
			opt.Dataset = args[0]
			return policy.Command(cmd.Context(), opt, g.console(cmd))
		},
	}
	f := cmd.Flags()
	f.StringVar(&opt.CycleText, "cycle", "7d", "cycle length (s, m, h, d, w, y), e.g. 7d")
	f.StringVar(&opt.BudgetText, "budget", "", "downloads per cycle R in total (R or R/cycle), or a percentage of the pages (e.g. 2%) (required); not a rate per day, which is schedule's --budget")
	f.StringVar(&opt.Grouping, "sites", "group", "sites by: group (the dataset's group column), namespace, source, or hash:K (K synthetic sites)")
	addRenamed(f, renamedSites)
	f.StringSliceVar(&opt.Policies, "policies", nil, "policies to replay (comma-separated; default all: "+strings.Join(policy.Names, ",")+")")
	f.IntVar(&opt.SampleSize, "sample", 0, "pages sampled per site s by greedy, proportional and subset (0: round(√(N r)))")
	f.IntVar(&opt.K, "k", 5, "adaptive: pages sampled per site per round")
	f.Float64Var(&opt.Alpha, "alpha", 0.95, "adaptive: confidence level of the interval on a site's change fraction")
	f.Float64Var(&opt.RhoT, "rho", 0, "adaptive: threshold ρ_t on the change fraction (0: the previous cycle's ChangeRatio)")
	f.Uint64Var(&opt.Seed, "seed", 1, "random seed (same seed, same output)")
	f.StringVar(&opt.StartText, "start", "", "start of the replay, YYYY-MM-DD (default: the earliest update)")
	f.StringVar(&opt.EndText, "end", "", "end of the replay, YYYY-MM-DD (default: the latest update)")
	f.IntSliceVar(&opt.SampleSizes, "samples", nil, "sample sizes of the greedy sweep (default: 1, √2, 2, … up to R/sites)")
	f.IntSliceVar(&opt.Budgets, "budgets", nil, "budgets of the budget sweep (default: R/8, R/4, R/2, R, 2R, 4R)")
	f.BoolVar(&opt.NoSweeps, "no-sweeps", false, "skip the sample-size and budget sweeps")
	f.StringVarP(&opt.Out, "output", "o", "", "also write tables and figures (JSON) under this directory for revisit report (replaces earlier policies results there; refuses any other non-empty directory)")
	return cmd
}
