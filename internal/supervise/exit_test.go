package supervise

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/usage"
)

// Each kind of failure, wrapped as a command wraps it, has SPEC §8's code;
// only bad usage gets the pointer to --help (Refusal is false for it).
func TestExitCode(t *testing.T) {
	plain := errors.New("page 3: bad timestamp")
	for _, c := range []struct {
		name    string
		err     error
		code    int
		refusal bool
	}{
		{"nil", nil, ExitOK, false},
		{"bad input", plain, ExitBadInput, false},
		{"bad usage", usage.Errorf("--top 0: want ≥ 1"), ExitUsage, false},
		{"refused output", &usage.Refused{Err: plain}, ExitUsage, true},
		{"late refusal", &atomicdir.RefusedError{Path: "out", What: "replay output", Reason: "it holds entries revisit did not write"}, ExitUsage, true},
		{"busy output", atomicdir.ErrBusy, ExitUsage, true},
		{"internal", InternalError{Err: plain}, ExitInternal, false},
		{"internal before usage", InternalError{Err: usage.Errorf("x")}, ExitInternal, false},
	} {
		err := c.err
		if err != nil {
			err = fmt.Errorf("stage: %w", err)
		}
		if got := ExitCode(err); got != c.code {
			t.Errorf("%s: ExitCode %d, want %d", c.name, got, c.code)
		}
		if got := Refusal(err); got != c.refusal {
			t.Errorf("%s: Refusal %v, want %v", c.name, got, c.refusal)
		}
	}
}

// The one-sentence lines name the command and the exit code; only run
// keeps the stages it finished.
func TestLines(t *testing.T) {
	if got, want := StdoutLine("revisit replay", &StdoutError{Err: syscall.EPIPE}),
		"revisit replay: standard output: broken pipe: what it printed there is cut short; the command finished, and every output it writes with -o is complete. Exit code 141."; got != want {
		t.Errorf("StdoutLine:\n got %q\nwant %q", got, want)
	}
	if got, want := InterruptedLine("revisit replay", syscall.SIGINT, false),
		"revisit replay: interrupted by "+SignalName(syscall.SIGINT)+"; nothing was written: outputs are put in place only when complete. Exit code 130."; got != want {
		t.Errorf("InterruptedLine:\n got %q\nwant %q", got, want)
	}
	if got, want := InterruptedLine("revisit run", syscall.SIGTERM, true),
		"revisit run: interrupted by "+SignalName(syscall.SIGTERM)+"; nothing of the stage it was in was written (the stages it finished are kept): outputs are put in place only when complete. Exit code 143."; got != want {
		t.Errorf("InterruptedLine of run:\n got %q\nwant %q", got, want)
	}
}

// Exit says why in the lines of SPEC §8 and returns the code: a closed
// standard output after success, a signal (the cancellation not
// repeated), a parser error of a subcommand with its usage line, bad
// usage with the pointer to --help, a refusal without it, bad input.
func TestEndingExit(t *testing.T) {
	t.Setenv(JobChildEnv, "")
	epipe := &StdoutError{Err: syscall.EPIPE}
	for _, c := range []struct {
		name string
		e    Ending
		code int
		want string
	}{
		{"success", Ending{Path: "revisit replay"}, ExitOK, ""},
		{"stdout", Ending{Path: "revisit replay", Stdout: epipe}, ExitStdout, StdoutLine("revisit replay", epipe) + "\n"},
		{"stdout error returned", Ending{Path: "revisit replay", Err: epipe, Stdout: epipe}, ExitStdout, StdoutLine("revisit replay", epipe) + "\n"},
		{"interrupted", Ending{Path: "revisit run", Err: context.Canceled, Signal: syscall.SIGINT, KeepsStages: true}, ExitSIGINT,
			InterruptedLine("revisit run", syscall.SIGINT, true) + "\n"},
		{"interrupted with a message", Ending{Path: "revisit replay", Err: errors.New("page 3: stopped"), Signal: syscall.SIGTERM}, ExitSIGTERM,
			"revisit: page 3: stopped\n" + InterruptedLine("revisit replay", syscall.SIGTERM, false) + "\n"},
		{"arity", Ending{Path: "revisit report", Err: errors.New("requires at least 1 arg(s), only received 0"), ArgsError: true, UsageLine: "revisit report RESULTS_DIR... -o REPORT_DIR [flags]"}, ExitUsage,
			"revisit report: requires at least 1 arg(s), only received 0 (usage: revisit report RESULTS_DIR... -o REPORT_DIR [flags])\nRun 'revisit report --help' for usage.\n"},
		{"unknown command", Ending{Path: "revisit", Err: errors.New(`unknown command "rnu" for "revisit"`), ArgsError: true}, ExitUsage,
			"revisit: unknown command \"rnu\" for \"revisit\"\nRun 'revisit --help' for usage.\n"},
		{"bad usage", Ending{Path: "revisit replay", Err: usage.Errorf("--top 0: want ≥ 1")}, ExitUsage, "revisit: --top 0: want ≥ 1\nRun 'revisit replay --help' for usage.\n"},
		{"refused", Ending{Path: "revisit replay", Err: &usage.Refused{Err: errors.New("out: not ours")}}, ExitUsage, "revisit: out: not ours\n"},
		{"bad input", Ending{Path: "revisit replay", Err: errors.New("page 3: invalid argument\x1b[2J")}, ExitBadInput, "revisit: page 3: invalid argument\\x1b[2J\n"},
	} {
		var w strings.Builder
		if code := c.e.Exit(&w); code != c.code || w.String() != c.want {
			t.Errorf("%s: exit %d, said %q; want %d, %q", c.name, code, w.String(), c.code, c.want)
		}
	}
}
