package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/memlimit"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
)

func newAnalyzeCmd(g *globals) *cobra.Command {
	var (
		opt       analysis.Options
		unit      string
		recommend bool
		age       string
		sampler   string
		oldM3     bool
		shardFlag string
		selectMiB int64
		sel       selectFlags
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
			if unit != "" {
				u, err := units.ParseUnit(unit)
				if err != nil {
					return usagef("--unit: %v", err)
				}
				opt.Unit = u
			}
			if !(opt.Band > 0 && opt.Band <= 1) { // 0 would silently become the default 0.1
				return usagef("--band %g: want a value in (0, 1]", opt.Band)
			}
			// Checked here, not after the whole pass over the dataset.
			if lo := opt.Localized; !(lo.Theta > 0 && lo.Theta < 1) {
				return usagef("--nhpp-theta %g: want a threshold in (0, 1)", lo.Theta)
			} else if !(lo.Epsilon > 0 && lo.Epsilon < 1) {
				return usagef("--stale-eps %g: want a staleness in (0, 1)", lo.Epsilon)
			} else if !(lo.Delta >= 0) {
				return usagef("--stale-delta %g: want Δ ≥ 0 (0: each page's E[U])", lo.Delta)
			}
			if opt.Reps < 1 || opt.Top < 1 || opt.MinUpdates < 1 || opt.MaxLag < 1 || opt.Closest < 1 {
				return usagef("--reps, --top, --screen-updates, --max-lag and --closest must be at least 1")
			}
			if opt.Workers < 0 {
				return usagef("--workers %d: want 0 (all cores) or more", opt.Workers)
			}
			if opt.Extra < 0 {
				return usagef("--extra %d: want 0 or more points per step", opt.Extra)
			}
			if !(opt.XMax >= 0) || math.IsInf(opt.XMax, 0) {
				return usagef("--x-max %g: want a finite value ≥ 0 (0: each page's own replay grid)", opt.XMax)
			}
			if opt.AggregateMax < 1 || opt.Localized.SelectMax < 1 {
				return usagef("--aggregate-max and --select-max must be at least 1")
			}
			if !recommend {
				for _, name := range []string{"age", "sampler", "old-m3"} {
					if cmd.Flags().Changed(name) {
						return usagef("--%s describes the scenario of --recommend; it does nothing without it", name)
					}
				}
			}
			opt.Extra = extraOption(opt.Extra)
			var err error
			if opt.Select, err = sel.selection("analyze"); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if recommend {
				sc, err := scenario(age, sampler, oldM3)
				if err != nil {
					return err
				}
				if len(args) < 2 || opt.Out == "" {
					if len(args) == 2 || (len(args) == 1 && opt.Out != "") {
						return usagef("--recommend: give REPLAY_DIR alone, or DATASET REPLAY_DIR -o OUT")
					}
					var sum []analysis.MethodSummary
					if len(args) == 1 {
						rows, _, err := analysis.ReadReplay(args[0])
						if err != nil {
							return err
						}
						pe, err := analysis.PageErrors(rows, opt.XMax, opt.Extra, nil) // no dataset: compared at the grid points
						if err != nil {
							return err
						}
						sum = analysis.EvidenceSummary(pe, opt.Seed)
					}
					if err := printRecommendation(out, sc, sum); err != nil || len(args) == 0 {
						return err
					}
					_, err := fmt.Fprintln(out, "(without DATASET every estimate is compared at its grid points; give DATASET REPLAY_DIR -o OUT to compare interpolated step estimates with the exact G_U: docs/methods.md#errors)")
					return err
				}
				res, err := runAnalyze(cmd.Context(), g, &opt, args)
				if err != nil {
					return err
				}
				return printRecommendation(out, sc, res.Evidence)
			}
			if len(args) == 0 {
				return usagef("analyze: missing DATASET")
			}
			if opt.Out == "" {
				return usagef("analyze: missing -o OUT")
			}
			if selectMiB < 1 {
				return usagef("analyze: --select-mib must be at least 1, got %d", selectMiB)
			}
			opt.Localized.SelectBytes = selectMiB << 20
			if shardFlag != "" {
				sp, err := shard.Parse(shardFlag, os.LookupEnv)
				if err != nil {
					return usagef("analyze: --shard: %v", err)
				}
				opt.Dataset = args[0]
				if len(args) == 2 {
					opt.Replay = args[1]
				}
				if !g.quiet {
					opt.Log = human.NewTerminal(os.Stderr)
				}
				if err := checkResults("analyze", opt.Out, analysis.ShardKind); err != nil {
					return err
				}
				defer memlimit.Set()()
				if err := analysis.RunShard(cmd.Context(), opt, sp); err != nil {
					return err
				}
				if !g.quiet {
					fmt.Fprintf(out, "wrote shard %s of the analysis to %s (combine the shards with 'revisit merge analysis')\n", sp, human.Path(opt.Out))
				}
				return nil
			}
			defer memlimit.Set()()
			res, err := runAnalyze(cmd.Context(), g, &opt, args)
			if err != nil {
				return err
			}
			if g.quiet {
				return nil
			}
			for _, t := range res.Bundle.Tables {
				switch t.ID {
				case "top_pages", "tail_fits_aggregate", "tail_fits_top", "poisson_screen", "screen_closest", "method_errors", "recommendation":
					if len(t.Rows) > 0 {
						if err := console.PrintSafe(out, func(w io.Writer) error { return tables.Fprint(w, t) }); err != nil {
							return err
						}
					}
				}
			}
			if res.Selection != nil {
				fmt.Fprintln(out, human.Text(res.Selection.Describe()))
			}
			fmt.Fprintf(out, "wrote %s (tables/, figures/, csv/, page_stats.parquet/.csv)\n", human.Path(opt.Out))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opt.Out, "out", "o", "", "output directory")
	f.StringVar(&unit, "unit", "", "interval unit: s, min, h, d, w, y (default: h, or d for date-only sources)")
	f.IntVar(&opt.Top, "top", 10, "top-N pages by number of updates")
	f.IntVar(&opt.MinUpdates, "screen-updates", analysis.DefaultScreenUpdates, "K: pages with at least K updates enter the Poisson screen")
	addRenamed(f, renamedScreenUpdates)
	f.Float64Var(&opt.Band, "band", analysis.DefaultBand, "CoV band: candidates have |v − 1| ≤ band")
	f.IntVar(&opt.MaxLag, "max-lag", analysis.DefaultMaxLag, "ACF lags 1…max-lag")
	f.IntVar(&opt.Closest, "closest", 5, "closest-to-Poisson pages given ACF and Hurst tables")
	f.Float64Var(&opt.XMax, "x-max", 0, "errors on [0, x-max] in --unit (0: each page on its own replay grid, i.e. the replay's x_max of that page)")
	f.IntVar(&opt.Extra, "extra", analysis.DefaultExtra, "points inserted per step when comparing step estimates (docs/methods.md#errors)")
	f.Uint64Var(&opt.Seed, "seed", 1, "seed of every Monte-Carlo draw")
	f.IntVar(&opt.Reps, "reps", analysis.DefaultReps, "Monte-Carlo replicates of the Lilliefors KS test")
	f.IntVar(&opt.Workers, "workers", 0, "pages analysed in parallel (0: all cores); the results do not depend on it")
	f.IntVar(&opt.AggregateMax, "aggregate-max", 1<<18, "intervals sampled (uniformly, seeded) for the aggregate tail fits")
	f.BoolVar(&opt.Localized.NHPP, "nhpp", false, "localized rates (docs/methods.md#nhpp): consistent windows, Weibull/Duane fits, next-update prediction")
	f.Float64Var(&opt.Localized.Theta, "nhpp-theta", 0.1, "with --nhpp: consistency threshold of the windows")
	f.BoolVar(&opt.Localized.Staleness, "staleness", true, "cost of assuming Poisson: exact staleness of a crawler's copy vs the exponential model")
	f.Float64Var(&opt.Localized.Delta, "stale-delta", 0, "revisit interval Δ for --staleness in --unit (0: each page's E[U])")
	f.Float64Var(&opt.Localized.Epsilon, "stale-eps", 0.1, "staleness target ε for the Δ each model needs")
	f.IntVar(&opt.Localized.SelectMax, "select-max", analysis.DefaultSelectMax, "NHPP and staleness run on at most this many pages, the busiest")
	f.Int64Var(&selectMiB, "select-mib", analysis.DefaultSelectBytes>>20, "and on at most this many MiB of their update times (8 B each): the busiest pages beyond it are listed in nhpp_skipped/staleness_skipped")
	f.StringVar(&shardFlag, "shard", "", shardHelp+"; a shard's OUT holds partial statistics only, and every shard reads the whole REPLAY_DIR (the merged replay)")
	f.BoolVar(&recommend, "recommend", false, "print the recommended method for the scenario given by --age, --sampler, --old-m3")
	f.StringVar(&age, "age", "no", "with --recommend: are ages (Last-Modified) observed? yes or no")
	f.StringVar(&sampler, "sampler", "random", "with --recommend: revisit delays are constant or random")
	f.BoolVar(&oldM3, "old-m3", false, "with --recommend: only traces collected with M3 exist (constant delays)")
	addSelectFlags(f, &sel)
	return cmd
}

// extraOption maps --extra to analysis.Options.Extra, where 0 means the
// default: --extra 0 (no points inserted) becomes −1.
func extraOption(extra int) int {
	if extra == 0 {
		return -1
	}
	return extra
}

func runAnalyze(ctx context.Context, g *globals, opt *analysis.Options, args []string) (*analysis.Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	opt.Dataset = args[0]
	if len(args) == 2 {
		opt.Replay = args[1]
	}
	if !g.quiet {
		opt.Log = human.NewTerminal(os.Stderr)
	}
	if err := checkResults("analyze", opt.Out, "analysis"); err != nil {
		return nil, err // before reading the dataset
	}
	return analysis.Run(ctx, *opt)
}

func scenario(age, sampler string, oldM3 bool) (analysis.Scenario, error) {
	var sc analysis.Scenario
	switch strings.ToLower(age) {
	case "yes", "y", "true", "1":
		sc.Age = true
	case "no", "n", "false", "0", "":
	default:
		return sc, usagef("--age %q: want yes or no", age)
	}
	switch strings.ToLower(sampler) {
	case "constant", "const", "random":
	default:
		return sc, usagef("--sampler %q: want constant or random", sampler)
	}
	sc.Sampler, sc.OldM3 = strings.ToLower(sampler), oldM3
	if _, err := analysis.Recommend(sc, nil); err != nil {
		return sc, usagef("%v", err)
	}
	return sc, nil
}

func printRecommendation(w io.Writer, sc analysis.Scenario, sum []analysis.MethodSummary) error {
	rec, err := analysis.Recommend(sc, sum)
	if err != nil {
		return usagef("%v", err)
	}
	fmt.Fprintf(w, "Scenario: %s\nRecommended method: %s\n  %s\n", sc.Describe(), rec.Method, rec.Reason)
	if len(rec.Evidence) == 0 {
		fmt.Fprintf(w, "\nNo measured errors for this scenario: give a replay directory with a matching sampler, on pages with ≥ %d intervals, to see them.\n", analysis.MinEvidenceIntervals)
		return nil
	}
	fmt.Fprintf(w, "\nMeasured errors against the true G_U (%s samplers), best mean WMRD first:\n", rec.Scenario.Sampler)
	fmt.Fprintf(w, "  %-12s %-8s %6s %10s %10s %10s %10s\n", "sampler", "method", "pages", "mean WMRD", "med WMRD", "mean KS", "med KS")
	for _, e := range rec.Evidence {
		mark := " "
		if e.Method == rec.Method {
			mark = "*"
		}
		fmt.Fprintf(w, "%s %-12s %-8s %6s %10s %10s %10s %10s\n", mark, e.Sampler, e.Method, human.Comma(int64(e.Pages)), human.Float(e.MeanWMRD), human.Float(e.MedianWMRD), human.Float(e.MeanKS), human.Float(e.MedianKS))
	}
	return nil
}
