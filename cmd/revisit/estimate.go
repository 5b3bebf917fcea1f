package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/crawllog"
	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
)

func newEstimateCmd(g *globals) *cobra.Command {
	var (
		opt       = crawllog.CommandOptions{EstimateOptions: crawllog.EstimateOptions{Version: version}}
		noRecover bool
	)
	cmd := &cobra.Command{
		Use:   "estimate LOG... -o OUT",
		Short: "Estimate update distributions from real crawl observations (CDX, CDXJ, change-bit traces, visit logs)",
		Long: `estimate reads what a crawler saw — no ground truth — and runs, per URL,
every estimator the observations allow (docs/methods.md#observed):

  ages (Last-Modified)     M1, M2, age-mle
  constant delays          M3, M4, M5, cho, matloff (every delay within
                           --const-tolerance of the others, 3+ visits)
  any delays               G-M4, M6, naive, poisson-mle (the Poisson rate
                           maximising the likelihood of the changed/unchanged
                           visits at their own delays)
  F_U                      recovered from M2, M4, M5, M6 (unless --no-recover)

Formats (--format, default auto: detected from each input's first line;
any compression revisit reads, e.g. .gz):
` + logs.FormatHelp() + `A gzip file is read member by member, a member's end ending a line: the
blocks of a ZipNum shard (.cdx.gz) of cdx or cdxj lines. A ZipNum cluster
is read from its index: give the .idx; the .loc beside it names the shards
(without one, the shard files are beside the index, as Common Crawl's).
A change is a digest different from the previous capture's, a changed bit,
or a Last-Modified after the previous visit. A capture that saw no page
(status 404/410, or "-" in a generic log) before a URL's first capture with
content means the page was created in between: the first capture detects
its creation. Otherwise the first capture is a reference only (the URL
existed before). Other statuses (3xx, 5xx) are counted and skipped; captures
in the same second are merged (counted).

Logs need not be sorted: captures are grouped by URL in memory, at most
--max-observations of them (24 to 48 bytes each). With --sorted (CDX and
CDXJ indexes are sorted by urlkey, Common Crawl's shards in order too) one
URL is held at a time, and a URL out of order is a bad line. A trace line
holds a whole URL and is estimated at once; trace ids are checked for
duplicates against the last one while they increase, else a 128-bit hash
of each is held (1 to 2 captures each under --max-observations). Bad lines stop with an
error naming the file and line (exit 1); --skip-bad counts and skips them.

Output (OUT, written atomically; an earlier estimate output is replaced):
estimates.parquet (replay's schema: page_id = FNV-1a-63 of the URL, title =
the URL, sampler "observed const:Δ" or "observed irregular"; no truth
rows), estimate.json (inputs, counts, skips, verdicts, empty bins),
urls.csv (per URL: the grid and its empty bins, the trace's importance, the
original URLs a SURT key grouped, the verdict), and tables/ and
figures/ for 'revisit report': the top URLs with the Poisson verdict (KS
between the estimated G_U and the poisson-mle exponential, Poisson when
≤ 0.1) and their estimated G_U and F_U.

The logs 'revisit replay --write-observations FORMAT' writes give exactly
replay's estimates when estimate is given the same --unit, --h and --x-max.

With --shard i/N (or N, the index from the job array's environment) the
process estimates only the URLs of shard i. When every input is an
uncompressed file of a trace, or of a CDX or CDXJ index read with --sorted,
shard i reads only its byte range of the inputs (about 1/N of the bytes;
cut between lines, and never inside a urlkey's lines; a trace's ids must
then increase, a sorted index's keys too: the merge checks). Otherwise,
or with --shard-by hash, every shard reads every input and keeps the URLs
whose page id (FNV-1a-63 of the URL) hashes to i (SplitMix64 mod N, as
replay's pages); the log says which. Its OUT is an estimate of those URLs plus
estimate-shard.json; 'revisit merge estimate OUT_0 … OUT_{N−1} -o OUT'
writes what one process writes (estimates.parquet byte for byte, the same
tables and figures; docs/scale-out.md).`,
		Example: `  revisit estimate example.com.cdx -o out/est
  revisit estimate CC-MAIN-*.cdxj.gz --unit d -o out/cc-est
  revisit estimate bing-trace.tsv --format trace --unit d --skip-bad -o out/bing
  revisit estimate out/replay/observations/exp_2.cdx --h 0.1 --x-max 20 -o out/est && revisit report out/est -o out/est-report
  revisit estimate CC-MAIN-*.cdxj.gz --sorted --shard 2/7 -o out/est-2   # then: revisit merge estimate out/est-* -o out/est`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Inputs = args
			opt.Recover = !noRecover
			return crawllog.Command(cmd.Context(), opt, g.console(cmd))
		},
	}
	f := cmd.Flags()
	f.StringVar(&opt.Read.Format, "format", "auto", "log format: auto, "+strings.Join(logs.Formats, ", "))
	f.BoolVar(&opt.Read.SkipBad, "skip-bad", false, "count and skip bad lines instead of failing")
	f.StringVar(&opt.Read.Key, "key", logs.KeySURT, "group CDX-family captures by their SURT urlkey (surt, as archives do; merges http/https and www.) or their original URL (url)")
	f.StringVar(&opt.Read.Importance, "importance", "", "Bing trace importance file (urlid_imp.txt: URL_ID<TAB>importance); detected when given as an input")
	f.StringVar(&opt.Read.URLs, "urls", "", "Bing trace URL file (url_urlid_hostid.txt: URL<TAB>URL_ID<TAB>Host_ID): URLs estimated under their URL; detected when given as an input")
	f.BoolVar(&opt.Read.Sorted, "sorted", false, "the logs are sorted by URL, across the inputs in the order given (as CDX and CDXJ indexes are): hold one URL at a time instead of grouping in memory")
	opt.Read.MaxObservations = logs.DefaultMaxObservations
	f.Var((*countFlag)(&opt.Read.MaxObservations), "max-observations", "captures held in memory at once (logs are grouped by URL)")
	f.StringVar(&opt.UnitText, "unit", "h", "time unit of λ, h, x_max and the output: s, min, h, d, w, y")
	f.Float64Var(&opt.H, "h", 0, "bin width h of the grid for irregular delays (M6's bins), in units (0: per URL from the delays between captures, never finer than the log's resolution, at most 400 bins, coarsened until at most half of the bins are without a pair of visits; docs/methods.md#observed-grid)")
	f.Float64Var(&opt.XMax, "x-max", 0, "largest grid point x_max, in units (0: per URL, the 0.99 quantile of the ages, or of the times since the visit before the last change, at most the 0.99 quantile of the spans between two captures)")
	f.StringSliceVar(&opt.Methods, "methods", []string{"all"}, "methods: all or a list of "+strings.Join(estimator.AllMethods, ","))
	f.Int64Var(&opt.ConstTol, "const-tolerance", estimator.DefaultConstTolerance, "largest spread of the delays, in seconds, still taken as constant (0: exactly equal)")
	f.IntVar(&opt.MinChanges, "min-changes", crawllog.DefaultMinChanges, "fewest changes seen on which a URL gets a Poisson verdict; fewer: undecided (so that a KS distance of 0.1 can be told from 0 at the 5% level: (1.358/0.1)², docs/methods.md#poisson-verdict)")
	f.IntVar(&opt.Top, "top", 10, "URLs with the most visits in the tables (the parquet holds every URL)")
	f.StringVar(&opt.CurvesText, "curves", string(estimates.CurvesCompact), "curves kept in estimates.parquet: compact ("+fmt.Sprint(estimates.Knots)+" knots of each URL's grid) or full (every grid point)")
	f.BoolVar(&noRecover, "no-recover", false, "do not recover F_U from M2, M4, M5, M6")
	f.StringVarP(&opt.Out, "output", "o", "", "output directory (required)")
	f.StringVar(&opt.ShardText, "shard", "", "only the URLs of shard `i/N` (0-based): its byte range of uncompressed traces and --sorted CDX/CDXJ, else those whose page id hashes to i (--shard-by); N alone takes i from JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX; combine the N outputs with 'revisit merge estimate' (docs/scale-out.md)")
	f.StringVar(&opt.ShardBy, "shard-by", crawllog.ShardByAuto, "how --shard chooses its URLs: auto (byte ranges when the inputs allow, else hash) or hash (every shard reads every input)")
	f.IntVar(&opt.Workers, "workers", 0, "parallel workers estimating URLs (0: all cores); the output is the same for any number")
	return cmd
}
