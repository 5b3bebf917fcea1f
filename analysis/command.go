package analysis

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/memlimit"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/internal/usage"
)

// CommandOptions are what `revisit analyze` is given: the analysis's
// Options as the command line sets them, every knob explicit (a zero
// that Run would read as its default is refused by Validate, except
// Extra: --extra 0 asks for no points), and the choices of the command
// itself.
type CommandOptions struct {
	Options

	// Inputs are the arguments: DATASET [REPLAY_DIR]; with Recommend,
	// REPLAY_DIR alone, nothing, or DATASET REPLAY_DIR with Out.
	Inputs []string
	// UnitText is --unit as given ("": the dataset's default unit).
	UnitText string
	// SelectMiB is --select-mib: Localized.SelectBytes in MiB.
	SelectMiB int64
	// Shard is --shard as given (shard.Parse): "" analyses every page,
	// else Command writes the shard's partial statistics (RunShard).
	Shard string
	// Selection is the page selection as given (--pages, --match,
	// --in-group).
	Selection dataset.SelectionFlags

	// Recommend prints the method SPEC §5 recommends for the scenario
	// of Age, Sampler and OldM3 (ParseScenario), with the errors
	// measured on the replay given that back it.
	Recommend    bool
	Age, Sampler string
	OldM3        bool
	// ScenarioFlags are the scenario's flags the user gave (--age,
	// --sampler, --old-m3, without their dashes): they describe the
	// scenario of Recommend and are refused without it.
	ScenarioFlags []string
}

// command is a CommandOptions checked, with its text parsed: what Command
// runs.
type command struct {
	opt      Options
	scenario *Scenario // with Recommend
	shard    shard.Spec
}

// Validate refuses, before any work, options that cannot work: a unit
// that does not parse, a band, threshold, staleness or Δ out of range,
// counts below 1, a negative --workers or --extra, an --x-max that is
// not finite and ≥ 0, scenario flags without Recommend or a scenario
// that does not parse, arguments that do not fit the mode, a
// --select-mib below 1 and a --shard that does not parse. Every error is
// a *usage.Error whose message names the flag, as the command line
// prints it.
func (o CommandOptions) Validate() error {
	_, err := o.parse()
	return err
}

func (o CommandOptions) parse() (command, error) {
	c := command{opt: o.Options}
	if o.UnitText != "" {
		u, err := units.ParseUnit(o.UnitText)
		if err != nil {
			return c, usage.Errorf("--unit: %v", err)
		}
		c.opt.Unit = u
	}
	if !(o.Band > 0 && o.Band <= 1) { // 0 would silently become the default 0.1
		return c, usage.Errorf("--band %g: want a value in (0, 1]", o.Band)
	}
	if lo := o.Localized; !(lo.Theta > 0 && lo.Theta < 1) {
		return c, usage.Errorf("--nhpp-theta %g: want a threshold in (0, 1)", lo.Theta)
	} else if !(lo.Epsilon > 0 && lo.Epsilon < 1) {
		return c, usage.Errorf("--stale-eps %g: want a staleness in (0, 1)", lo.Epsilon)
	} else if !(lo.Delta >= 0) {
		return c, usage.Errorf("--stale-delta %g: want Δ ≥ 0 (0: each page's E[U])", lo.Delta)
	}
	if o.Reps < 1 || o.Top < 1 || o.MinUpdates < 1 || o.MaxLag < 1 || o.Closest < 1 {
		return c, usage.Errorf("--reps, --top, --screen-updates, --max-lag and --closest must be at least 1")
	}
	if o.Workers < 0 {
		return c, usage.Errorf("--workers %d: want 0 (all cores) or more", o.Workers)
	}
	if o.Extra < 0 {
		return c, usage.Errorf("--extra %d: want 0 or more points per step", o.Extra)
	}
	if !(o.XMax >= 0) || math.IsInf(o.XMax, 0) {
		return c, usage.Errorf("--x-max %g: want a finite value ≥ 0 (0: each page's own replay grid)", o.XMax)
	}
	if o.AggregateMax < 1 || o.Localized.SelectMax < 1 {
		return c, usage.Errorf("--aggregate-max and --select-max must be at least 1")
	}
	if !o.Recommend && len(o.ScenarioFlags) > 0 {
		return c, usage.Errorf("--%s describes the scenario of --recommend; it does nothing without it", o.ScenarioFlags[0])
	}
	c.opt.Extra = extraOption(o.Extra)
	n := len(o.Inputs)
	if o.Recommend {
		sc, err := ParseScenario(o.Age, o.Sampler, o.OldM3)
		if err != nil {
			return c, err
		}
		c.scenario = &sc
		if o.Shard != "" {
			return c, usage.Errorf("analyze: --recommend needs the whole analysis, and a shard (--shard) holds partial statistics only: give --recommend without --shard")
		}
		if !((n < 2 && o.Out == "") || (n == 2 && o.Out != "")) {
			return c, usage.Errorf("--recommend: give REPLAY_DIR alone, or DATASET REPLAY_DIR -o OUT")
		}
		if n < 2 {
			return c, nil // no analysis to run
		}
	}
	if n == 0 {
		return c, usage.Errorf("analyze: missing DATASET")
	}
	if o.Out == "" {
		return c, usage.Errorf("analyze: missing -o OUT")
	}
	if o.SelectMiB < 1 {
		return c, usage.Errorf("analyze: --select-mib must be at least 1, got %d", o.SelectMiB)
	}
	c.opt.Localized.SelectBytes = o.SelectMiB << 20
	if o.Shard != "" {
		sp, err := shard.Parse(o.Shard, os.LookupEnv)
		if err != nil {
			return c, usage.Errorf("analyze: --shard: %v", err)
		}
		c.shard = sp
	}
	return c, nil
}

// extraOption maps --extra to Options.Extra, where 0 means the default:
// --extra 0 (no points inserted) becomes −1.
func extraOption(extra int) int {
	if extra == 0 {
		return -1
	}
	return extra
}

// Command is `revisit analyze`: it computes the statistics of SPEC §5 on
// DATASET (with REPLAY_DIR, the error tables of the replay's estimates
// against the truth) into the results directory Out, or, with Shard, the
// partial statistics of one shard for 'revisit merge analysis'; with
// Recommend it prints the method SPEC §5 recommends for the user's
// scenario and the errors measured on the replay that back it. The
// options are validated and Out checked before any work; the summary
// (the chosen tables, the selection, where the results went) goes to
// con.Out and the log lines to con.Err, neither under con.Quiet.
func Command(ctx context.Context, o CommandOptions, con console.Console) error {
	if ctx == nil {
		ctx = context.Background()
	}
	c, err := o.parse()
	if err != nil {
		return err
	}
	if c.opt.Select, err = o.Selection.Build(); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	if len(o.Inputs) > 0 {
		c.opt.Dataset = o.Inputs[0]
	}
	if len(o.Inputs) == 2 {
		c.opt.Replay = o.Inputs[1]
	}
	c.opt.Log = con.Terminal()
	switch {
	case c.scenario != nil && len(o.Inputs) < 2:
		return recommendOnly(con.Out, *c.scenario, o.Inputs, c.opt)
	case c.scenario != nil:
		if err := tables.CheckResultsOutput("analyze", o.Out, "analysis"); err != nil {
			return err // before reading the dataset
		}
		defer memlimit.Set()()
		res, err := Run(ctx, c.opt)
		if err != nil {
			return err
		}
		return WriteRecommendation(con.Out, *c.scenario, res.Evidence)
	case o.Shard != "":
		if err := tables.CheckResultsOutput("analyze", o.Out, ShardKind); err != nil {
			return err
		}
		defer memlimit.Set()()
		if err := RunShard(ctx, c.opt, c.shard); err != nil {
			return err
		}
		if !con.Quiet {
			fmt.Fprintf(con.Out, "wrote shard %s of the analysis to %s (combine the shards with 'revisit merge analysis')\n", c.shard, human.Path(o.Out))
		}
		return nil
	}
	if err := tables.CheckResultsOutput("analyze", o.Out, "analysis"); err != nil {
		return err // before reading the dataset
	}
	defer memlimit.Set()()
	res, err := Run(ctx, c.opt)
	if err != nil || con.Quiet {
		return err
	}
	return res.WriteSummary(con.Out, o.Out)
}

// recommendOnly is --recommend without an analysis to run: the
// recommendation for sc, backed, when inputs name a replay directory, by
// the errors of its estimates against the truth, each compared at its
// grid points (there is no dataset to interpolate step estimates
// against).
func recommendOnly(w io.Writer, sc Scenario, inputs []string, opt Options) error {
	var sum []MethodSummary
	if len(inputs) == 1 {
		rows, _, err := ReadReplay(inputs[0])
		if err != nil {
			return err
		}
		pe, err := PageErrors(rows, opt.XMax, opt.Extra, nil)
		if err != nil {
			return err
		}
		sum = EvidenceSummary(pe, opt.Seed)
	}
	if err := WriteRecommendation(w, sc, sum); err != nil || len(inputs) == 0 {
		return err
	}
	_, err := fmt.Fprintln(w, "(without DATASET every estimate is compared at its grid points; give DATASET REPLAY_DIR -o OUT to compare interpolated step estimates with the exact G_U: docs/methods.md#errors)")
	return err
}

// summaryTables are the tables analyze prints when it is done, in the
// bundle's order, those with rows only.
var summaryTables = map[string]bool{"top_pages": true, "tail_fits_aggregate": true, "tail_fits_top": true, "poisson_screen": true, "screen_closest": true, "method_errors": true, "recommendation": true}

// WriteSummary writes what analyze says when it is done: the top pages,
// the tail fits, the Poisson screen, the method errors and the
// recommendation (the tables with rows, their control characters
// escaped), the page selection if any, and that the results are at out.
func (r *Result) WriteSummary(w io.Writer, out string) error {
	for _, t := range r.Bundle.Tables {
		if summaryTables[t.ID] && len(t.Rows) > 0 {
			if err := console.PrintSafe(w, func(w io.Writer) error { return tables.Fprint(w, t) }); err != nil {
				return err
			}
		}
	}
	if r.Selection != nil {
		fmt.Fprintln(w, human.Text(r.Selection.Describe()))
	}
	fmt.Fprintf(w, "wrote %s (tables/, figures/, csv/, page_stats.parquet/.csv)\n", human.Path(out))
	return nil
}

// ParseScenario reads the scenario of --recommend: age yes or no (y,
// true, 1; n, false, 0, ""), sampler constant (const) or random, in any
// case, and old M3 traces, which need a constant sampler. A value that
// does not parse is a *usage.Error naming its flag.
func ParseScenario(age, sampler string, oldM3 bool) (Scenario, error) {
	var sc Scenario
	switch strings.ToLower(age) {
	case "yes", "y", "true", "1":
		sc.Age = true
	case "no", "n", "false", "0", "":
	default:
		return sc, usage.Errorf("--age %q: want yes or no", age)
	}
	switch strings.ToLower(sampler) {
	case "constant", "const", "random":
	default:
		return sc, usage.Errorf("--sampler %q: want constant or random", sampler)
	}
	sc.Sampler, sc.OldM3 = strings.ToLower(sampler), oldM3
	if _, err := Recommend(sc, nil); err != nil {
		return sc, usage.Errorf("%v", err)
	}
	return sc, nil
}

// WriteRecommendation writes the method recommended for sc (Recommend)
// and why, and the errors in sum that back it: per sampler of the
// scenario's kind and method it allows, the pages and the mean and median
// WMRD and KS, best mean WMRD first, the recommended method marked with
// "*"; without any, where to find them.
func WriteRecommendation(w io.Writer, sc Scenario, sum []MethodSummary) error {
	rec, err := Recommend(sc, sum)
	if err != nil {
		return usage.Errorf("%v", err)
	}
	fmt.Fprintf(w, "Scenario: %s\nRecommended method: %s\n  %s\n", sc.Describe(), rec.Method, rec.Reason)
	if len(rec.Evidence) == 0 {
		fmt.Fprintf(w, "\nNo measured errors for this scenario: give a replay directory with a matching sampler, on pages with ≥ %d intervals, to see them.\n", MinEvidenceIntervals)
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
