package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/crawllog"
	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/supervise"
	"github.com/revisit-dev/revisit/internal/usage"
	"github.com/revisit-dev/revisit/pipeline"
	"github.com/revisit-dev/revisit/replay"
)

// Bad usage is one type, whichever stage says it: each stage's name for
// it, wrapped as a command wraps it, is exit code 2 with no per-type list
// in supervise.ExitCode to keep up to date, and a plain error stays bad input.
func TestEveryUsageErrorExitsTwo(t *testing.T) {
	msg := errors.New("bad option")
	for name, err := range map[string]error{
		"ingest.OptionError":     &ingest.OptionError{Err: msg},
		"replay.OptionError":     &replay.OptionError{Err: msg},
		"replay.MergeError":      &replay.MergeError{Err: msg},
		"crawllog.OptionError":   &crawllog.OptionError{Err: msg},
		"crawllog.MergeError":    &crawllog.MergeError{Err: msg},
		"analysis.MergeError":    &analysis.MergeError{Err: msg},
		"dataset.CombineError":   &dataset.CombineError{Err: msg},
		"dataset.SelectionError": &dataset.SelectionError{Err: msg},
		"pipeline.UsageError":    &pipeline.UsageError{Err: msg},
		"shard.MergeError":       &shard.MergeError{Err: msg},
		"usagef":                 usagef("bad option"),
	} {
		wrapped := fmt.Errorf("stage: %w", err)
		if code := supervise.ExitCode(wrapped); code != exitUsage {
			t.Errorf("%s: exit %d, want %d", name, code, exitUsage)
		}
		if !usage.Is(wrapped) || wrapped.Error() != "stage: bad option" {
			t.Errorf("%s: usage.Is %v, message %q", name, usage.Is(wrapped), wrapped)
		}
	}
	if code := supervise.ExitCode(fmt.Errorf("page 3: %w", msg)); code != exitBadInput {
		t.Errorf("a plain error: exit %d, want %d", code, exitBadInput)
	}
}
