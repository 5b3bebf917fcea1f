package nhpp

import (
	"context"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/internal/stagetest"
)

// A cancelled context stops Analyze, already cancelled or cancelled while
// it works on a large input: it returns context.Canceled and no bundle.
func TestAnalyzeCancelled(t *testing.T) {
	pages := stagetest.PoissonPages(5, 300, 20_000)
	stagetest.Stops(t, "nhpp.Analyze", 50*time.Millisecond, func(ctx context.Context) (bool, error) {
		b, err := Analyze(ctx, pages, 3600, Options{})
		return b != nil, err
	})
}
