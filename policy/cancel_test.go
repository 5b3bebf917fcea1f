package policy

import (
	"context"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/internal/stagetest"
)

// A cancelled context stops Run, already cancelled or cancelled while it
// replays a large corpus: it returns context.Canceled and no bundle.
func TestRunCancelled(t *testing.T) {
	pages := genCorpus(20, 100, 3000, 1000, uniform(20), 4)
	stagetest.Stops(t, "policy.Run", 50*time.Millisecond, func(ctx context.Context) (bool, error) {
		b, err := Run(ctx, pages, Options{Cycle: 1000, Budget: 200, Seed: 1})
		return b != nil, err
	})
}
