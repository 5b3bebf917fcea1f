package policy

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestRunProgress: Run reports every cycle it replays, against a total
// worked out here from the sweeps it runs — 7 policies, 3 sample sizes, 2
// budgets × 7 policies, each over every cycle — and logs a progress line
// each time LogEvery has passed on its clock (a fake one advancing 1 s per
// reading: one line every second cycle). The tables are the same as
// without progress.
func TestRunProgress(t *testing.T) {
	pages := genCorpus(4, 10, 30, 1000, uniform(4), 3)
	opt := Options{Cycle: 1000, Budget: 8, Seed: 1, SampleSizes: []int{1, 2, 3}, Budgets: []int{4, 8}}
	c, err := NewCorpus(pages, opt.Grouping, opt.Cycle, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := c.N * (len(Names) + 3 + 2*len(Names))
	quiet, err := Run(t.Context(), pages, opt)
	if err != nil {
		t.Fatal(err)
	}

	var calls, last, total int
	var lines []string
	clock := time.Unix(0, 0)
	opt.now = func() time.Time { clock = clock.Add(time.Second); return clock }
	opt.Progress = func(done, tot int) {
		calls++
		if done != last+1 {
			t.Fatalf("done %d after %d", done, last)
		}
		last, total = done, tot
	}
	opt.Log = func(format string, a ...any) { lines = append(lines, fmt.Sprintf(format, a...)) }
	b, err := Run(t.Context(), pages, opt)
	if err != nil {
		t.Fatal(err)
	}
	if calls != want || last != want || total != want {
		t.Errorf("progress: %d calls, last %d of %d; want %d", calls, last, total, want)
	}
	// The clock is read once at the start and once per cycle: the first
	// line at the 2nd cycle (2 s), then every 2nd.
	if len(lines) != want/2 {
		t.Errorf("%d log lines, want %d", len(lines), want/2)
	}
	if len(lines) > 0 && !strings.HasPrefix(lines[0], fmt.Sprintf("policies: 2 of %d cycles replayed (0%%", want)) {
		t.Errorf("first line %q", lines[0])
	}
	if !reflect.DeepEqual(b, quiet) {
		t.Error("the bundle differs with progress on")
	}
}
