package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/replay"
)

func newReplayCmd(g *globals) *cobra.Command {
	var (
		opt       replay.CommandOptions
		noRecover bool
	)
	cmd := &cobra.Command{
		Use:   "replay DATASET -o OUT",
		Short: "Replay update series with virtual crawlers and run every estimator",
		Long: `replay visits every selected page of DATASET with virtual crawlers that see a
page only when they visit it, and estimates the page's update distribution
with every method of docs/methods.md: M1–M6 and G-M4 (estimates of the age
distribution G_U), F_U recovered from M2, M4, M5 and M6, and the Poisson
baselines naive, cho (Cho–Garcia-Molina), matloff, age-mle and poisson-mle.
Each page's
true G_U and F_U are written next to the estimates on the same grid.

Samplers (--sampler, repeatable; λ is per --unit):
  ` + indent(estimator.SamplerSyntax) + `
The first visit is uniform in the first cycle (and, for the comparison
methods, detects the page's creation: docs/methods.md#first-visit); every
page and sampler has its own random stream derived from --seed, so the
output does not depend on the number of workers.

Defaults follow each page's timescale (the same in replay, analyze and run):
  samplers  ` + strings.Join(replay.DefaultSamplers, " and ") + `: ` + fmt.Sprint(replay.VisitsPerMean) + ` visits per mean interval
            E[U] of each page, exponential and constant delays
  --x-max   the 0.99 quantile of the page's exact G_U, so that the estimates
            and the comparison cover 99 % of its age distribution
  --h       E[U]/100 of the page, never finer than the source's time
            resolution (nor than x_max/` + fmt.Sprint(replay.MaxAutoGrid) + `)
Giving --x-max, --h or --sampler fixes that value for every page. The
choices are printed and recorded in replay.json ("choices").

Grid: x_n = nΔ for const:Δ samplers, y_n = nh otherwise, up to x_max; a
page × sampler whose grid would exceed 10⁶ points is left out and counted
(over_max_grid).
M3, M4, M5, cho and matloff need constant delays and are skipped for random
ones. Output (OUT, written atomically): estimates.parquet — one row per
page × sampler × method × kind with columns page_id, title, sampler, method,
kind (G or F), x, p (lists), samples, rate, h, note, visits, constant,
wmrd, ks, err_points, err_xmax, compact — and replay.json (options, counts,
and the mean WMRD/KS of each method against the truth, also printed as a
summary).

Curves: each row's WMRD and KS against the truth (analyze's error tables,
at full resolution: each page's own x_max, 9 extra points per step) are
computed first and stored; then, by default (--curves compact), its curve
is kept at ` + fmt.Sprint(estimates.Knots) + ` knots of its grid (x_0 = 0 and log-spaced grid points
up to x_max), except on the --full-curves N busiest pages, which keep every
grid point for the figures. --curves full keeps every curve whole (needed
by analyze --x-max or --extra other than the defaults).

--write-observations FORMAT also writes what each sampler's crawler saw, as
a real crawl log would hold it, to OUT/observations/SAMPLER.EXT (formats as
'revisit estimate': cdx, cdx-json, cdxj, trace, log-changed, log-digest,
log-lastmod; URL revisit.invalid/page/PAGE_ID). The estimates are then
computed from exactly those observations (docs/methods.md#observed): visit
times floored to whole seconds, ages only for log-lastmod, and the
capture where the page did not exist yet before the first visit; 'revisit
estimate' on the files with the same --unit, --h and --x-max (and --curves
full, for pages replayed with whole curves) gives the
same rows.

Cost: one pass over each page's updates and visits per sampler; with random
delays M6 pairs each visit with the λ·x_max visits before it (about 1 CPU
second for a 10-year page at λ = 2/h with x_max = 1000 h, split over two
cores when they are free; with the relative defaults k = ` + fmt.Sprint(replay.VisitsPerMean) + ` visits and
k²·x_max/E[U] pairs per interval, whatever the timescale), so a smaller
--x-max is the lever on very long pages. Memory: the selected pages (--top) or one page per
worker, and the grids (at most 10⁶ points: x_max/h, or x_max/Δ).

Limits: before crawling a page with a sampler of rate λ over its window T,
replay estimates the visits λT + 1 and, for M6 with random delays, the
pairs of visits within x_max (about visits × λ·x_max). A page × sampler
beyond --max-visits or --max-pairs is left out and counted in replay.json's
"skipped" (over_max_visits, over_max_pairs) and in the summary; a crawl
that reaches twice a limit is stopped and counted the same way. If every
page × sampler is left out, replay fails with a usage error and writes
nothing. The defaults keep one page × sampler under about a minute of CPU
and memory independent of the visits (well under 1 GiB in all).

` + selectHelp + ` The replay summary and replay.json ("selection")
say how many pages were selected and name the listed ids and titles not
found.`,
		Example: `  revisit replay data/enwiki --sampler exp:2 --sampler const:0.5 -o out/replay
  revisit replay data/enwiki --top 10 --methods M2,M4,M6 --h 0.05 --x-max 1000 --seed 7 -o out/replay
  revisit replay data/git --sampler exp:2x --sampler const:0.5x -o out/git-replay
  revisit replay data/yelp --unit d --sampler const:7 --min-updates 100 --top 0 -o out/yelp-replay
  revisit replay data/enwiki --top 0 --shard 2/7 -o out/replay-2   # then: revisit merge replay out/replay-* -o out/replay
  revisit replay data/enwiki --pages my-pages.txt --top 0 -o out/replay-mine
  revisit replay data/enwiki --match '^List of' --in-group '(Main)' -o out/replay-lists`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Dataset = args[0]
			opt.TopGiven, opt.SampleGiven = cmd.Flags().Changed("top"), cmd.Flags().Changed("sample")
			opt.Recover = !noRecover
			return replay.Command(cmd.Context(), opt, g.console(cmd))
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&opt.Samplers, "sampler", nil, "sampling process `SPEC`, repeatable (see above; default "+strings.Join(replay.DefaultSamplers, ", ")+")")
	f.StringSliceVar(&opt.Methods, "methods", []string{"all"}, "methods: all or a list of "+strings.Join(estimator.AllMethods, ","))
	f.StringVar(&opt.UnitText, "unit", "", "time unit of λ, h, x_max and the output: s, min, h, d, w, y (default h for 1-second sources, d for date-only ones)")
	f.Float64Var(&opt.H, "h", 0, "bin width h of the grid for random delays (M6's bins), in units (0: per page, E[U]/100 but no finer than the source's resolution)")
	f.Float64Var(&opt.XMax, "x-max", 0, "largest grid point x_max, in units (0: per page, the 0.99 quantile of its G_U)")
	f.IntVar(&opt.Top, "top", 10, "replay only the N pages with the most updates (0: every page)")
	f.IntVar(&opt.Sample, "sample", 0, "replay a random sample (from --seed) of N pages with ≥ "+fmt.Sprint(analysis.MinEvidenceIntervals)+" intervals instead of the busiest (what run compares the methods on)")
	f.IntVar(&opt.MinUpdates, "min-updates", 0, "replay only pages with at least K updates")
	f.Uint64Var(&opt.Seed, "seed", 1, "random seed (same seed, same output)")
	f.IntVar(&opt.Seeds, "seeds", 1, "replay every page × sampler with R independent seeds, for 95% intervals of the errors (not --reps; docs/methods.md#seeds)")
	f.IntVar(&opt.Workers, "workers", 0, "parallel workers (0: all cores)")
	opt.MaxVisits, opt.MaxPairs = estimator.DefaultMaxVisits, estimator.DefaultMaxPairs
	opt.SampleIntervals, opt.Version = analysis.MinEvidenceIntervals, version
	f.Var((*countFlag)(&opt.MaxVisits), "max-visits", maxVisitsHelp)
	f.Var((*countFlag)(&opt.MaxPairs), "max-pairs", maxPairsHelp)
	f.BoolVar(&noRecover, "no-recover", false, "do not recover F_U from M2, M4, M5, M6")
	f.IntVar(&opt.RecoverOpt.K, "deriv-points", 5, "points of the numerical derivative for F_U recovery: 5 or 3")
	f.IntVar(&opt.RecoverOpt.Extra, "interp", 9, "extra linear-interpolation points per grid step before differentiating (0: the default 9)")
	f.Float64Var(&opt.RecoverOpt.H, "recover-h", 0, "bin width of the derivative (0: automatic, start of the flat region of E[U](h))")
	f.StringVar(&opt.CurvesText, "curves", string(estimates.CurvesCompact), "curves kept: compact ("+fmt.Sprint(estimates.Knots)+" knots, errors stored) or full (every grid point)")
	f.IntVar(&opt.FullCurves, "full-curves", 10, "with --curves compact, the N busiest pages keep their whole curves (for the figures)")
	f.StringVar(&opt.ShardText, "shard", "", shardHelp)
	f.StringVar(&opt.WriteObservations, "write-observations", "", "also write what each sampler's crawler saw to OUT/observations/ as visit logs in `FORMAT` ("+strings.Join(logs.Formats, ", ")+"); the estimates are then computed from exactly those observations, as 'revisit estimate' does")
	f.StringVarP(&opt.Out, "output", "o", "", "output directory (required)")
	addSelectFlags(f, &opt.Selection)
	return cmd
}
