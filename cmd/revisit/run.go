package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/pipeline"
	"github.com/revisit-dev/revisit/replay"
)

func newRunCmd(g *globals) *cobra.Command {
	c := pipeline.DefaultCommandOptions()
	cmd := &cobra.Command{
		Use:   "run INPUT... -o OUT   (or: run DATASET -o OUT)",
		Short: "Ingest → replay → analyze → report in one go, with sensible defaults",
		Long: `run does the whole job on edit histories (Wikipedia dumps, Yelp files, update
logs — anything 'revisit ingest' reads, with the same filters and the same
--id/--time/--format options for CSV/JSON logs) and writes, under OUT:

  dataset/    the Parquet dataset of update series (revisit ingest)
  replay/     estimates of every method by virtual crawlers (revisit replay)
  analysis/   statistics, tail fits, method errors (revisit analyze)
  nhpp/       localized-rate (NHPP) results for the top pages
  staleness/  staleness of a crawler's copy, exact vs Poisson
  policies/   download policies under a budget (when the corpus has at
              least 20 pages and at most --policy-max-updates updates)
  report/     the report: open report/index.html (revisit report)

INPUT may instead be one dataset directory that 'revisit ingest' (or an
earlier run, OUT/dataset) wrote, recognised by its manifest.json: ingest is
then skipped and the dataset is read where it is, never copied or
modified; no dataset/ is written under OUT (an earlier run's is removed,
unless it is the input), and the report's ingest counts are those of the
dataset's manifest. Ingest options do not apply to it and are refused.

The methods are compared on a random sample (--sample, drawn from --seed)
of the pages with at least ` + fmt.Sprint(analysis.MinEvidenceIntervals) + ` intervals, the pages long enough to be
evidence, not on the busiest ones (which are no sample of a corpus);
--top N replays the N busiest instead (--top 0: every page).
Defaults follow each page's timescale, as in 'revisit replay' and
'revisit analyze': the pages are replayed with two crawlers at ` + fmt.Sprint(replay.VisitsPerMean) + ` visits per mean interval E[U]
of the page, exponential and constant delays (` + strings.Join(replay.DefaultSamplers, ", ") + `);
x_max per page is the 0.99 quantile of its G_U, and h per page E[U]/100
but never finer than the source's time resolution (bins finer than the
timestamps only add noise to M6). The unit is hours for sources with
1-second timestamps and days for date-only ones. --rate λ replaces the
crawlers by exp:λ and const:1/λ; --x-max and --h fix those values for
every page. Policies replay weekly cycles (monthly for date-only sources) with
a budget of 10 % of the pages, grouping pages into sites by the dataset's
group column, or into 10 hashed sites when it has one group only.

Every random draw comes from --seed: the same seed gives the same report.
--include adds other results directories (e.g. from 'revisit simulate')
to the report.

` + selectHelp + ` In run the selection applies to every
stage after ingest (replay, analysis, NHPP, staleness, policies; --sample
and --top then pick among the selected pages), the run's log says how many pages it
kept, and a selection that keeps no page stops the run (exit 2). --group
remains ingest's group column of generic logs.`,
		Example: `  revisit run enwiki-latest-stub-meta-history.xml.gz -o out
  revisit run yelp_academic_dataset_review.json -o yelp-out --top 20
  revisit run file_commits.csv.gz --id path --time commit_time_utc -o git-out
  revisit run dump.xml.bz2 -o out --rate 0.5 --seed 7 --include sim-out
  revisit run large.xml.lzma -o anarchism --sampler const:0.25 --sampler exp:4
  revisit ingest dump.xml.bz2 -o ds && revisit run ds -o out --top 50
  revisit run ds -o out-lists --match '^List of' --top 0`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := reportTitle(cmd, c.Title); err != nil {
				return err
			}
			if err := topOrSample(cmd, &c.Top, &c.Sample); err != nil {
				return err
			}
			c.Inputs, c.Version, c.OnStage = args, version, g.onStage
			c.Ingest.Given, c.IngestFlag = cmd.Flags().Changed, changedIngestFlag(cmd)
			return pipeline.Command(cmd.Context(), c, g.console(cmd)) // cancelled on Ctrl-C (supervise.CancelOnSignal)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&c.Out, "output", "o", "", "output directory (dataset/, replay/, analysis/, report/ … are made inside)")
	f.IntVar(&c.Sample, "sample", c.Sample, "compare the methods on a random sample (from --seed) of N pages with ≥ "+fmt.Sprint(analysis.MinEvidenceIntervals)+" intervals")
	f.IntVar(&c.Top, "top", c.Top, "replay and analyse the N pages with the most updates instead of the sample (0: every page)")
	f.Float64Var(&c.Rate, "rate", 0, "crawler rate λ per --unit: samplers exp:λ and const:1/λ (0: relative to each page, "+strings.Join(replay.DefaultSamplers, " and ")+")")
	f.StringArrayVar(&c.Samplers, "sampler", nil, "crawler `SPEC` instead of the defaults, repeatable; a rate or delay ending in x is relative to each page (see revisit replay --help)")
	f.StringSliceVar(&c.Methods, "methods", c.Methods, "methods: all or a list of "+strings.Join(estimator.AllMethods, ",")+" (as revisit replay)")
	f.StringVar(&c.UnitText, "unit", "", "time unit of λ, h, x_max and the report: s, min, h, d, w, y (default h, or d for date-only sources)")
	f.Float64Var(&c.H, "h", 0, "bin width h for random delays, in units (0: per page, E[U]/100 but never finer than the source's time resolution)")
	f.Float64Var(&c.XMax, "x-max", 0, "errors and estimates on [0, x_max], in units (0: per page, the 0.99 quantile of its G_U)")
	f.Uint64Var(&c.Seed, "seed", c.Seed, "seed of every random draw")
	f.IntVar(&c.Seeds, "seeds", c.Seeds, "replay every page × sampler with R independent seeds: every error with a 95% interval (not --reps; docs/methods.md#seeds)")
	f.IntVar(&c.Reps, "reps", c.Reps, "Monte-Carlo replicates of the Poisson screen's KS test")
	f.IntVar(&c.NHPPPages, "nhpp-pages", c.NHPPPages, "pages (most updates first) analysed for NHPP windows and staleness")
	f.StringVar(&c.Cycle, "cycle", "", "download-policy cycle (e.g. 7d; default "+pipeline.DefaultCycle+", or "+pipeline.DateOnlyCycle+" for date-only sources)")
	f.StringVar(&c.Budget, "budget", c.Budget, "download-policy budget: downloads per cycle (R or R/cycle), or a percentage of the pages")
	f.Int64Var(&c.PolicyMax, "policy-max-updates", c.PolicyMax, "skip the download policies above this many updates (they hold every page in memory)")
	f.IntVar(&c.Workers, "workers", 0, "parallel replay and analysis workers (0: all cores)")
	f.Var((*countFlag)(&c.MaxVisits), "max-visits", maxVisitsHelp)
	f.Var((*countFlag)(&c.MaxPairs), "max-pairs", maxPairsHelp)
	f.StringArrayVar(&c.Include, "include", nil, "another results `DIR` to render in the report (e.g. from revisit simulate), repeatable")
	f.StringVar(&c.Title, "title", "", "report title, as in revisit report (default: revisit report on the inputs' names); a generic log's title column is --title-column")
	f.IntVar(&c.ScreenUpdates, "screen-updates", c.ScreenUpdates, "K: pages with at least K updates enter the Poisson screen (analyze's --screen-updates)")
	// ingest's filters, caps and generic-log options, defined once for
	// both commands: anything 'revisit ingest' reads 'revisit run' reads too.
	addIngestFlags(f, &c.Ingest)
	addSelectFlags(f, &c.Selection)
	return cmd
}

// reportTitle refuses a --title that reads as a column, a whole number
// such as "1": in run --title is the report's title, and a generic log's
// title column (a name or a 0-based index, as --id and --time) is
// --title-column; ingest once spelled that --title.
func reportTitle(cmd *cobra.Command, title string) error {
	if !cmd.Flags().Changed("title") {
		return nil
	}
	if _, err := strconv.Atoi(strings.TrimSpace(title)); err == nil {
		return usagef("run: --title %s would title the report %q: --title is the report's title; a generic log's title column is --title-column %s", quoteArg(title), title, quoteArg(strings.TrimSpace(title)))
	}
	return nil
}

// changedIngestFlag is the first ingest flag (addIngestFlags) given on
// cmd's command line, or "".
func changedIngestFlag(cmd *cobra.Command) string {
	fs := pflag.NewFlagSet("ingest", pflag.ContinueOnError)
	addIngestFlags(fs, &ingest.CommandOptions{})
	name := ""
	fs.VisitAll(func(f *pflag.Flag) {
		if name == "" && cmd.Flags().Changed(f.Name) {
			name = f.Name
		}
	})
	return name
}
