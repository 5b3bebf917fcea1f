package crawllog

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/memlimit"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/internal/usage"
)

// CommandOptions are what `revisit estimate` is given: the EstimateOptions
// as the command line sets them, every default explicit, and the text of
// the flags Validate parses into them.
type CommandOptions struct {
	EstimateOptions

	// UnitText, when given, is the unit as the user wrote it ("d";
	// --unit), parsed into Unit.
	UnitText string
	// ShardText, when given, is the shard as the user wrote it ("2/7", or
	// "7" with the index in the job array's environment; --shard), parsed
	// into Shard.
	ShardText string
	// CurvesText is --curves as given (estimates.ParseCurves), parsed
	// into Curves.
	CurvesText string
}

// Validate checks the options as `revisit estimate` gives them, every
// default explicit (Top, MinChanges and Read.MaxObservations at least 1,
// ConstTol at least 0 seconds, an output directory), and resolves the
// command line's text: UnitText into Unit, ShardText into Shard (an index
// left to the job array is read from the process's environment),
// CurvesText into Curves. Every error is a *usage.Error, its message the
// flag's; Validate touches no file. It may be called again on what it
// resolved.
func (o *CommandOptions) Validate() error {
	if o.ShardText != "" {
		sp, err := shard.Parse(o.ShardText, os.LookupEnv)
		if err != nil {
			return usage.Errorf("estimate: --shard: %v", err)
		}
		o.Shard = sp
	}
	if o.UnitText != "" {
		u, err := units.ParseUnit(o.UnitText)
		if err != nil {
			return usage.Errorf("--unit: %v", err)
		}
		o.Unit = u
	}
	if f := o.Read.Format; f != "" && f != "auto" {
		if _, err := logs.ParseFormat(f); err != nil {
			return usage.Errorf("estimate: --format: %v", err)
		}
	}
	if err := logs.CheckKey(o.Read.Key); err != nil {
		return usage.Errorf("estimate: --key: %v", err)
	}
	if o.Top < 1 {
		return usage.Errorf("estimate: --top must be ≥ 1")
	}
	if o.Read.MaxObservations < 1 {
		return usage.Errorf("estimate: --max-observations must be ≥ 1")
	}
	if o.MinChanges < 1 {
		return usage.Errorf("estimate: --min-changes must be ≥ 1")
	}
	if o.ConstTol < 0 {
		return usage.Errorf("estimate: --const-tolerance must be ≥ 0 seconds")
	}
	if o.Out == "" {
		return usage.Errorf("estimate: -o OUT is required")
	}
	c, err := estimates.ParseCurves(o.CurvesText)
	if err != nil {
		return usage.Errorf("estimate: %v", err)
	}
	o.Curves = c
	return nil
}

// Command is `revisit estimate`: real crawl logs (CDX, CDXJ, Common Crawl
// JSON, Bing trace, generic) → observations → estimates, no truth (the
// estimate stage of SPEC's table), written to o.Out by EstimateLogs. The
// options are the command line's (CommandOptions.Validate): a ConstTol of
// 0 there is exact equality. It refuses bad options and an output it
// would not replace before it reads any input (exit code 2), works under
// the soft memory limit (memlimit.Set), logs on con and prints the
// summary (EstimateMeta.WriteSummary) unless Quiet.
func Command(ctx context.Context, o CommandOptions, con console.Console) error {
	if err := o.Validate(); err != nil {
		return err
	}
	opt := o.EstimateOptions
	if err := atomicdir.CheckOutput("estimate", opt.Out, EstimateMetaFile, "estimate output"); err != nil {
		return err
	}
	if opt.ConstTol == 0 {
		opt.ConstTol = -1 // exact equality (EstimateLogs' 0 is the default)
	}
	opt.Log = con.Log()
	defer memlimit.Set()()
	meta, err := EstimateLogs(ctx, opt)
	if err != nil {
		return fmt.Errorf("estimate: %w", err)
	}
	if !con.Quiet {
		meta.WriteSummary(con.Out, opt.Out)
	}
	return nil
}

// WriteSummary writes what an estimate (or the merge of its shards) read
// and concluded, out being its output directory: the URLs estimated and
// the captures, URLs and inputs read, the grids' empty bins, the lines and
// URLs skipped, and the Poisson verdicts. A shard that estimated no URL
// says that, and what it read. A failed write is w's to report
// (console.Console.Out is checked once, at exit).
func (m *EstimateMeta) WriteSummary(w io.Writer, out string) {
	if m.Estimated == 0 { // a shard: EstimateLogs refuses an estimate of no URL
		fmt.Fprintf(w, "shard %s estimated none of the %s read (%s in %s): they are other shards', or left out as counted below; 'revisit merge estimate' of every shard's output writes the estimate → %s\n",
			m.Shard, human.Count(m.URLs, "URL", "URLs"), human.Count(m.Captures, "capture", "captures"), human.Count(int64(len(m.Inputs)), "input", "inputs"), human.Path(out))
	} else {
		fmt.Fprintf(w, "estimated %s (%s with constant delays) from %s of %s in %s → %s (%s)\n",
			human.Count(int64(m.Estimated), "URL", "URLs"), human.Comma(int64(m.Constant)), human.Count(m.Captures, "capture", "captures"),
			human.Count(m.URLs, "URL", "URLs"), human.Count(int64(len(m.Inputs)), "input", "inputs"), human.Path(out+"/"+estimates.File), human.Count(m.Rows, "row", "rows"))
	}
	if m.Bins > 0 {
		fmt.Fprintf(w, "  grids: %.1f%% of the bins without a pair of visits (%s of %s; per URL in %s)\n", 100*m.EmptyShare,
			human.Comma(m.EmptyBins), human.Comma(m.Bins), URLsFile)
	}
	if m.Bad > 0 {
		fmt.Fprintf(w, "  skipped %s (--skip-bad; per input in %s)\n", human.Count(m.Bad, "bad line", "bad lines"), EstimateMetaFile)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	keys := make([]string, 0, len(m.Skipped))
	for k := range m.Skipped {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(tw, "  skipped\t%s\t%s\n", strings.ReplaceAll(k, "_", " "), human.Comma(m.Skipped[k]))
	}
	tw.Flush()
	if m.Estimated == 0 {
		return
	}
	fmt.Fprintf(w, "Poisson verdict (KS between estimated G_U and the poisson-mle exponential ≤ %s, on %s or more changes seen): %s Poisson, %s not Poisson, %s undecided (%s with fewer than %s changes)\n",
		human.Float(m.Threshold), human.Comma(int64(m.MinChanges)), human.Comma(int64(m.Verdicts[VerdictPoisson])), human.Comma(int64(m.Verdicts[VerdictNotPoisson])),
		human.Comma(int64(m.Verdicts[VerdictUndecided])), human.Comma(int64(m.FewChanges)), human.Comma(int64(m.MinChanges)))
}
