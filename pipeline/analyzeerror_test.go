package pipeline

import (
	"errors"
	"testing"

	"github.com/revisit-dev/revisit/analysis"
)

// run names the analyze stage once, telling the analysis's own errors by
// their type: an error that merely reads "analyze: …" (a message passed
// on from elsewhere) is still named.
func TestAnalyzeErrorByType(t *testing.T) {
	own := &analysis.StageError{Err: errors.New("no output directory")}
	if got, want := analyzeError(own).Error(), "run: analyze: no output directory"; got != want {
		t.Errorf("analysis error: %q, want %q", got, want)
	}
	if !errors.Is(analyzeError(own), own) {
		t.Error("run's error does not wrap the analysis error")
	}
	other := errors.New("analyze: x.parquet: not a Parquet file")
	if got, want := analyzeError(other).Error(), "run: analyze: analyze: x.parquet: not a Parquet file"; got != want {
		t.Errorf("passed-on error: %q, want %q", got, want)
	}
}
