package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/generate"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/internal/usage"
)

func newGenerateCmd(g *globals) *cobra.Command {
	var injReverts, injBots float64
	var (
		pages, maxUpdates              int
		models                         []string
		span, start, unit, format, out string
		truth, gzipImpl                string
		seed                           uint64
		talk                           float64
		gz                             bool
	)
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Write a synthetic corpus with a known update process (MediaWiki dump, Yelp JSON or Parquet) and its truth.json",
		Long: `generate writes a synthetic corpus whose update process is known:
every page is created at --start and then updated by its model until the end
of the window --start + --span. Output is a MediaWiki stub-meta-history XML
dump (schema 0.11, gzip when the name ends in .gz), Yelp-style review JSON
lines (2019+ format, plus yelp_academic_dataset_business.json whose cities
are the groups), or the Parquet dataset directly; and truth.json with every
page's model, drawn parameters, closed-form E[U] and update counts.

Timestamps have 1-second resolution: the truth is the generated times
rounded down to whole seconds; updates falling in the same second are
written as separate revisions with the same timestamp and counted as
collapsed. The same --seed gives byte-identical output.

MODELS (--model, repeatable; parameters in --unit):
  exp:RATE                 Poisson (exponential intervals, mean 1/RATE)
  pareto:ALPHA,BETA        Lomax intervals, P(U > x) = (1 + x/BETA)^-ALPHA
  weibull:K,SCALE          P(U > x) = exp(-(x/SCALE)^K)
  lognormal:MU,SIGMA       ln U ~ N(MU, SIGMA²)
  uniform:A,B              uniform on [A, B]
  const:C                  always C
  mix:W*DIST+W*DIST…       intervals from a mixture (within each page)
  onoff:RATE,(ON),(OFF)    bursts: Poisson of RATE during ON periods; ON and
                           OFF lengths from the distributions in parentheses
  nhpp:RATE[,TREND[,DAY[,WEEK]]]
                           non-homogeneous Poisson: rate RATE·(1+TREND·s)·
                           (1+DAY·cos 2πt/day)·(1+WEEK·cos 2πt/week), s = the
                           fraction of the window elapsed; exact (thinning)
  lrd:H,(DIST)             intervals with marginal DIST and long-range
                           dependence of Hurst exponent H (fGn copula)
Any number may be {DIST}: drawn per page from DIST, e.g. exp:{lognormal:-3,1.5}
gives heavy-tailed update counts across pages. Prefix W* to mix models over
pages: --model '0.7*pareto:1.5,20' --model '0.3*onoff:2,(pareto:1.5,1),(pareto:1.2,100)'.`,
		Example: `  # a gzip MediaWiki dump of 10,000 pages over 5 years, and its truth
  revisit generate --page-count 10000 --span 5y -o gen-stub-meta-history.xml.gz

  # straight into ingest
  revisit generate --page-count 1000 -o - --truth truth.json | revisit ingest - -o ds --all-namespaces

  # a Parquet dataset of Poisson pages with lognormal rates
  revisit generate --format parquet --model 'exp:{lognormal:-3,1.5}' -o ds

  # Yelp-style reviews, intervals in days, LRD pages
  revisit generate --format yelp --unit d --model 'lrd:0.8,(exp:0.2)' -o yelp-gen`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := refuseRenamed(cmd, renamedPageCount); err != nil {
				return err
			}
			unitS, ok := units.Short(unit)
			if !ok {
				return usagef("--unit %q: want s, m, h, d, w or y", unit)
			}
			ms, err := generate.ParseModels(models, unitS)
			if err != nil {
				return usagef("--model: %v", err)
			}
			spanS, err := units.ParseDuration(span)
			if err != nil {
				return usagef("--span: %v", err)
			}
			t0, err := units.ParseStart(start)
			if err != nil {
				return usagef("--start: %v", err)
			}
			if out == "" {
				out = map[string]string{
					generate.FormatMediaWiki: "generated-stub-meta-history.xml.gz",
					generate.FormatYelp:      "generated-yelp",
					generate.FormatParquet:   "generated-dataset",
				}[format]
			}
			switch format {
			case generate.FormatMediaWiki, generate.FormatYelp, generate.FormatParquet:
			default:
				return usagef("--format %q: want mediawiki, yelp or parquet", format)
			}
			if out == "-" && format == generate.FormatParquet {
				return usagef("--format parquet writes a directory: give -o DIR")
			}
			opt := generate.Options{
				Config: generate.Config{Pages: pages, Models: ms, Start: t0, Span: spanS, UnitName: unit, Unit: unitS,
					Seed: seed, TalkFraction: talk, MaxUpdates: maxUpdates, RevertRate: injReverts, BotRate: injBots},
				Format: format, Out: out, Truth: truth, Gzip: gz, GzipImpl: gzipImpl, Version: version,
				Stdout: cmd.OutOrStdout(), Context: cmd.Context(),
			}
			if (injReverts > 0 || injBots > 0) && format != generate.FormatMediaWiki {
				return usagef("--inject-reverts and --inject-bots need --format mediawiki")
			}
			if err := opt.Check(); err != nil {
				return usagef("%v", err)
			}
			if format == generate.FormatParquet {
				if err := checkOutput("generate", out, dataset.ManifestFile, "dataset"); err != nil {
					return err // generate.Run's own checks leave the dataset to dataset.Create
				}
			}
			var bar *progressbar.ProgressBar
			if g.console(cmd).ErrIsTerminal() && !g.quiet {
				bar = progressbar.NewOptions(pages, progressbar.OptionSetWriter(os.Stderr),
					progressbar.OptionSetDescription("generate"), progressbar.OptionShowCount(),
					progressbar.OptionShowIts(), progressbar.OptionSetItsString("pages"),
					progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
				opt.Progress = func(n int, _ int64) {
					if n%64 == 0 || n == pages {
						bar.Set(n)
					}
				}
			}
			sum, err := generate.Run(opt)
			if bar != nil {
				bar.Finish()
			}
			if errors.Is(err, generate.ErrNotOurs) {
				return &usage.Refused{Err: fmt.Errorf("generate: %w", err)}
			}
			if err != nil {
				return fmt.Errorf("generate: %w", err)
			}
			if !g.quiet {
				size := ""
				if sum.Bytes > 0 {
					size = ", " + human.Bytes(sum.Bytes) + " uncompressed"
					if sum.Elapsed > 0 {
						size += " (" + human.ByteRate(sum.Bytes, sum.Elapsed) + ")"
					}
				}
				where := human.Path(sum.Out)
				if sum.Truth != "" {
					where += ", truth " + human.Path(sum.Truth)
				}
				fmt.Fprintf(os.Stderr, "generate: %s pages, %s revisions, %s updates (%s same-second revisions collapsed)%s in %s → %s\n",
					human.Comma(sum.Pages), human.Comma(sum.Revisions), human.Comma(sum.Updates),
					human.Comma(sum.Collapsed), size, human.Elapsed(sum.Elapsed), where)
				if n := sum.InjectedReverts + sum.InjectedBots; n > 0 {
					fmt.Fprintf(os.Stderr, "generate: injected %s identity reverts undoing %s revisions, %s bot edits (not updates)\n",
						human.Comma(sum.InjectedReverts), human.Comma(sum.InjectedReverted), human.Comma(sum.InjectedBots))
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.Float64Var(&injReverts, "inject-reverts", 0, "MediaWiki: probability per gap between two updates of an injected identity-revert pair (1–3 IP edits, then a revert restoring the earlier <sha1>); not updates, listed in truth.json")
	f.Float64Var(&injBots, "inject-bots", 0, "MediaWiki: probability per gap (when no revert pair) of an injected bot edit (user name ending in bot); not updates, listed in truth.json")
	f.IntVar(&pages, "page-count", 1000, "number of pages (businesses)")
	addRenamed(f, renamedPageCount)
	f.StringArrayVar(&models, "model", []string{"pareto:1.5,{lognormal:3,1.5}"}, "update model `SPEC`, [WEIGHT*]SPEC, repeatable (see above)")
	f.StringVar(&span, "span", "1y", "length of the window (s, m, h, d, w, y)")
	f.StringVar(&start, "start", "2020-01-01", "start of the window (UTC): YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ")
	f.StringVar(&unit, "unit", "h", "time unit of model parameters: s, m, h, d, w, y")
	f.Uint64Var(&seed, "seed", 1, "random seed (same seed, same bytes)")
	f.StringVar(&format, "format", generate.FormatMediaWiki, "output format: mediawiki, yelp or parquet")
	f.StringVarP(&out, "output", "o", "", "output file (mediawiki; .gz compresses), directory (yelp, parquet) or - for stdout (MediaWiki XML, or Yelp reviews without the business file) (default generated-stub-meta-history.xml.gz, generated-yelp, generated-dataset)")
	f.StringVar(&truth, "truth", "", "truth.json path (default beside the output: X.truth.json or DIR/truth.json; none for -); an existing file there is replaced only if it is the truth of this same output")
	f.BoolVar(&gz, "gzip", false, "gzip standard output")
	f.StringVar(&gzipImpl, "gzip-impl", "pgzip", "gzip writer: pgzip (parallel) or gzip (one core)")
	f.Float64Var(&talk, "talk", 0.1, "fraction of pages that are talk pages (namespace 1)")
	f.IntVar(&maxUpdates, "max-updates", 10_000_000, "fail when a page would get more updates than this (0: no limit)")
	return cmd
}
