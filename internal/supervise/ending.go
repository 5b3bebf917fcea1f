package supervise

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/usage"
)

// Ending is how a command ended, as the command line saw it: what Exit
// needs to say why it failed and to choose the exit code, the one rule
// for every command.
type Ending struct {
	// Path names the command ("revisit replay"; "revisit" when no
	// command was found).
	Path string
	// Err is what the command returned, nil on success.
	Err error
	// ArgsError marks Err as the command-line parser's own (an unknown
	// command or flag, a wrong number of arguments), which it does not
	// type: bad usage. UsageLine, when set, is the command's usage line,
	// named after such an error since the parser's message does not say
	// whose arguments it counted.
	ArgsError bool
	UsageLine string
	// Stdout is the failure of standard output (StdoutWriter.Err), nil
	// when it took everything.
	Stdout *StdoutError
	// Signal is the signal that interrupted the command (0: none);
	// KeepsStages says that the command keeps the stages it finished
	// (run).
	Signal      syscall.Signal
	KeepsStages bool
}

// Exit says on w, in one or two lines, why the command failed (nothing
// on success) and returns its exit code: ExitStdout when only standard
// output failed, 128 + the signal when one interrupted it, else ExitCode,
// with a pointer to the command's --help after bad usage.
func (e Ending) Exit(w io.Writer) int {
	var se *StdoutError
	if e.Err == nil || (errors.As(e.Err, &se) && e.Signal == 0) {
		if e.Stdout != nil {
			fmt.Fprintln(w, StdoutLine(e.Path, e.Stdout))
			return ExitStdout
		}
		return ExitOK
	}
	if e.Signal != 0 {
		// The command stopped because of the signal: what it says about
		// the cancellation ("context canceled") is not news.
		if !errors.Is(e.Err, context.Canceled) {
			fmt.Fprintln(w, human.Text("revisit: "+e.Err.Error()))
		}
		if os.Getenv(JobChildEnv) == "" { // ingest --jobs says it once for its children
			fmt.Fprintln(w, InterruptedLine(e.Path, e.Signal, e.KeepsStages))
		}
		return 128 + int(e.Signal)
	}
	err := e.Err
	if e.ArgsError && e.UsageLine != "" {
		fmt.Fprintln(w, human.Text(fmt.Sprintf("%s: %v (usage: %s)", e.Path, err, e.UsageLine)))
	} else {
		fmt.Fprintln(w, human.Text("revisit: "+err.Error()))
	}
	if e.ArgsError {
		err = &usage.Error{Err: err}
	}
	code := ExitCode(err)
	if code == ExitUsage && !Refusal(err) {
		fmt.Fprintln(w, UsageHint(e.Path))
	}
	return code
}

// UsageHint points at the help of the command at path that failed
// ('revisit run --help' after a bad flag of run), not at the root's list
// of commands.
func UsageHint(path string) string { return "Run '" + path + " --help' for usage." }
