package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/memlimit"
	"github.com/revisit-dev/revisit/internal/progress"
	"github.com/revisit-dev/revisit/internal/usage"
)

// CommandOptions are what `revisit ingest` (and the ingest stage of
// `revisit run`) is given: ingest's Options as the command line sets
// them, the text of the flags still to be parsed into them (ParseFlags),
// and the choices of the command itself. Library callers set Options and
// call Run.
type CommandOptions struct {
	Options

	// The command line's text of --namespaces, --since, --until and
	// --time-origin, which ParseFlags parses into Namespaces, Since, Until
	// and Generic.TimeOrigin.
	NamespacesText, SinceText, UntilText, TimeOriginText string
	// Given reports whether the command line gave a flag (cobra's
	// Changed), for ParseFlags' checks of flags that need or exclude
	// another; nil: none was given.
	Given func(flag string) bool
	// Jobs > 1 has Command read several inputs at once (RunJobs), each in
	// a child process given JobArgs: the command line's flags but -o,
	// --jobs and -q.
	Jobs    int
	JobArgs []string
}

// Validate refuses, before any input is read, a command line without
// INPUT or -o, flags that do not parse or cannot work together
// (ParseFlags, which it runs: the parsed values are left in o.Options),
// a --jobs below 1 and options Check refuses. Its errors are bad usage.
// Command checks the output -o names next, then --jobs with --parts.
func (o *CommandOptions) Validate() error {
	switch {
	case len(o.Inputs) == 0:
		return usage.Errorf("ingest: no INPUT given")
	case o.Output == "":
		return usage.Errorf("ingest: -o DATASET_DIR is required")
	}
	if err := o.ParseFlags("ingest"); err != nil {
		return err
	}
	if o.Jobs < 1 {
		return usage.Errorf("ingest: --jobs must be at least 1")
	}
	return o.Check()
}

// Command is `revisit ingest`: it reads opt.Inputs into the dataset
// opt.Output (SPEC §1–2), with a progress display and the first skipped
// bad records on con.Err, then prints the summary on con.Out unless
// con.Quiet. Options that cannot work (Validate), and an -o that holds
// something ingest would not replace, are refused before any input is
// read (bad usage, *usage.Error or *usage.Refused). With opt.Jobs > 1 and
// several inputs the inputs are read by child processes of this program
// (RunJobs); otherwise in this process, under the memory limit of
// internal/memlimit. On any failure nothing is written to opt.Output.
func Command(ctx context.Context, opt CommandOptions, con console.Console) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	out := opt.Output
	if err := atomicdir.CheckOutput("ingest", out, dataset.ManifestFile, "dataset"); err != nil {
		return err // before reading any input
	}
	if opt.Jobs > 1 && len(opt.Inputs) > 1 {
		return commandJobs(ctx, opt, con)
	}
	defer memlimit.Set()()
	opt.Progress = progress.New(con.Err, "ingest", con.Quiet)
	opt.OnBad = BadRecordPrinter(con)
	sum, err := Run(ctx, opt.Options) // cancelled on Ctrl-C (supervise.CancelOnSignal)
	if err != nil {
		var oe *OptionError
		if errors.As(err, &oe) {
			return oe // "ingest: …", bad usage
		}
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("ingest: nothing written to %s: %w", out, err)
		}
		return fmt.Errorf("ingest: %w (nothing written to %s)", err, out)
	}
	if !con.Quiet {
		fmt.Fprint(con.Out, human.Text(sum.String()))
	}
	return nil
}

// commandJobs is Command with opt.Jobs child processes (ingest --jobs).
func commandJobs(ctx context.Context, opt CommandOptions, con console.Console) error {
	if opt.Parts > 0 {
		return usage.Errorf("ingest: --jobs and --parts exclude each other (each job writes one dataset; they are joined file by file)")
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("ingest --jobs: %w", err)
	}
	sum, err := RunJobs(ctx, JobsOptions{Exe: self, Inputs: opt.Inputs, Out: opt.Output, Jobs: opt.Jobs, Args: opt.JobArgs})
	if err == nil && !con.Quiet {
		fmt.Fprint(con.Out, sum.String())
	}
	return err
}

// MaxBadShown is how many records skipped under --skip-bad
// BadRecordPrinter shows.
const MaxBadShown = 10

// BadRecordPrinter is an Options.OnBad that shows the first MaxBadShown
// records skipped under --skip-bad on con.Err (the summary and the
// manifest count all of them); nil under -q. Readers may call it from
// several goroutines.
func BadRecordPrinter(con console.Console) func(*source.ParseError) {
	if con.Quiet {
		return nil
	}
	var mu sync.Mutex
	shown := 0
	return func(e *source.ParseError) {
		mu.Lock()
		defer mu.Unlock()
		shown++
		if shown > MaxBadShown {
			return
		}
		con.Logf("%s", "revisit: skipped: "+e.Error())
		if shown == MaxBadShown {
			con.Logf("revisit: (only the first %d skipped records are shown; the summary counts all)", MaxBadShown)
		}
	}
}
