//go:build unix

package supervise

import (
	"strings"
	"testing"
)

// Under a low address-space limit the hint names it and what revisit
// needs; without a limit there is no hint.
func TestLimitHint(t *testing.T) {
	if h := limitHintFor(900 << 20); !strings.Contains(h, "ulimit -v") || !strings.Contains(h, "900 MiB") {
		t.Errorf("hint under a 900 MiB limit: %q", h)
	}
	if h := limitHintFor(^uint64(0)); h != "" {
		t.Errorf("hint without a limit: %q", h)
	}
}

// A child's bad usage keeps its code through ChildExit; the other codes
// are the child's own.
func TestChildExit(t *testing.T) {
	for code, want := range map[int]int{ExitOK: ExitOK, ExitBadInput: ExitBadInput, ExitUsage: ExitUsageChild, ExitInternal: ExitInternal, ExitSIGINT: ExitSIGINT} {
		if got := ChildExit(code); got != want {
			t.Errorf("ChildExit(%d) = %d, want %d", code, got, want)
		}
	}
}

// In the supervised child, Main does the work and returns its code as the
// child's (bad usage as ExitUsageChild, for the parent to map back).
func TestMainInChild(t *testing.T) {
	t.Setenv(Env, "1")
	for code, want := range map[int]int{ExitOK: ExitOK, ExitBadInput: ExitBadInput, ExitUsage: ExitUsageChild} {
		var got []string
		if c := Main([]string{"a", "b"}, func(args []string) int { got = args; return code }); c != want || len(got) != 2 {
			t.Errorf("work returning %d: Main %d (args %v), want %d", code, c, got, want)
		}
	}
}
