package main

import (
	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/generate"
)

func newGenerateCmd(g *globals) *cobra.Command {
	opt := generate.CommandOptions{Options: generate.Options{Version: version}}
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
			return generate.Command(cmd.Context(), opt, g.console(cmd))
		},
	}
	f := cmd.Flags()
	f.Float64Var(&opt.RevertRate, "inject-reverts", 0, "MediaWiki: probability per gap between two updates of an injected identity-revert pair (1–3 IP edits, then a revert restoring the earlier <sha1>); not updates, listed in truth.json")
	f.Float64Var(&opt.BotRate, "inject-bots", 0, "MediaWiki: probability per gap (when no revert pair) of an injected bot edit (user name ending in bot); not updates, listed in truth.json")
	f.IntVar(&opt.Pages, "page-count", 1000, "number of pages (businesses)")
	addRenamed(f, renamedPageCount)
	f.StringArrayVar(&opt.ModelTexts, "model", []string{"pareto:1.5,{lognormal:3,1.5}"}, "update model `SPEC`, [WEIGHT*]SPEC, repeatable (see above)")
	f.StringVar(&opt.SpanText, "span", "1y", "length of the window (s, m, h, d, w, y)")
	f.StringVar(&opt.StartText, "start", "2020-01-01", "start of the window (UTC): YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ")
	f.StringVar(&opt.UnitText, "unit", "h", "time unit of model parameters: s, m, h, d, w, y")
	f.Uint64Var(&opt.Seed, "seed", 1, "random seed (same seed, same bytes)")
	f.StringVar(&opt.Format, "format", generate.FormatMediaWiki, "output format: mediawiki, yelp or parquet")
	f.StringVarP(&opt.Out, "output", "o", "", "output file (mediawiki; .gz compresses), directory (yelp, parquet) or - for stdout (MediaWiki XML, or Yelp reviews without the business file) (default generated-stub-meta-history.xml.gz, generated-yelp, generated-dataset)")
	f.StringVar(&opt.Truth, "truth", "", "truth.json path (default beside the output: X.truth.json or DIR/truth.json; none for -); an existing file there is replaced only if it is the truth of this same output")
	f.BoolVar(&opt.Gzip, "gzip", false, "gzip standard output")
	f.StringVar(&opt.GzipImpl, "gzip-impl", "pgzip", "gzip writer: pgzip (parallel) or gzip (one core)")
	f.Float64Var(&opt.TalkFraction, "talk", 0.1, "fraction of pages that are talk pages (namespace 1)")
	f.IntVar(&opt.MaxUpdates, "max-updates", 10_000_000, "fail when a page would get more updates than this (0: no limit)")
	return cmd
}
