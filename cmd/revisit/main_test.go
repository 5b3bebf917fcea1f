package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/supervise"
)

// The exit codes (SPEC §8) the tests expect, by their short names:
// internal/supervise owns them.
const (
	exitOK       = supervise.ExitOK
	exitBadInput = supervise.ExitBadInput
	exitUsage    = supervise.ExitUsage // bad usage, or an output revisit refuses to replace (usage.Refused)
	exitInternal = supervise.ExitInternal
	exitSIGHUP   = supervise.ExitSIGHUP
	exitSIGINT   = supervise.ExitSIGINT
	exitSIGTERM  = supervise.ExitSIGTERM
	exitSIGKILL  = supervise.ExitSIGKILL
	exitSIGQUIT  = supervise.ExitSIGQUIT
	exitStdout   = supervise.ExitStdout
)

// A usage error names the help of the subcommand it came from: after
// 'revisit run x --bogus' the flags to read are run's, not the root's.
func TestUsageHintNamesSubcommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "x", "--bogus"}, "Run 'revisit run --help' for usage."},
		{[]string{"report", "-o"}, "Run 'revisit report --help' for usage."},
		{[]string{"rnu"}, "Run 'revisit --help' for usage."},
	} {
		root := newRoot()
		root.SetArgs(c.args)
		cmd, err := root.ExecuteC()
		if err == nil {
			t.Fatalf("revisit %v: no error", c.args)
		}
		if got := supervise.UsageHint(commandPath(cmd)); got != c.want {
			t.Errorf("revisit %v: hint %q, want %q", c.args, got, c.want)
		}
	}
}

// stderrOf runs execute(args) and returns its exit code and what it wrote
// to standard error.
func stderrOf(t *testing.T, args ...string) (int, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	code := execute(args)
	os.Stderr = saved
	w.Close()
	b, _ := io.ReadAll(r)
	return code, string(b)
}

// 'revisit' with no command is bad usage (help on stderr, exit 2), and an
// arity error says which command counted the arguments.
func TestNoCommandAndArityErrors(t *testing.T) {
	code, msg := stderrOf(t)
	if code != exitUsage || !strings.Contains(msg, "Available Commands") || !strings.Contains(msg, "no command given") {
		t.Errorf("revisit: exit %d, stderr %.300q", code, msg)
	}
	code, msg = stderrOf(t, "report")
	if code != exitUsage || !strings.HasPrefix(msg, "revisit report: ") || !strings.Contains(msg, "RESULTS_DIR") {
		t.Errorf("revisit report: exit %d, stderr %q", code, msg)
	}
	if code, _ := stderrOf(t, "--version"); code != exitOK {
		t.Errorf("revisit --version: exit %d", code)
	}
}

// An input whose name holds the words of cobra's argument errors
// ("invalid argument", "requires at least", an EINVAL's message) is still
// bad input once the command runs: exit 1, without cobra's usage line or
// the pointer to --help.
func TestCobraWordsInInputAreBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"invalid argument", "requires at least", "unknown command"} {
		missing := filepath.Join(dir, name)
		code, msg := stderrOf(t, "report", missing, "-o", filepath.Join(dir, "rep"))
		if code != exitBadInput || strings.Contains(msg, "--help") || strings.Contains(msg, "(usage:") || !strings.Contains(msg, "no such file") {
			t.Errorf("report %q: exit %d, stderr %q; want %d naming the missing input", missing, code, msg, exitBadInput)
		}
	}
}
