package crawllog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/shard"
)

// A URL none of whose selected methods its observations allow (--methods
// M4 on irregular delays, M2 without Last-Modified) gave no row but was
// reported as estimated. It is counted as skipped ("no_applicable_method"),
// and when no URL is left the error says why.
func TestEstimateLogsNoApplicableMethod(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "v.csv")
	// c: hourly visits (constant delays); i: irregular delays
	data := "url,time,changed\n" +
		"c,1600000000,1\nc,1600003600,0\nc,1600007200,1\nc,1600010800,1\n" +
		"i,1600000000,1\ni,1600000100,0\ni,1600007200,1\ni,1600010800,1\n"
	if err := os.WriteFile(log, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := EstimateLogs(context.Background(), EstimateOptions{Inputs: []string{log}, Out: filepath.Join(dir, "m4"), Methods: []string{"M4"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Estimated != 1 || m.Skipped["no_applicable_method"] != 1 || m.Verdicts["undecided"] != 1 {
		t.Errorf("M4: estimated %d, skipped %v, verdicts %v; want 1 estimated (c), 1 skipped (i)", m.Estimated, m.Skipped, m.Verdicts)
	}
	out := filepath.Join(dir, "m2")
	_, err = EstimateLogs(context.Background(), EstimateOptions{Inputs: []string{log}, Out: out, Methods: []string{"M2"}})
	if err == nil || !strings.Contains(err.Error(), "skipped: 2 no applicable method") || !strings.Contains(err.Error(), "--methods") {
		t.Errorf("M2 without Last-Modified: %v, want no URL estimated, naming the methods", err)
	}
	if _, serr := os.Stat(out); !os.IsNotExist(serr) {
		t.Errorf("failed estimate left %s", out)
	}
}

// --h larger than --x-max is bad usage (an *OptionError, exit 2), as in
// replay, found before any log is read: it failed with exit 1 at the
// first URL with irregular delays, after reading every log.
func TestEstimateLogsHOverXMax(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "o")
	_, err := EstimateLogs(context.Background(), EstimateOptions{Inputs: []string{filepath.Join(dir, "missing.csv")}, Out: out, H: 5, XMax: 1})
	var oe *OptionError
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "--x-max") {
		t.Errorf("h 5 > x_max 1: %v, want an OptionError", err)
	}
}

// When no URL is estimated, MergeEstimates of the shards fails as the
// unsharded EstimateLogs does ("1 input", "skipped: 2 no applicable
// method", the methods named); it printed Go's map syntax and no reason
// about the methods.
func TestMergeEstimatesNoURLAsEstimateLogs(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "v.csv")
	data := "url,time,changed\n" +
		"c,1600000000,1\nc,1600003600,0\nc,1600007200,1\nc,1600010800,1\n" +
		"i,1600000000,1\ni,1600000100,0\ni,1600007200,1\ni,1600010800,1\n"
	if err := os.WriteFile(log, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := func(out string, s shard.Spec) EstimateOptions {
		return EstimateOptions{Inputs: []string{log}, Out: filepath.Join(dir, out), Methods: []string{"M2"}, Shard: s}
	}
	_, want := EstimateLogs(context.Background(), opt("all", shard.Spec{}))
	if want == nil {
		t.Fatal("unsharded: no error, want no URL estimated")
	}
	var shards []string
	for i := range 2 {
		o := opt(fmt.Sprintf("s%d", i), shard.Spec{I: i, N: 2})
		if _, err := EstimateLogs(context.Background(), o); err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
		shards = append(shards, o.Out)
	}
	_, err := MergeEstimates(context.Background(), shards, filepath.Join(dir, "merged"))
	if err == nil || err.Error() != want.Error() || !strings.Contains(err.Error(), "1 input (") || !strings.Contains(err.Error(), "skipped: 2 no applicable method") {
		t.Errorf("merge: %v\nwant %v", err, want)
	}
}
