//go:build unix

package ingest

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/supervise"
)

// A child ingest (ingest --jobs) that the Go runtime ended (exit 2: out of
// memory or a crash) is not bad usage: its exit code 2 is the runtime's,
// a child's bad usage is supervise.ExitUsageChild.
func TestChildErrorRuntimeDeathIsNotUsage(t *testing.T) {
	err := exec.Command("sh", "-c", "exit 2").Run()
	got := childError("part1.xml", err)
	var ue *OptionError
	if errors.As(got, &ue) {
		t.Fatalf("a child ended by the Go runtime (exit 2) is reported as bad usage: %v", got)
	}
	var ie supervise.InternalError
	if !errors.As(got, &ie) || !strings.Contains(got.Error(), "out of memory") {
		t.Errorf("message does not say the runtime ended the child: %v", got)
	}
	err = exec.Command("sh", "-c", fmt.Sprintf("exit %d", supervise.ExitUsageChild)).Run()
	if got := childError("part1.xml", err); !errors.As(got, &ue) {
		t.Errorf("a child's bad usage (exit %d) is not bad usage: %v", supervise.ExitUsageChild, got)
	}
}
