// Command revisit streams edit histories into Parquet update series, replays
// them with virtual crawlers and measures the estimators of the update
// process (see SPEC.md). This file only wires flags to the stage packages;
// each subcommand lives in its own file.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/revisit-dev/revisit/generate"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/pipeline"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// Exit codes (SPEC §8), one rule for every command; README.md's table
// lists them (TestReadmeExitCodeTable checks it against these constants).
const (
	exitOK       = 0
	exitBadInput = 1 // bad input: the message names file, position and page
	// exitUsage: bad usage (a flag, an argument), or an output path that
	// revisit refuses to replace (refusedError).
	exitUsage = 2
	// exitInternal: revisit cannot run: the Go runtime ended the process
	// (out of memory under a memory or address-space limit, or a crash):
	// the supervisor's code for its child's exit 2 and ingest --jobs's when
	// a child of it ended so; or the worker process could not be started.
	exitInternal = 3
	// 128 + the signal: interrupted by SIGHUP, Ctrl-C (SIGINT) or SIGTERM
	// (the command stopped and wrote nothing), or killed by SIGKILL.
	exitSIGHUP  = 128 + int(syscall.SIGHUP)
	exitSIGINT  = 128 + int(syscall.SIGINT)
	exitSIGTERM = 128 + int(syscall.SIGTERM)
	exitSIGKILL = 128 + int(syscall.SIGKILL)
	// exitSIGQUIT: quit by SIGQUIT (Ctrl-\): the Go runtime printed the
	// goroutines of the process doing the work and ended it (a debugging
	// aid); outputs are as they were.
	exitSIGQUIT = 128 + int(syscall.SIGQUIT)
	// exitStdout: standard output could not be written (a closed pipe, as
	// '| head' leaves it, or a full disk): the command did its work and
	// its outputs are complete, but what it printed is cut short. 128 +
	// SIGPIPE, the code of a program that a closed pipe ends, which
	// scripts running with 'set -o pipefail' already expect of '| head'.
	exitStdout = 128 + int(syscall.SIGPIPE)
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

// refusedError is an output path that revisit refuses to write (it holds
// something revisit did not write): exit code 2, like bad usage, but
// without the pointer to --help.
type refusedError struct{ err error }

func (e refusedError) Error() string { return e.err.Error() }
func (e refusedError) Unwrap() error { return e.err }

// exitCode is the exit code for err, a command's failure: 2 for bad
// usage and refused outputs (revisit's own usageError and refusedError,
// run's pipeline.UsageError, generate's ErrNotOurs, an output another
// revisit process is writing), 3 when revisit could not run, 1 for
// anything else (bad input). Interruptions are decided before (execute).
func exitCode(err error) int {
	var (
		ie internalError
		ue usageError
		re refusedError
		ar *atomicdir.RefusedError
		pe *pipeline.UsageError
	)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ie):
		return exitInternal
	case errors.As(err, &ue), errors.As(err, &re), errors.As(err, &ar), errors.As(err, &pe), isCobraUsage(err),
		errors.Is(err, generate.ErrNotOurs), errors.Is(err, atomicdir.ErrBusy):
		return exitUsage
	}
	return exitBadInput
}

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
func logLine(format string, a ...any) { fmt.Fprintln(os.Stderr, human.Text(fmt.Sprintf(format, a...))) }

// printSafe writes what print writes to w with its control characters
// escaped (human.Text): tables and summaries that hold page titles, file
// names or URLs from the input.
func printSafe(w io.Writer, print func(io.Writer) error) error {
	var b strings.Builder
	err := print(&b)
	if _, werr := io.WriteString(w, human.Text(b.String())); err == nil {
		err = werr
	}
	return err
}

// globals are the flags every subcommand shares.
type globals struct {
	// quiet (-q): a successful command prints nothing, on standard output
	// or error, but its result when that is printed (printsTables).
	quiet bool
	// onStage, if set, is called as run enters each stage (1 ingest …
	// 7 report); tests cancel a run there.
	onStage func(n int)
}

// printsTables reports whether a command that can print its tables on
// standard output (schedule, simulate, policies) prints them: always
// without -o, where they are its only result, and with -o unless -q, where
// they summarise the files written.
func (g *globals) printsTables(out string) bool { return !g.quiet || out == "" }

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

func main() { os.Exit(mainCode(os.Args[1:])) }

// mainCode is what main does with its arguments, as an exit code: on Unix
// it runs revisit again as a supervised child process doing the work (see
// supervise_unix.go: exit codes that survive an out-of-memory death) and
// returns the child's code, mapped; in the child (and where there is no
// supervisor) it does the work.
func mainCode(args []string) int {
	if supervised() {
		return childExit(execute(args))
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "revisit: cannot start the worker process: cannot find this program (%v). Exit code %d.\n", err, exitInternal)
		return exitInternal
	}
	code, ok := runSupervised(exec.Command(self, args...))
	if !ok {
		return exitInternal // runSupervised said why, in one line
	}
	return code
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
	ctx, stop, interrupted := cancelOnSignal()
	defer stop()
	defer ignoreSIGPIPE()()
	out := &stdoutWriter{w: os.Stdout}
	root := newRoot()
	root.SetArgs(args)
	root.SetContext(ctx)
	root.SetOut(out)
	cmd, err := root.ExecuteC()
	var se *stdoutError
	if err == nil || (errors.As(err, &se) && interrupted() == 0) {
		if out.err != nil {
			fmt.Fprintln(os.Stderr, stdoutLine(cmd, out.err))
			return exitStdout
		}
		return exitOK
	}
	if s := interrupted(); s != 0 {
		// The command stopped because of the signal: what it says about
		// the cancellation ("context canceled") is not news.
		if !errors.Is(err, context.Canceled) {
			fmt.Fprintln(os.Stderr, human.Text("revisit: "+err.Error()))
		}
		if os.Getenv(jobChildEnv) == "" { // ingest --jobs says it once for its children
			fmt.Fprintln(os.Stderr, interruptedLine(cmd, s))
		}
		return 128 + int(s)
	}
	code := exitCode(err)
	if isCobraUsage(err) && cmd != nil && cmd.HasParent() {
		// cobra's arity errors do not say whose arguments they count.
		fmt.Fprintln(os.Stderr, human.Text(fmt.Sprintf("%s: %v (usage: %s)", cmd.CommandPath(), err, cmd.UseLine())))
	} else {
		fmt.Fprintln(os.Stderr, human.Text("revisit: "+err.Error()))
	}
	var (
		re refusedError
		ar *atomicdir.RefusedError
	)
	if code == exitUsage && !errors.As(err, &re) && !errors.As(err, &ar) && !errors.Is(err, generate.ErrNotOurs) && !errors.Is(err, atomicdir.ErrBusy) {
		fmt.Fprintln(os.Stderr, usageHint(cmd))
	}
	return code
}

// stdoutLine is the one sentence printed (on standard error) when
// standard output failed under cmd, which otherwise succeeded: the rule
// for every command.
func stdoutLine(cmd *cobra.Command, err *stdoutError) string {
	path := "revisit"
	if cmd != nil {
		path = cmd.CommandPath()
	}
	return human.Text(fmt.Sprintf("%s: %v: what it printed there is cut short; the command finished, and every output it writes with -o is complete. Exit code %d.", path, err, exitStdout))
}

// ignoreSIGPIPE makes a write to a closed pipe fail with EPIPE instead of
// ending the process: the Go runtime ends a program that writes to a
// closed standard output or error unless SIGPIPE is notified (os/signal,
// "SIGPIPE"). The command then finishes its work and its outputs, and
// execute says what was lost (stdoutWriter); log lines on a closed
// standard error are lost without a word (there is nowhere to say it).
// Notify, unlike Ignore, leaves SIGPIPE at its default in the child
// processes revisit starts. The returned function undoes it.
func ignoreSIGPIPE() (restore func()) {
	c := make(chan os.Signal, 1) // never read: a full channel drops the signal
	signal.Notify(c, syscall.SIGPIPE)
	return func() { signal.Stop(c) }
}

// jobChildEnv is set in the environment of the child ingests of ingest
// --jobs.
const jobChildEnv = "REVISIT_INGEST_JOB"

// signalNames are the signals that interrupt a command, as the user knows
// them.
var signalNames = map[syscall.Signal]string{
	syscall.SIGINT:  "Ctrl-C (SIGINT)",
	syscall.SIGTERM: "SIGTERM",
	syscall.SIGHUP:  "SIGHUP (the terminal or session closed)",
}

// interruptedLine is the one sentence printed when signal s stopped cmd:
// which command stopped, and that it wrote nothing (every output is
// written under a temporary name and put in place only when complete).
func interruptedLine(cmd *cobra.Command, s syscall.Signal) string {
	path := "revisit"
	if cmd != nil {
		path = cmd.CommandPath()
	}
	name := signalName(s)
	what := "nothing was written"
	if cmd != nil && cmd.Name() == "run" {
		what = "nothing of the stage it was in was written (the stages it finished are kept)"
	}
	return fmt.Sprintf("%s: interrupted by %s; %s: outputs are put in place only when complete. Exit code %d.", path, name, what, 128+int(s))
}

// signalName is s as the user knows it.
func signalName(s syscall.Signal) string {
	if name, ok := signalNames[s]; ok {
		return name
	}
	return s.String()
}

// forceGap is how long after the first signal a second one ends the
// process at once. A Ctrl-C on a terminal reaches the child twice within
// microseconds (from the terminal and forwarded by the supervisor), which
// must count as one.
const forceGap = time.Second

// stopDeadline is how long a command may take to stop after the first
// signal before the process ends anyway: the bound of "stops within about
// a second" for any step that does not watch the context (a read blocked
// on a silent pipe or FIFO, a step without a check).
const stopDeadline = 3 * time.Second

// cancelOnSignal returns a context that Ctrl-C, SIGTERM or SIGHUP (the
// terminal or ssh session closed; the supervisor passes all three on)
// cancels: every stage watches it, so the temporary output directories are
// removed and nothing half-written stays. interrupted returns the first
// such signal (0: none), for the exit code 128 + the signal. One rule for
// every command, whatever its code watches: a command that has not
// returned stopDeadline after the first signal, or a second signal at
// least forceGap after the first, ends the process at once with 128 + the
// signal (130 for Ctrl-C); outputs are put in place only when complete, so
// nothing half-written is where an output is expected, and the temporary
// directories left are removed by the next writer of the same output.
// stop unregisters the signals.
func cancelOnSignal() (ctx context.Context, stop func(), interrupted func() syscall.Signal) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	var got atomic.Int32
	go func() {
		var first time.Time
		var deadline <-chan time.Time // after the first signal
		for {
			select {
			case <-done:
				return
			case <-deadline:
				ss := syscall.Signal(got.Load())
				fmt.Fprintf(os.Stderr, "revisit: interrupted by %s, and the command did not stop within %s: ended now; outputs are put in place only when complete (temporary directories left are removed by the next run writing the same output). Exit code %d.\n", signalName(ss), stopDeadline, 128+int(ss))
				os.Exit(128 + int(ss))
			case s := <-sigs:
				ss, _ := s.(syscall.Signal)
				if ss == 0 {
					ss = syscall.SIGINT
				}
				if first.IsZero() {
					first = time.Now()
					got.Store(int32(ss))
					cancel()
					deadline = time.After(stopDeadline)
					continue
				}
				if time.Since(first) < forceGap {
					continue // the same Ctrl-C, forwarded
				}
				fmt.Fprintf(os.Stderr, "revisit: %v again: stopping at once (temporary directories left are removed by the next run writing the same output)\n", s)
				os.Exit(128 + int(ss))
			}
		}
	}()
	return ctx, func() { signal.Stop(sigs); close(done); cancel() }, func() syscall.Signal { return syscall.Signal(got.Load()) }
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
