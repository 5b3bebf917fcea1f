package main

import (
	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/analysis/nhpp"
	"github.com/revisit-dev/revisit/analysis/staleness"
)

func newAnalyzeCmd(g *globals) *cobra.Command {
	var (
		opt analysis.CommandOptions
	)
	cmd := &cobra.Command{
		Use:   "analyze DATASET [REPLAY_DIR] -o OUT",
		Short: "Poisson screen, dependence (ACF, Hurst), tail fits, method errors and recommendation",
		Long: `analyze reads DATASET (and, when given, the output of 'revisit replay') and
computes the statistics defined in docs/methods.md:

  per page       n, E[U], Var[U], CoV v = sd/E, lifetime T
  Poisson screen pages with ≥ --screen-updates updates; those with |v − 1| ≤ --band;
                 for each, a KS test against the fitted exponential with a
                 Lilliefors-style Monte-Carlo p-value (--reps, seeded by --seed;
                 the null law is simulated once per sample size and shared),
                 the ACF ρ(1…--max-lag) with its power-law fit (H = 1 − γ/2),
                 Ljung–Box, and Hurst by R/S, aggregated variance, DFA, GPH and
                 local Whittle (the report relies on DFA and local Whittle);
                 every screened page's KS, ρ(1), Ljung–Box, DFA and local
                 Whittle H with 95% intervals go to page_stats, and their H
                 is summarised (median, quartiles, share above 0.5)
  tail fits      exponential, Pareto (Lomax), Weibull, lognormal by maximum
                 likelihood, with KS and AIC, for the top page and the aggregate
                 of all intervals (every interval of every page counts once)
  localized      with --nhpp: consistent windows (docs/methods.md#nhpp), power-law (Weibull)
                 MLE with bias corrections, Duane plot, next-update prediction;
  staleness      (on by default) the exact fraction of time a crawler's copy is
                 stale at revisit interval Δ vs the exponential model's
                 prediction, and the Δ each needs for staleness ≤ ε
  method errors  with REPLAY_DIR: WMRD and KS of every estimate against the
                 true G_U (and F_U) on [0, x_max], x_max being the replay's
                 choice for the page (by default the 0.99 quantile of its G_U)
                 unless --x-max is given, per page and per method and
                 sampler (mean and median over pages); step estimates (M3–M6,
                 G-M4) interpolated with --extra points per step against the
                 exact G_U of the page's intervals (docs/methods.md#errors)
  small samples  no number but "too few (n < N intervals)": tail fits below 10
                 intervals, KS below K − 1, Hurst below 128, recommendation
                 evidence below 99; H outside [0, 1] is flagged, not reported

OUT receives tables/*.json and figures/*.json for 'revisit report', every
table as csv/<id>.csv and .parquet, page_stats.parquet/.csv (one row per
page) and page_errors.parquet/.csv. OUT is built in a temporary directory
beside it and appears only when the analysis is complete; an earlier
analysis at OUT is replaced, any other non-empty directory is refused.

--recommend prints the recommended method for your scenario (age
available → M2; constant revisit interval → M4, or M5 for old M3 traces;
random revisits without age → M6) and the errors measured on your own
replay output that back it. With --recommend the only argument is the
replay directory (optional); give DATASET REPLAY_DIR -o OUT to also run
the full analysis.

` + selectHelp + ` With REPLAY_DIR the error
tables compare the replay's estimates of the selected pages only.`,
		Example: `  revisit analyze data/enwiki out/replay -o out/analysis
  revisit analyze data/yelp -o out/yelp-analysis --unit d --screen-updates 100 --top 10
  revisit analyze data/enwiki -o out/a --seed 7 --reps 1999 --max-lag 200
  revisit analyze --recommend --age=no --sampler=random out/replay
  revisit analyze data/enwiki -o out/talk --in-group Talk`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := refuseRenamed(cmd, renamedScreenUpdates); err != nil {
				return err
			}
			for _, name := range []string{"age", "sampler", "old-m3"} {
				if cmd.Flags().Changed(name) {
					opt.ScenarioFlags = append(opt.ScenarioFlags, name)
				}
			}
			opt.Inputs = args
			return analysis.Command(cmd.Context(), opt, g.console(cmd))
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opt.Out, "out", "o", "", "output directory")
	f.StringVar(&opt.UnitText, "unit", "", "interval unit: s, min, h, d, w, y (default: h, or d for date-only sources)")
	f.IntVar(&opt.Top, "top", analysis.DefaultTop, "top-N pages by number of updates")
	f.IntVar(&opt.MinUpdates, "screen-updates", analysis.DefaultScreenUpdates, "K: pages with at least K updates enter the Poisson screen")
	addRenamed(f, renamedScreenUpdates)
	f.Float64Var(&opt.Band, "band", analysis.DefaultBand, "CoV band: candidates have |v − 1| ≤ band")
	f.IntVar(&opt.MaxLag, "max-lag", analysis.DefaultMaxLag, "ACF lags 1…max-lag")
	f.IntVar(&opt.Closest, "closest", analysis.DefaultClosest, "closest-to-Poisson pages given ACF and Hurst tables")
	f.Float64Var(&opt.XMax, "x-max", 0, "errors on [0, x-max] in --unit (0: each page on its own replay grid, i.e. the replay's x_max of that page)")
	f.IntVar(&opt.Extra, "extra", analysis.DefaultExtra, "points inserted per step when comparing step estimates (docs/methods.md#errors)")
	f.Uint64Var(&opt.Seed, "seed", 1, "seed of every Monte-Carlo draw")
	f.IntVar(&opt.Reps, "reps", analysis.DefaultReps, "Monte-Carlo replicates of the Lilliefors KS test")
	f.IntVar(&opt.Workers, "workers", 0, "pages analysed in parallel (0: all cores); the results do not depend on it")
	f.IntVar(&opt.AggregateMax, "aggregate-max", analysis.DefaultAggregateMax, "intervals sampled (uniformly, seeded) for the aggregate tail fits")
	f.BoolVar(&opt.Localized.NHPP, "nhpp", false, "localized rates (docs/methods.md#nhpp): consistent windows, Weibull/Duane fits, next-update prediction")
	f.Float64Var(&opt.Localized.Theta, "nhpp-theta", nhpp.DefaultTheta, "with --nhpp: consistency threshold of the windows")
	f.BoolVar(&opt.Localized.Staleness, "staleness", true, "cost of assuming Poisson: exact staleness of a crawler's copy vs the exponential model")
	f.Float64Var(&opt.Localized.Delta, "stale-delta", 0, "revisit interval Δ for --staleness in --unit (0: each page's E[U])")
	f.Float64Var(&opt.Localized.Epsilon, "stale-eps", staleness.DefaultEpsilon, "staleness target ε for the Δ each model needs")
	f.IntVar(&opt.Localized.SelectMax, "select-max", analysis.DefaultSelectMax, "NHPP and staleness run on at most this many pages, the busiest")
	f.Int64Var(&opt.SelectMiB, "select-mib", analysis.DefaultSelectBytes>>20, "and on at most this many MiB of their update times (8 B each): the busiest pages beyond it are listed in nhpp_skipped/staleness_skipped")
	f.StringVar(&opt.Shard, "shard", "", shardHelp+"; a shard's OUT holds partial statistics only, and every shard reads the whole REPLAY_DIR (the merged replay)")
	f.BoolVar(&opt.Recommend, "recommend", false, "print the recommended method for the scenario given by --age, --sampler, --old-m3")
	f.StringVar(&opt.Age, "age", "no", "with --recommend: are ages (Last-Modified) observed? yes or no")
	f.StringVar(&opt.Sampler, "sampler", "random", "with --recommend: revisit delays are constant or random")
	f.BoolVar(&opt.OldM3, "old-m3", false, "with --recommend: only traces collected with M3 exist (constant delays)")
	addSelectFlags(f, &opt.Selection)
	return cmd
}
