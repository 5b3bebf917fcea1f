package visits

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A line longer than the cap names the option that sets the cap: for a
// trace that is --max-observations (estimate has no --max-line-bytes).
func TestTooLongLineNamesItsOption(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.tsv")
	long := strings.Repeat("x", 100_000) + "\t[[1,1],[2,0]]\n"
	if err := os.WriteFile(path, []byte(long+"y\t[[1,1],[2,0]]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		maxObs   int64
		maxBytes int // a library caller's cap, which no estimate option sets
		want     string
	}{
		{20, 0, "bytes (--max-observations)"},
		{1 << 20, 1000, "longer than the limit of 1,000 bytes"},
	} {
		opt := Options{Format: Trace, MaxObservations: tc.maxObs, MaxLineBytes: tc.maxBytes}
		_, err := Read(context.Background(), []string{path}, opt, func(*Observed) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "--max-line-bytes") {
			t.Errorf("--max-observations %d: error %v, want one containing %q and not naming --max-line-bytes", tc.maxObs, err, tc.want)
		}
	}
}
