package reports

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Ctrl-C while a report is rendered (its Context done) stops it between
// figures: Write returns the context's error and writes nothing.
func TestWriteStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(t.TempDir(), "report")
	err := Write(sampleBundle(), out, Options{Context: ctx})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Write with a cancelled context: %v, want context.Canceled", err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
	if err := Write(sampleBundle(), out, Options{Context: context.Background()}); err != nil {
		t.Fatalf("Write: %v", err)
	}
}
