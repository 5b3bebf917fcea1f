// Package console is where a command speaks to the person who ran it:
// its results and summaries on standard output, progress and log lines on
// standard error, nothing but its results under -q. Every stage's command
// entry point takes a Console instead of reaching for os.Stdout and
// os.Stderr, so that the command line stays flags and tests can read what
// a command said.
package console

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schollz/progressbar/v3"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/progress"
)

// Console is the two streams of a command and its -q.
type Console struct {
	// Out is standard output: the command's results (the tables of
	// schedule, simulate and policies) and its summary. A failed write
	// is standard output's, which the command line reports once at exit
	// (supervise.StdoutWriter): callers need not check it.
	Out io.Writer
	// Err is standard error: progress bars and log lines.
	Err io.Writer
	// Quiet (-q): a successful command prints nothing, on standard
	// output or error, but its result when that is printed
	// (PrintsTables).
	Quiet bool
}

// Std is the console of the process: os.Stdout (or out when non-nil,
// the command line's checked standard output), os.Stderr.
func Std(out io.Writer, quiet bool) Console {
	if out == nil {
		out = os.Stdout
	}
	return Console{Out: out, Err: os.Stderr, Quiet: quiet}
}

// Logf prints one log line on Err unless Quiet, its control characters
// escaped (human.Text): the lines hold file names and titles from the
// input.
func (c Console) Logf(format string, a ...any) {
	if !c.Quiet {
		fmt.Fprintln(c.Err, human.Text(fmt.Sprintf(format, a...)))
	}
}

// Log is Logf as the Log option of a stage (replay, estimate, simulate,
// policies), nil under -q so that the stage does not format lines no one
// reads.
func (c Console) Log() func(format string, a ...any) {
	if c.Quiet {
		return nil
	}
	return c.Logf
}

// Terminal is Err escaped for a terminal (human.Terminal), nil under -q:
// the log writer of analyze and run.
func (c Console) Terminal() io.Writer {
	if c.Quiet {
		return nil
	}
	return human.NewTerminal(c.Err)
}

// PrintsTables reports whether a command that can print its tables on
// standard output (schedule, simulate, policies) prints them: always
// without -o (out == ""), where they are its only result, and with -o
// unless Quiet, where they summarise the files written.
func (c Console) PrintsTables(out string) bool { return !c.Quiet || out == "" }

// ErrIsTerminal reports whether Err is a terminal (a character device),
// where a progress bar is drawn instead of log lines.
func (c Console) ErrIsTerminal() bool { return progress.IsTerminal(c.Err) }

// PrintSafe writes what print writes to w with its control characters
// escaped (human.Text): tables and summaries that hold page titles, file
// names or URLs from the input.
func PrintSafe(w io.Writer, print func(io.Writer) error) error {
	var b strings.Builder
	err := print(&b)
	if _, werr := io.WriteString(w, human.Text(b.String())); err == nil {
		err = werr
	}
	return err
}

// Bar is the progress bar of a stage on Err, with max steps (-1: not yet
// known) of what its counts (e.g. "pages"), or nil where no bar is drawn:
// under -q, or when Err is not a terminal (the stage logs lines there
// instead). The bar clears itself when finished.
func (c Console) Bar(max int, desc, what string) *progressbar.ProgressBar {
	if c.Quiet || !c.ErrIsTerminal() {
		return nil
	}
	return progressbar.NewOptions(max, progressbar.OptionSetWriter(c.Err),
		progressbar.OptionSetDescription(desc), progressbar.OptionShowCount(),
		progressbar.OptionShowIts(), progressbar.OptionSetItsString(what),
		progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
}
