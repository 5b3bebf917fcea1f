// Command revisit streams edit histories into Parquet update series, replays
// them with virtual crawlers and measures the estimators of the update
// process (see SPEC.md). This file only wires flags to the stage packages;
// each subcommand lives in its own file.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// Exit codes (SPEC §8).
const (
	exitOK       = 0
	exitBadInput = 1
	exitUsage    = 2
	// exitInternal: the Go runtime ended the process (out of memory, or a
	// crash), not revisit: the supervisor's code for its child's exit 2,
	// and ingest --jobs's when a child of it ended so.
	exitInternal = 3
)

// internalError marks a failure that is the Go runtime's, not the input's
// or the user's (a child ingest of --jobs that ran out of memory): exit
// code exitInternal.
type internalError struct{ err error }

func (e internalError) Error() string { return e.err.Error() }
func (e internalError) Unwrap() error { return e.err }

// usageError marks an error as bad usage (exit code 2) rather than bad input.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// usageIf prefixes err with "name: " and marks it as bad usage (exit 2)
// when it is or wraps an E (a package's option or merge error), otherwise
// as bad input (exit 1).
func usageIf[E error](name string, err error) error {
	var e E
	if errors.As(err, &e) {
		return usagef("%s: %v", name, err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// logLine prints one progress line on standard error: the Log of the
// options of replay, estimate, simulate and report when not -q.
func logLine(format string, a ...any) { fmt.Fprintf(os.Stderr, format+"\n", a...) }

// globals are the flags every subcommand shares.
type globals struct {
	quiet bool
	// onStage, if set, is called as run enters each stage (1 ingest …
	// 7 report); tests cancel a run there.
	onStage func(n int)
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
	root.PersistentFlags().BoolVarP(&g.quiet, "quiet", "q", false, "no progress bars or log lines")
	root.SetGlobalNormalizationFunc(normalizeFlag)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
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

func main() {
	if !supervised() { // see supervise_unix.go: exit codes that survive an out-of-memory death
		if self, err := os.Executable(); err == nil {
			if code, ok := runSupervised(exec.Command(self, os.Args[1:]...)); ok {
				os.Exit(code)
			}
		}
	}
	os.Exit(childExit(execute(os.Args[1:])))
}

// childExit is the exit code of the process doing the work: bad usage
// becomes exitUsageChild, which the supervising parent turns back into 2.
func childExit(code int) int {
	if code == exitUsage {
		return exitUsageChild
	}
	return code
}

func execute(args []string) int {
	ctx, stop := cancelOnSignal()
	defer stop()
	root := newRoot()
	root.SetArgs(args)
	root.SetContext(ctx)
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	var ue usageError
	if isCobraUsage(err) && cmd != nil && cmd.HasParent() {
		// cobra's arity errors do not say whose arguments they count.
		fmt.Fprintf(os.Stderr, "%s: %v (usage: %s)\n", cmd.CommandPath(), err, cmd.UseLine())
	} else {
		fmt.Fprintln(os.Stderr, "revisit:", err)
	}
	var ie internalError
	if errors.As(err, &ie) {
		return exitInternal
	}
	if errors.As(err, &ue) || isCobraUsage(err) {
		fmt.Fprintln(os.Stderr, usageHint(cmd))
		return exitUsage
	}
	return exitBadInput
}

// forceGap is how long after the first signal a second one ends the
// process at once. A Ctrl-C on a terminal reaches the child twice within
// microseconds (from the terminal and forwarded by the supervisor), which
// must count as one.
const forceGap = time.Second

// cancelOnSignal returns a context that Ctrl-C, SIGTERM or SIGHUP (the
// terminal or ssh session closed; the supervisor passes all three on)
// cancels: every stage watches it, so the temporary output directories are
// removed and nothing half-written stays. A second signal at least
// forceGap later ends the process at once with 128 + the signal (130 for
// Ctrl-C): the way out when a stage cannot notice (a read blocked on a
// silent pipe); what it leaves is removed by the next writer of the same
// output. stop unregisters the signals.
func cancelOnSignal() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		var first time.Time
		for {
			select {
			case <-done:
				return
			case s := <-sigs:
				if first.IsZero() {
					first = time.Now()
					cancel()
					continue
				}
				if time.Since(first) < forceGap {
					continue // the same Ctrl-C, forwarded
				}
				fmt.Fprintf(os.Stderr, "revisit: %v again: stopping at once (temporary directories left are removed by the next run writing the same output)\n", s)
				code := 130
				if ss, ok := s.(syscall.Signal); ok {
					code = 128 + int(ss)
				}
				os.Exit(code)
			}
		}
	}()
	return ctx, func() { signal.Stop(sigs); close(done); cancel() }
}

// usageHint points at the help of the command that failed ('revisit run
// --help' after a bad flag of run), not at the root's list of commands.
func usageHint(cmd *cobra.Command) string {
	path := "revisit"
	if cmd != nil {
		path = cmd.CommandPath()
	}
	return "Run '" + path + " --help' for usage."
}

// isCobraUsage recognises cobra's own argument errors (unknown command,
// wrong number of arguments), which it does not type.
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
