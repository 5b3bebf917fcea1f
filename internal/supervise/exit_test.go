package supervise

import (
	"errors"
	"fmt"
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
