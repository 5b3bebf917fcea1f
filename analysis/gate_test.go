package analysis

import (
	"bytes"
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// TestByteGate: 8 goroutines take weights from 1 to 1.5 budgets through
// the gate 200 times each; the bytes held at once never exceed the
// budget but when one holder alone took more than fits, and all get
// through.
func TestByteGate(t *testing.T) {
	const budget = 100
	g := newByteGate(budget)
	var mu sync.Mutex
	holders, held, worst := 0, int64(0), int64(0)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := model.NewRand(9, uint64(w))
			for range 200 {
				want := 1 + r.Int64N(150)
				got := g.acquire(want)
				if got != min(want, budget) {
					t.Errorf("acquire(%d) took %d, want %d", want, got, min(want, budget))
				}
				mu.Lock()
				holders++
				held += got
				if holders > 1 && held > budget {
					t.Errorf("%d holders with %d bytes, budget %d", holders, held, budget)
				}
				worst = max(worst, held)
				mu.Unlock()
				mu.Lock()
				holders--
				held -= got
				mu.Unlock()
				g.release(got)
			}
		}()
	}
	wg.Wait()
	if g.used != 0 || g.peak > budget || worst == 0 {
		t.Fatalf("after: %d bytes held, peak %d, worst seen %d (budget %d)", g.used, g.peak, worst, budget)
	}
}

// TestGiantsWorkersByteIdentical: a dataset with six large pages (50,000
// to 120,000 updates, the ACF by FFT, each above a worker's share of a
// budget lowered to 12 MiB so that they queue at the gate) among 60 small
// ones: the analysis with 4 workers writes every file of the analysis
// with 1 worker byte for byte.
func TestGiantsWorkersByteIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("short: six pages of up to 120,000 updates")
	}
	r := model.NewRand(12, 1)
	var pages []series.Page
	const budget = 12 << 20
	giants := 0
	for k := range 66 {
		n := 50 + 13*(k%9)
		if k%11 == 4 {
			n = 50000 + 14000*(k/11)
		}
		var d model.Dist = model.Exponential{Rate: 1}
		if k%2 == 1 {
			d = model.Pareto{Alpha: 2.5, Beta: 1.5}
		}
		raw := series.RawPage{ID: int64(10 + k), Title: d.String(), Resolution: 1, Source: "generated"}
		ts := 1e9
		for range n {
			raw.Revisions = append(raw.Revisions, int64(ts))
			ts += 3600*d.Rand(r) + 1
		}
		pages = append(pages, raw.Normalize())
		if pageAnalysisBytes(len(pages[k].Updates), 100, 100) > budget/4 {
			giants++
		}
	}
	if giants != 6 {
		t.Fatalf("%d pages above a worker's share of the budget, want the 6 large ones", giants)
	}
	dir := writeDataset(t, pages)
	opt := Options{Dataset: dir, Reps: 19, Seed: 3, AggregateMax: 5000, budget: budget,
		Localized: LocalizedOptions{NHPP: true, Theta: 0.1, Staleness: true, Epsilon: 0.1, SelectMax: 5}}
	tmp := t.TempDir()
	one := opt
	one.Workers, one.Out = 1, filepath.Join(tmp, "one")
	res, err := Run(context.Background(), one)
	if err != nil {
		t.Fatal(err)
	}
	if res.Screened < 6 {
		t.Fatalf("%d pages screened, want the 6 large ones at least", res.Screened)
	}
	four := opt
	four.Workers, four.Out = 4, filepath.Join(tmp, "four")
	if _, err := Run(context.Background(), four); err != nil {
		t.Fatal(err)
	}
	want, got := stagetest.ReadTree(t, one.Out), stagetest.ReadTree(t, four.Out)
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s differs from the analysis with 1 worker", name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d files, want %d", len(got), len(want))
	}
}
