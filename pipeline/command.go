package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/progress"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/reports"
)

// Command is `revisit run`: the whole job (Run) on c.Inputs under c.Out.
// Everything that can be checked before the work is, so that a mistake
// is not found after an ingest that may take an hour: the run's options
// (Validate), ingest options given with a dataset as input (IngestFlag),
// the ingest flags (ingest.Options.ParseFlags and Check) and --unit, all
// bad usage. On con.Err it shows ingest's progress and first skipped bad
// records, one line per stage and the stages' log lines, then the
// report's findings and the time taken; on con.Out the path of the
// report's index.html. Under con.Quiet it prints nothing.
func Command(ctx context.Context, c Config, con console.Console) error {
	if err := c.Validate(); err != nil {
		return err
	}
	ds, err := DatasetInput(c.Inputs)
	if err != nil {
		return err
	}
	if ds != "" && c.IngestFlag != "" {
		return usagef("run: --%s is an ingest option, but %s is a dataset (ingest is skipped): ingest again with 'revisit ingest --%s …' instead", c.IngestFlag, ds, c.IngestFlag)
	}
	if err := c.Ingest.ParseFlags("run"); err != nil {
		return err
	}
	if ds == "" {
		chk := c.Ingest
		chk.Inputs, chk.Output = c.Inputs, filepath.Join(c.Out, "dataset")
		if err := chk.Check(); err != nil {
			return err
		}
	}
	if c.Select == nil {
		if c.Select, err = c.Selection.Build(); err != nil {
			return fmt.Errorf("run: %w", err)
		}
	}
	if c.UnitText != "" {
		if c.Unit, err = units.ParseUnit(c.UnitText); err != nil {
			return usagef("run: --unit: %v", err)
		}
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
