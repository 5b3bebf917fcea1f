package staleness

import (
	"context"
	"github.com/revisit-dev/revisit/generate/gentest"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/internal/stagetest"
)

// A cancelled context stops Analyze, already cancelled or cancelled while
// it works on a large input: it returns context.Canceled and no bundle.
func TestAnalyzeCancelled(t *testing.T) {
	pages := gentest.PoissonPages(9, 2000, 20_000)
	stagetest.Stops(t, "staleness.Analyze", 20*time.Millisecond, func(ctx context.Context) (bool, error) {
		b, err := Analyze(ctx, pages, 3600, Options{Seed: 1})
		return b != nil, err
	})
}
