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
