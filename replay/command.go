package replay

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/memlimit"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/internal/usage"
)

// CommandOptions are what `revisit replay` is given: the replay's Options
// as the command line sets them (MaxVisits, MaxPairs and Seeds at least
// 1) and the text of the flags Command parses into them with the
// command's messages.
type CommandOptions struct {
	Options

	UnitText   string // --unit (units.ParseUnit); "" keeps Options.Unit
	ShardText  string // --shard (shard.Parse; N alone reads the job index from the environment)
	CurvesText string // --curves (estimates.ParseCurves)
	// Selection is the page selection as given (--pages, --match,
	// --in-group), built into Options.Select.
	Selection dataset.SelectionFlags
	// TopGiven and SampleGiven say whether --top and --sample were given
	// (TopOrSample).
	TopGiven, SampleGiven bool
}

// TopOrSample applies --top and --sample, of which the command line gives
// --top a default: the one given (topGiven, sampleGiven) replaces the
// other's default, so that --sample N replays a sample and --top 0 every
// page; both given is bad usage.
func TopOrSample(top, sample *int, topGiven, sampleGiven bool) error {
	switch {
	case topGiven && sampleGiven:
		return usage.Errorf("--top %d and --sample %d: give one (the busiest pages, or a random sample)", *top, *sample)
	case topGiven:
		*sample = 0
	case sampleGiven:
		*top = 0
	}
	return nil
}

// parse applies the command line's text to o.Options and checks the
// counts the command line gives, which must be ≥ 1 there (Run takes 0 as
// the default). Every error is bad usage, with the message the command
// prints.
func (o *CommandOptions) parse() error {
	if o.UnitText != "" {
		u, err := units.ParseUnit(o.UnitText)
		if err != nil {
			return usage.Errorf("--unit: %v", err)
		}
		o.Unit = u
	}
	if err := TopOrSample(&o.Top, &o.Sample, o.TopGiven, o.SampleGiven); err != nil {
		return err
	}
	sp, err := shard.Parse(o.ShardText, os.LookupEnv)
	if err != nil {
		return usage.Errorf("replay: --shard: %v", err)
	}
	o.Shard = sp
	if o.Curves, err = estimates.ParseCurves(o.CurvesText); err != nil {
		return usage.Errorf("replay: %v", err)
	}
	if o.MaxVisits < 1 || o.MaxPairs < 1 || o.Seeds < 1 {
		return usage.Errorf("replay: --max-visits, --max-pairs and --seeds must be ≥ 1")
	}
	return nil
}

// Validate refuses, as bad usage with the command's messages, what
// Command refuses before any work: the command line's text and counts,
// then the replay's Options (Options.Validate). It applies the text to
// o.Options.
func (o *CommandOptions) Validate() error {
	if err := o.parse(); err != nil {
		return err
	}
	if _, _, err := o.Options.Validate(); err != nil {
		return usage.Errorf("replay: %v", err)
	}
	return nil
}

// Command is `revisit replay`: it replays the selected pages of the
// dataset with virtual crawlers that see a page only when they visit it,
// runs every estimator on what they saw and writes estimates.parquet and
// replay.json to o.Out (Run). Bad options and an output directory that
// revisit did not write are refused before the dataset is read; a
// progress bar (on a terminal) or log lines go to con.Err, the summary
// (WriteSummary) to con.Out, neither under con.Quiet.
func Command(ctx context.Context, o CommandOptions, con console.Console) error {
	if err := o.parse(); err != nil {
		return err
	}
	opt := o.Options
	smp, methods, err := opt.Validate()
	if err != nil {
		return usage.Errorf("replay: %v", err)
	}
	if opt.Select, err = o.Selection.Build(); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if err := atomicdir.CheckOutput("replay", opt.Out, MetaFile, "replay output"); err != nil {
		return err // before reading the dataset
	}
	bar := con.Bar(-1, "replay", "page×sampler")
	switch {
	case bar != nil:
		max := -1
		opt.Progress = func(done, total int) {
			if total != max && total > 0 {
				max = total
				bar.ChangeMax(total)
			}
			bar.Set(done)
		}
	case !con.Quiet:
		opt.Log = con.Log()
	}
	defer memlimit.Set()()
	meta, err := run(ctx, opt, smp, methods)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if !con.Quiet {
		meta.WriteSummary(con.Out, opt.Out)
	}
	return nil
}

// WriteSummary prints what a replay (or a merge of its shards) wrote to
// out: the pages, samplers and rows, the pages skipped and the page ×
// sampler jobs left out by reason, the choices of the defaults, the
// methods not run, and the mean WMRD and KS of every sampler, method and
// kind against the truth (Meta.Summary). A failed write is w's: the
// command line reports standard output's once at exit.
func (m *Meta) WriteSummary(w io.Writer, out string) {
	fmt.Fprintf(w, "replayed %s with %s (unit %s, seed %d) → %s (%s)\n", human.Count(int64(m.Pages), "page", "pages"),
		human.Count(int64(len(m.Samplers)), "sampler", "samplers"), m.UnitName, m.Seed, human.Path(out+"/"+estimates.File), human.Count(m.Rows, "row", "rows"))
	if m.Selection != nil {
		fmt.Fprintf(w, "  %s\n", human.Text(m.Selection.Describe()))
	}
	for _, reason := range []string{"min_updates", "fewer_than_2_updates", "not_in_top", SkipFewIntervals, SkipNotInSample} {
		if n := m.Skipped[reason]; n > 0 {
			fmt.Fprintf(w, "  skipped %s: %s\n", human.Count(n, "page", "pages"), strings.ReplaceAll(reason, "_", " "))
		}
	}
	if n := m.Skipped[estimator.SkipMaxVisits]; n > 0 {
		fmt.Fprintf(w, "  left out %s: more than --max-visits %s expected visits\n", human.Count(n, "page × sampler job", "page × sampler jobs"), human.Comma(m.MaxVisits))
	}
	if n := m.Skipped[estimator.SkipMaxPairs]; n > 0 {
		fmt.Fprintf(w, "  left out %s: more than --max-pairs %s expected M6 pairs\n", human.Count(n, "page × sampler job", "page × sampler jobs"), human.Comma(m.MaxPairs))
	}
	if n := m.Skipped[estimator.SkipMaxGrid]; n > 0 {
		fmt.Fprintf(w, "  left out %s: x_max/step more than %s grid points\n", human.Count(n, "page × sampler job", "page × sampler jobs"), human.Float(estimator.MaxGrid))
	}
	if m.Choices != nil {
		fmt.Fprintf(w, "  chosen: %s\n", m.Choices.Describe(m.UnitName))
	}
	for _, na := range m.NotApplicable {
		fmt.Fprintf(w, "  not run: %s\n", na)
	}
	t := tables.Table{Title: "Mean WMRD and KS against each page's true G_U (kind G) or F_U (kind F)",
		Columns: []tables.Column{{Name: "sampler", Kind: tables.String}, {Name: "method", Kind: tables.String}, {Name: "kind", Kind: tables.String},
			{Name: "pages", Kind: tables.Int}, {Name: "undefined", Kind: tables.Int}, {Name: "mean WMRD", Kind: tables.Float}, {Name: "mean KS", Kind: tables.Float}}}
	for _, s := range m.Summary {
		var wm, k any // nil: no page with a defined estimate, printed "—"
		if s.WMRD != nil {
			wm, k = *s.WMRD, *s.KS
		}
		t.Rows = append(t.Rows, []any{s.Sampler, s.Method, s.Kind, int64(s.Pages), int64(s.Undefined), wm, k})
	}
	tables.Fprint(w, t)
}

// SimCommandOptions are what `revisit simulate` is given: the
// simulation's SimOptions and the command's own text and output.
type SimCommandOptions struct {
	SimOptions

	// TText is --T, which Validate parses into Ts (ParseTs) when Ts is
	// nil.
	TText string
	// Out, if set, is the results directory SimulateCommand writes the
	// tables and figures to (tables.WriteBundle).
	Out string
}

// Validate parses the command line's text options and checks those
// Simulate does not: every error is bad usage.
func (o *SimCommandOptions) Validate() error {
	if o.Ts == nil {
		ts, err := ParseTs(o.TText)
		if err != nil {
			return usage.Errorf("--T: %v", err)
		}
		o.Ts = ts
	}
	if o.Workers < 0 {
		return usage.Errorf("--workers %d: want 0 (all cores) or more", o.Workers)
	}
	return nil
}

// SimulateCommand is `revisit simulate`: it runs the estimators on
// synthetic renewal processes over windows of length T with many
// independent sample paths (Simulate) and prints the convergence tables
// and the checks against the closed forms on con.Out (WriteTables: always
// without -o, unless con.Quiet with it); with o.Out it also writes them,
// and the figures, as a results directory for `revisit report`. A wrong
// -o is refused before the simulation.
func SimulateCommand(ctx context.Context, o SimCommandOptions, con console.Console) error {
	if err := o.Validate(); err != nil {
		return fmt.Errorf("simulate: %w", err)
	}
	opt := o.SimOptions
	if o.Out != "" { // refuse a wrong -o before the simulation, not after it
		if err := tables.CheckResultsOutput("simulate", o.Out, "simulate"); err != nil {
			return err
		}
	}
	opt.Log = con.Log()
	res, err := Simulate(ctx, opt)
	if err != nil {
		return fmt.Errorf("simulate: %w", err)
	}
	b := res.Bundle()
	if con.PrintsTables(o.Out) {
		res.WriteTables(con.Out, b)
	}
	if o.Out != "" {
		if err := tables.WriteBundle(ctx, b, o.Out, "simulate"); err != nil {
			return fmt.Errorf("simulate: %w", err)
		}
		if !con.Quiet {
			fmt.Fprintf(con.Err, "simulate: %d tables and %d figures → %s\n", len(b.Tables), len(b.Figures), human.Path(o.Out))
		}
	}
	return nil
}

// WriteTables prints the simulation's header line (the update model, E[U],
// h, x_max, the paths per T and the time taken) and the tables of b, its
// Bundle. A failed write is w's: the command line reports standard
// output's once at exit.
func (r *SimResult) WriteTables(w io.Writer, b *tables.Bundle) {
	fmt.Fprintf(w, "simulate: update %s (E[U] = %s), h = %s, x_max = %s, %s per T, %s\n\n",
		r.Update, human.Float(r.EU), human.Float(r.H), human.Float(r.XMax), human.Count(int64(r.Paths), "path", "paths"), human.Elapsed(r.Elapsed))
	for _, t := range b.Tables {
		tables.Fprint(w, t)
	}
}
