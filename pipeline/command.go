package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/progress"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/reports"
)

// CommandOptions are what `revisit run` is given: the run's Config as
// the command line sets it, and the text of the flags still to be parsed.
// Library callers set Config (its Ingest and Select) and call Run.
type CommandOptions struct {
	Config

	// Ingest is ingest's options with the command line's text of its
	// flags; Command parses it (ingest.CommandOptions.ParseFlags) into
	// Config.Ingest, which it shadows.
	Ingest ingest.CommandOptions
	// UnitText is --unit as given, which Command parses into Unit ("":
	// automatic).
	UnitText string
	// Selection is the page selection as given (--pages, --match,
	// --in-group), built into Select by Command (when Select is nil)
	// after the ingest options are checked.
	Selection dataset.SelectionFlags
	// IngestFlag is the first ingest option given on the command line
	// (without the dashes), which Command refuses when the input is a
	// dataset: ingest is then skipped, and the option would be ignored.
	IngestFlag string
}

// DefaultCommandOptions are DefaultConfig with its ingest options as the
// command line's.
func DefaultCommandOptions() CommandOptions {
	o := CommandOptions{Config: DefaultConfig()}
	o.Ingest.Options = o.Config.Ingest
	return o
}

// Validate refuses, before any work, what Command refuses as bad usage:
// the run's options (Config.Validate), a dataset among several inputs
// or with an ingest option (IngestFlag), the ingest flags
// (ingest.CommandOptions.ParseFlags, whose values it leaves in
// o.Ingest, and Check when there is something to ingest) and --unit.
func (o *CommandOptions) Validate() error {
	if _, err := o.check(); err != nil {
		return err
	}
	_, err := o.unit()
	return err
}

// check is Validate but --unit: it returns the dataset given as input
// ("" when there is something to ingest).
func (o *CommandOptions) check() (string, error) {
	if err := o.Config.Validate(); err != nil {
		return "", err
	}
	ds, err := DatasetInput(o.Inputs)
	if err != nil {
		return "", err
	}
	if ds != "" && o.IngestFlag != "" {
		return "", usagef("run: --%s is an ingest option, but %s is a dataset (ingest is skipped): ingest again with 'revisit ingest --%s …' instead", o.IngestFlag, ds, o.IngestFlag)
	}
	if err := o.Ingest.ParseFlags("run"); err != nil {
		return "", err
	}
	if ds == "" {
		chk := o.Ingest.Options
		chk.Inputs, chk.Output = o.Inputs, filepath.Join(o.Out, "dataset")
		if err := chk.Check(); err != nil {
			return "", err
		}
	}
	return ds, nil
}

// unit is --unit in seconds, Config.Unit when it is not given.
func (o *CommandOptions) unit() (float64, error) {
	if o.UnitText == "" {
		return o.Unit, nil
	}
	u, err := units.ParseUnit(o.UnitText)
	if err != nil {
		return 0, usagef("run: --unit: %v", err)
	}
	return u, nil
}

// Command is `revisit run`: the whole job (Run) on o.Inputs under o.Out.
// Everything that can be checked before the work is (Validate), so that
// a mistake is not found after an ingest that may take an hour; the page
// selection is built after the options are checked and before --unit is
// parsed. On con.Err it shows ingest's progress and first skipped bad
// records, one line per stage and the stages' log lines, then the
// report's findings and the time taken; on con.Out the path of the
// report's index.html. Under con.Quiet it prints nothing.
func Command(ctx context.Context, o CommandOptions, con console.Console) error {
	if _, err := o.check(); err != nil {
		return err
	}
	c := o.Config
	c.Ingest = o.Ingest.Options
	var err error
	if c.Select == nil {
		if c.Select, err = o.Selection.Build(); err != nil {
			return fmt.Errorf("run: %w", err)
		}
	}
	if c.Unit, err = o.unit(); err != nil {
		return err
	}
	start := time.Now()
	c.Ingest.Progress = progress.New(con.Err, "ingest", con.Quiet)
	c.Ingest.OnBad = ingest.BadRecordPrinter(con)
	c.Log = con.Terminal()
	res, err := Run(ctx, c) // cancelled on Ctrl-C (supervise.CancelOnSignal)
	if err != nil {
		return err
	}
	if !con.Quiet {
		reports.WriteFindings(con.Err, res.Bundle)
		fmt.Fprintf(con.Err, "revisit run: done in %s: %d tables, %d figures\n", time.Since(start).Round(100*time.Millisecond), len(res.Bundle.Tables), len(res.Bundle.Figures))
		fmt.Fprintln(con.Out, human.Path(filepath.Join(res.Report, "index.html")))
	}
	return nil
}
