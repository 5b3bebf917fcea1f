package schedule

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/memlimit"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/internal/usage"
)

// CommandOptions are the options of revisit schedule as the user gave
// them. The embedded ValidateOptions take the flags that need no parsing
// as they are (Plans, Importance, MissingWeight, Sweep, Method, Sampler,
// Train, Origins, Window, Boot, Target, and Dataset: the --validate
// directory); Validate parses the text fields below into the others
// (Budget, MinRate, Prior, Unit, Seeds).
type CommandOptions struct {
	ValidateOptions
	// Inputs is the command's argument: one replay or estimate output or
	// dataset, or none with --validate.
	Inputs []string
	// Out is the results directory (-o); "": the tables are printed only.
	Out string
	// BudgetText is --budget (ParseRate; required), MinRateText
	// --min-rate ("prior" or a rate), UnitText --unit (the unit of a
	// dataset INPUT's intervals).
	BudgetText, MinRateText, UnitText string
	// HostLimitsFile is --host-limits (ReadHostLimits), read once -o has
	// been checked.
	HostLimitsFile string
	// SeedCount is --seeds and FirstSeed --seed: a validation replays
	// SeedCount crawlers, seeded FirstSeed, FirstSeed+1, …
	SeedCount int
	FirstSeed uint64
	// NoSweep skips the freshness-vs-budget table; NoCSV writes
	// schedule.parquet only.
	NoSweep, NoCSV bool
}

// Validate checks every option before any work and parses the text ones
// into their values: an option no work can come of is bad usage
// (usage.Error), named by its flag. (The package's function Validate is
// the validation itself.)
func (o *CommandOptions) Validate() error {
	if o.BudgetText == "" {
		return usage.Errorf("--budget is required (visits per day, or B/h)")
	}
	var err error
	if o.Budget, err = ParseRate(o.BudgetText); err != nil {
		return usage.Errorf("--budget: %v", err)
	}
	if !(o.Budget > 0) {
		return usage.Errorf("--budget %q: want a rate > 0 such as 5000/d or 200/h", o.BudgetText)
	}
	o.Prior, o.MinRate = o.MinRateText == "prior", 0
	if !o.Prior {
		if o.MinRate, err = ParseRate(o.MinRateText); err != nil {
			return usage.Errorf("--min-rate: %v (or prior)", err)
		}
	}
	if o.Plans, err = ParsePlans(o.Plans); err != nil {
		return usage.Errorf("--plans: %v", err)
	}
	if !(o.MissingWeight >= 0) || math.IsInf(o.MissingWeight, 1) {
		return usage.Errorf("--missing-importance %g: want a finite number ≥ 0, as the file's importances", o.MissingWeight)
	}
	for _, m := range o.Sweep {
		if !(m > 0) || math.IsInf(m, 0) {
			return usage.Errorf("--sweep %g: want multiples of the budget > 0", m)
		}
	}
	if o.NoSweep {
		o.Sweep = []float64{}
	}
	if o.Unit, err = units.ParseUnit(o.UnitText); err != nil {
		return usage.Errorf("--unit: %v", err)
	}
	validating := o.Dataset != ""
	if validating == (len(o.Inputs) > 0) {
		return usage.Errorf("give INPUT, or --validate DATASET (not both)")
	}
	if validating && o.Sampler == "" {
		return usage.Errorf("--validate needs --sampler SPEC (the blind crawler)")
	}
	if !(o.Target >= 0 && o.Target < 1) {
		return usage.Errorf("--target-freshness %g: want in (0, 1)", o.Target)
	}
	if o.Target > 0 && !validating {
		return usage.Errorf("--target-freshness needs --validate (it is measured on the true updates)")
	}
	if !(o.Train > 0 && o.Train < 1) || o.SeedCount < 1 {
		return usage.Errorf("--train must be in (0, 1) and --seeds ≥ 1")
	}
	if o.Origins < 1 || o.Boot < 100 {
		return usage.Errorf("--origins must be ≥ 1 and --boot ≥ 100")
	}
	if _, err := parseWindow(o.Window); err != nil {
		return usage.Errorf("--train-window: %v", err)
	}
	if !validating {
		o.Method, err = planMethod(o.Method, o.Sampler)
		return err
	}
	if err := CheckCrawler(o.Sampler, o.Method); err != nil {
		return usage.Errorf("--sampler, --method: %v", err)
	}
	o.Seeds = make([]uint64, o.SeedCount)
	for i := range o.Seeds {
		o.Seeds[i] = o.FirstSeed + uint64(i)
	}
	return nil
}

// planMethod checks --method and --sampler for a replay or estimate input
// before it is read, and returns the method's canonical name ("m4" is
// M4): a name that is no method (or several) and a sampler label no
// estimating stage writes are bad usage; one the input does not hold is
// found when it is read (bad input).
func planMethod(method, sampler string) (string, error) {
	if sampler != "" {
		if err := estimator.CheckSamplerLabel(sampler); err != nil {
			return "", usage.Errorf("--sampler: %v", err)
		}
	}
	if method == "" || method == estimator.MethodTruth {
		return method, nil
	}
	m, err := oneMethod(method)
	if errors.Is(err, errNotOne) {
		return "", usage.Errorf("--method %q: want one method (or %s)", method, estimator.MethodTruth)
	}
	if err != nil {
		return "", usage.Errorf("--method: %v", err)
	}
	return m, nil
}

// errNotOne is oneMethod's error for a name that is several methods.
var errNotOne = errors.New("want one method")

// oneMethod is the canonical name of one estimation method, as estimates
// name it ("m6" is M6, "gm4" G-M4: a name compared as the user wrote it
// would match no estimate); "all" or a list of methods is refused
// (errNotOne).
func oneMethod(name string) (string, error) {
	ms, err := estimator.ParseMethods([]string{name})
	if err != nil {
		return "", err
	}
	if len(ms) != 1 {
		return "", fmt.Errorf("method %q: %w", name, errNotOne)
	}
	return ms[0], nil
}

// Command is revisit schedule: it checks the options and -o before any
// work, reads the per-host limits, and then either plans the revisit
// rates of every page of INPUT under the budget (each plan of --plans,
// the tables printed and schedule.parquet, schedule.csv and the tables
// written under -o) or, with --validate, scores the plans made from a
// blind crawler's estimates on the later true updates of the dataset
// (Validate), the tables and the verdict printed and written under -o.
// A host limit that names no page's host is said on con.Err even when
// con.Quiet.
func Command(ctx context.Context, o CommandOptions, con console.Console) error {
	if err := o.Validate(); err != nil {
		return err
	}
	if o.Out != "" {
		if err := tables.CheckResultsOutput("schedule", o.Out, "schedule"); err != nil {
			return err
		}
	}
	if o.HostLimitsFile != "" {
		var err error
		if o.HostLimits, err = ReadHostLimits(o.HostLimitsFile); err != nil {
			return fmt.Errorf("--host-limits: %w", err)
		}
	}
	if o.Dataset != "" {
		return validateCommand(ctx, o, con)
	}
	return planCommand(ctx, o, con)
}

// planCommand is revisit schedule INPUT, its options checked.
func planCommand(ctx context.Context, o CommandOptions, con console.Console) error {
	in := o.Inputs[0]
	var src *Source
	var err error
	if IsEstimates(in) {
		src, err = OpenEstimates(in, o.Method, o.Sampler)
	} else {
		if o.Method != "" || o.Sampler != "" {
			return usage.Errorf("--method and --sampler apply to a replay or estimate output; %s is read as a dataset", in)
		}
		src, err = OpenTruth(in, o.Unit)
	}
	if err != nil {
		return err
	}
	src.Ctx = ctx // Ctrl-C stops the reading, the plans and the writing
	con.Logf("schedule: reading %s…", human.Path(in))
	grew, restore := memlimit.SetStore()
	defer restore()
	o.StoreGrew = grew
	res, err := PlanSource(src, o.Options)
	if err != nil {
		return err
	}
	res.writeSummary(con)
	if con.PrintsTables(o.Out) {
		printPlans(con.Out, res.Bundle()) // a failed write is standard output's, reported at exit
	}
	if o.Out == "" {
		return nil
	}
	err = tables.WriteResults(ctx, o.Out, "schedule", func(tmp string) error {
		if err := res.Write(tmp, !o.NoCSV); err != nil {
			return fmt.Errorf("schedule: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if o.NoCSV {
		con.Logf("schedule: wrote %s under %s", ParquetFile, human.Path(o.Out))
	} else {
		con.Logf("schedule: wrote %s and %s under %s", ParquetFile, CSVFile, human.Path(o.Out))
	}
	return nil
}

// writeSummary says on con.Err how many pages were planned from what, the
// store's size, and how the importance and host-limits files applied,
// escaped (the lines hold file names and hosts). Host limits that name
// no page's host are said even when con.Quiet: a misspelt host is a
// limit not applied.
func (r *Result) writeSummary(con console.Console) {
	con.Logf("schedule: %s, %s; store %.1f MiB", human.Count(int64(r.N), "page", "pages"), r.In.Source, float64(r.StoreBytes())/(1<<20))
	if s := r.ImportanceStats.Summary(); s != "" {
		con.Logf("schedule: %s", s)
	}
	if s := r.HostStats.Summary(); s != "" && (!con.Quiet || r.HostStats.NUnused > 0) {
		fmt.Fprintln(con.Err, human.Text("schedule: "+s))
	}
}

// validateCommand is revisit schedule --validate DATASET, its options
// checked.
func validateCommand(ctx context.Context, o CommandOptions, con console.Console) error {
	ds, err := dataset.Open(o.Dataset)
	if err != nil {
		return err
	}
	pages, err := ds.All()
	if err != nil {
		return err
	}
	con.Logf("schedule: validating on %s, %d seeds…", human.Count(int64(len(pages)), "page", "pages"), len(o.Seeds))
	v, err := Validate(ctx, pages, o.ValidateOptions)
	if err != nil {
		return err
	}
	b := v.Bundle()
	if con.PrintsTables(o.Out) {
		printValidation(con.Out, b, v.Verdict) // a failed write is standard output's, reported at exit
	}
	if o.Out == "" {
		return nil
	}
	return tables.WriteResults(ctx, o.Out, "schedule", func(tmp string) error {
		if err := b.Write(tmp); err != nil {
			return fmt.Errorf("schedule: %w", err)
		}
		return nil
	})
}

// printPlans prints a schedule's tables and, once, their source.
func printPlans(w io.Writer, b *tables.Bundle) {
	for _, t := range b.Tables {
		tables.Fprint(w, t)
	}
	if len(b.Tables) > 0 {
		fmt.Fprintln(w, human.Text("Source: "+b.Tables[0].Source))
	}
}

// printValidation prints a validation's tables, each followed by its
// source, and its verdict.
func printValidation(w io.Writer, b *tables.Bundle, verdict string) {
	for _, t := range b.Tables {
		tables.Fprint(w, t)
		fmt.Fprintln(w, human.Text("Source: "+t.Source))
	}
	if verdict != "" {
		fmt.Fprintln(w, "Verdict:", verdict)
	}
}
