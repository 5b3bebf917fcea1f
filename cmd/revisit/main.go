// Command revisit streams edit histories into Parquet update series, replays
// them with virtual crawlers and measures the estimators of the update
// process (see SPEC.md). This file only wires flags to the stage packages;
// each subcommand lives in its own file.
package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/supervise"
	"github.com/revisit-dev/revisit/internal/usage"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// usagef is bad usage (usage.Error, exit code 2) rather than bad input.
func usagef(format string, a ...any) error { return usage.Errorf(format, a...) }

// globals are the flags every subcommand shares.
type globals struct {
	// quiet (-q): a successful command prints nothing, on standard output
	// or error, but its result when that is printed
	// (console.Console.PrintsTables).
	quiet bool
	// onStage, if set, is called as run enters each stage (1 ingest …
	// 7 report); tests cancel a run there.
	onStage func(n int)
}

// console is where cmd speaks: its standard output (checked at exit,
// supervise.StdoutWriter), standard error, -q.
func (g *globals) console(cmd *cobra.Command) console.Console {
	return console.Console{Out: cmd.OutOrStdout(), Err: os.Stderr, Quiet: g.quiet}
}

func newRoot() *cobra.Command {
	g := &globals{}
	root := &cobra.Command{
		Use:   "revisit",
		Short: "Measure how real things change: ingest edit histories, replay virtual crawlers, compare estimators",
		Long: `revisit turns edit histories (Wikipedia dumps, the Yelp open dataset, any
update log) into Parquet update series, replays them with virtual crawlers
that see a page only when they visit it, and measures which estimator of the
update process is right and how wrong the Poisson assumption is.

Stages: ingest → replay → analyze → report; run does all of them.`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// 'revisit' alone is a usage error: help on stderr, exit 2.
	root.RunE = func(cmd *cobra.Command, args []string) error {
		cmd.SetOut(os.Stderr)
		cmd.Help()
		return usagef("no command given")
	}
	root.PersistentFlags().BoolVarP(&g.quiet, "quiet", "q", false, "quiet: no progress bars, log lines or summaries (without -o, the tables of schedule, simulate and policies are their result and still printed)")
	root.SetGlobalNormalizationFunc(normalizeFlag)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &usage.Error{Err: err} })
	root.AddCommand(
		newIngestCmd(g),
		newGenerateCmd(g),
		newReplayCmd(g),
		newEstimateCmd(g),
		newSimulateCmd(g),
		newAnalyzeCmd(g),
		newReportCmd(g),
		newRunCmd(g),
		newPoliciesCmd(g),
		newMergeCmd(g),
		newScheduleCmd(g),
	)
	return root
}

func main() { os.Exit(supervise.Main(os.Args[1:], execute)) }

// execute runs the command of args and returns its exit code, after
// saying on standard error why it failed (supervise.Ending).
func execute(args []string) int {
	ctx, stop, interrupted := supervise.CancelOnSignal()
	defer stop()
	defer supervise.IgnoreSIGPIPE()()
	out := &supervise.StdoutWriter{W: os.Stdout}
	root := newRoot()
	root.SetArgs(args)
	root.SetContext(ctx)
	root.SetOut(out)
	ran := false // a command's RunE started: an error before it is cobra's own
	root.PersistentPreRun = func(*cobra.Command, []string) { ran = true }
	cmd, err := root.ExecuteC()
	e := supervise.Ending{Path: commandPath(cmd), Err: err, Stdout: out.Err, Signal: interrupted()}
	if cmd != nil {
		e.KeepsStages = cmd.Name() == "run"
	}
	if err != nil && !ran && isCobraUsage(err) {
		e.ArgsError = true
		if cmd != nil && cmd.HasParent() {
			e.UsageLine = cmd.UseLine()
		}
	}
	return e.Exit(os.Stderr)
}

// commandPath names cmd ("revisit replay"), or the program when cobra
// found no command.
func commandPath(cmd *cobra.Command) string {
	if cmd == nil {
		return "revisit"
	}
	return cmd.CommandPath()
}

// isCobraUsage recognises cobra's own argument errors (unknown command,
// wrong number of arguments, a bad flag), which it does not type, in an
// error returned before the command ran: a stage's message may hold the
// same words (a file name, EINVAL's "invalid argument").
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "requires at most", "unknown flag", "unknown shorthand", "invalid argument"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// normalizeFlag makes the spellings that grew apart in different commands
// interchangeable everywhere: --xmax and --x-max, --out and --output.
func normalizeFlag(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	switch name {
	case "xmax":
		name = "x-max"
	case "out":
		name = "output"
	}
	return pflag.NormalizedName(name)
}
