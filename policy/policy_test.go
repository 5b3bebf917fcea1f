package policy

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// genCorpus builds S sites of N pages whose per-site change fraction is
// known and the same in every cycle, whatever a policy did before: in site
// s the first round(rho(s)·N) pages are updated once in every cycle (at a
// random instant inside it) and the others never after their creation at
// time 0. So in any cycle a downloaded page of site s has changed since its
// last download iff it is one of the changing ones: a page drawn at random
// from site s has changed with probability rho(s) exactly.
func genCorpus(S, N, cycles int, C int64, rho func(site int) float64, seed uint64) []series.Page {
	rng := model.NewRand(seed, 1)
	var pages []series.Page
	for s := 0; s < S; s++ {
		nc := int(rho(s)*float64(N) + 0.5)
		for j := 0; j < N; j++ {
			p := series.Page{ID: int64(s*N + j + 1), Title: fmt.Sprintf("s%d/p%d", s, j), Group: fmt.Sprintf("site%03d", s), Updates: []int64{0}}
			for c := 0; c < cycles && j < nc; c++ {
				p.Updates = append(p.Updates, int64(c)*C+1+rng.Int64N(C-2))
			}
			pages = append(pages, p)
		}
	}
	return pages
}

// uniform is the change-fraction profile of the test corpora: site s of S
// has ρ = (s + 0.5)/S, so with N = 100 pages genCorpus makes s + 1 of them
// change (round((s+0.5)·100/S) for S = 100).
func uniform(S int) func(int) float64 {
	return func(s int) float64 { return (float64(s) + 0.5) / float64(S) }
}

// On a corpus with known per-site change fractions, oracle ≥ greedy ≥
// proportional ≥ round-robin, and every policy spends exactly R in every
// cycle. Exact anchors: the oracle finds R changed pages every cycle
// (50,500 pages change each cycle, far more than R = 1,000), so its
// ChangeRatio is 1; round-robin walks the 10,000 pages in site order, 10
// sites per cycle, twice over 20 cycles, so its mean is exactly the
// corpus' fraction of changing pages (counted below; ≈ 0.5 by the profile).
func TestOrderingAndBudget(t *testing.T) {
	const S, N, C, cycles, R = 100, 100, 1000, 20, 1000
	c, err := NewCorpus(genCorpus(S, N, cycles, C, uniform(S), 1), "group", C, 0, cycles*C)
	if err != nil {
		t.Fatal(err)
	}
	if c.N != cycles || len(c.Sites) != S {
		t.Fatalf("corpus: %d cycles, %d sites", c.N, len(c.Sites))
	}
	res, err := Results(context.Background(), c, Options{Cycle: C, Budget: R, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, r := range res {
		got[r.Policy] = r.Mean()
		if len(r.Spent) != cycles {
			t.Errorf("%s: %d cycles", r.Policy, len(r.Spent))
		}
		for k, s := range r.Spent {
			if s != R {
				t.Errorf("%s cycle %d: spent %d, budget %d", r.Policy, k, s, R)
			}
		}
		t.Logf("%-12s ChangeRatio %.3f ± %.3f", r.Policy, r.Mean(), r.SD())
	}
	if got["oracle"] != 1 {
		t.Errorf("oracle %.4f, want 1", got["oracle"])
	}
	changing := 0
	for _, p := range c.Pages {
		if len(p.Updates) > 1 {
			changing++
		}
	}
	if want := float64(changing) / float64(len(c.Pages)); math.Abs(got["round-robin"]-want) > 1e-12 {
		t.Errorf("round-robin %.6f, want the fraction of changing pages %.6f", got["round-robin"], want)
	}
	if !(got["oracle"] >= got["greedy"] && got["greedy"] >= got["proportional"] && got["proportional"] >= got["round-robin"]) {
		t.Errorf("order oracle ≥ greedy ≥ proportional ≥ round-robin broken: %v", got)
	}
}

// Greedy's best sample size lies within a factor 2 of √(N r) (SPEC §4.5)
// for two budgets: N = 100 pages per site, r = 0.1 (√(N r) = 3.16) and
// r = 0.3 (5.48).
func TestGreedyOptimumNearSqrtNr(t *testing.T) {
	if testing.Short() {
		t.Skip("sweep")
	}
	const S, N, C = 400, 100, 1000
	c, err := NewCorpus(genCorpus(S, N, 3, C, uniform(S), 2), "group", C, 0, 3*C)
	if err != nil {
		t.Fatal(err)
	}
	sizes := []int{1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 20}
	for _, r := range []float64{0.1, 0.3} {
		R := int(r * S * N)
		mean, _, err := GreedySweep(context.Background(), c, Options{Cycle: C, Budget: R, Seed: 3}, sizes)
		if err != nil {
			t.Fatal(err)
		}
		best := 0
		for i := range mean {
			if mean[i] > mean[best] {
				best = i
			}
		}
		opt := OptimalSample(c, R)
		t.Logf("r=%.1f: best s=%d (%.4f), √(N r)=%.2f; curve %v", r, sizes[best], mean[best], opt, mean)
		if s := float64(sizes[best]); s < opt/2 || s > 2*opt {
			t.Errorf("r=%.1f: best s = %d not within a factor 2 of √(N r) = %.2f", r, sizes[best], opt)
		}
	}
}

// A policy that does not spend its budget exactly is an error, and so is a
// page downloaded twice in a cycle.
type stingy struct{ extra bool }

func (stingy) Name() string { return "stingy" }
func (s stingy) Plan(c *Cycle) error {
	if s.extra {
		if _, err := c.Download(0); err != nil {
			return err
		}
		_, err := c.Download(0)
		return err
	}
	return fill(c, []int{0})
}

func TestBudgetEnforced(t *testing.T) {
	c, err := NewCorpus(genCorpus(2, 5, 2, 100, uniform(2), 1), "group", 100, 0, 200)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Replay(context.Background(), c, stingy{}, 3, model.NewRand(1, 1)); err == nil {
		t.Error("underspending accepted")
	}
	if _, err := Replay(context.Background(), c, stingy{extra: true}, 3, model.NewRand(1, 1)); err == nil {
		t.Error("double download accepted")
	}
	if _, err := Replay(context.Background(), c, oracle{}, 11, model.NewRand(1, 1)); err == nil {
		t.Error("budget above the number of pages accepted")
	}
}

// Same seed, same result; the replay does not depend on map order.
func TestDeterministic(t *testing.T) {
	c, err := NewCorpus(genCorpus(10, 20, 5, 100, uniform(10), 1), "hash:4", 100, 0, 500)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Results(context.Background(), c, Options{Cycle: 100, Budget: 30, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Results(context.Background(), c, Options{Cycle: 100, Budget: 30, Seed: 9})
	for i := range a {
		for k := range a[i].Ratio {
			if a[i].Ratio[k] != b[i].Ratio[k] {
				t.Fatalf("%s cycle %d: %g then %g", a[i].Policy, k, a[i].Ratio[k], b[i].Ratio[k])
			}
		}
	}
}

func TestAllocate(t *testing.T) {
	cases := []struct {
		total int
		w     []float64
		caps  []int
		want  []int
	}{
		// shares 2.5, 2.5, 5 → floors 2, 2, 5; one unit left goes to the
		// first of the tied remainders.
		{10, []float64{1, 1, 2}, []int{10, 10, 10}, []int{3, 2, 5}},
		// bin 3 would get 9 > cap 3: capped, the other 7 follow w = 1, 0.
		{10, []float64{1, 0, 9}, []int{10, 10, 3}, []int{7, 0, 3}},
		// all weights 0: shares follow the caps 1 : 3.
		{4, []float64{0, 0}, []int{1, 3}, []int{1, 3}},
		// more units than room: every bin full.
		{10, []float64{1, 1}, []int{2, 3}, []int{2, 3}},
		// thirds: 1.33 each → 1, 1, 1 and one extra to the first.
		{4, []float64{1, 1, 1}, []int{5, 5, 5}, []int{2, 1, 1}},
	}
	for _, c := range cases {
		got := Allocate(c.total, c.w, c.caps)
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("Allocate(%d, %v, %v) = %v, want %v", c.total, c.w, c.caps, got, c.want)
				break
			}
		}
	}
}

// The 95 % Wilson interval for 5 of 10 is 0.5 ± 1.96/1.38416·√(0.025 +
// 0.009604) = [0.2366, 0.7634] (the textbook value); for 0 of 10 the lower
// end is 0 and the upper 3.8416/13.8416 = 0.2775.
func TestWilson(t *testing.T) {
	lo, hi := Wilson(5, 10, 1.96)
	if math.Abs(lo-0.236593) > 1e-5 || math.Abs(hi-0.763407) > 1e-5 {
		t.Errorf("Wilson(5, 10) = [%g, %g]", lo, hi)
	}
	lo, hi = Wilson(0, 10, 1.96)
	if lo != 0 || math.Abs(hi-3.8416/13.8416) > 1e-9 {
		t.Errorf("Wilson(0, 10) = [%g, %g]", lo, hi)
	}
}

// rest's partial selection returns the same k pages, in the same order, as
// a full sort by (last download, random rank): checked against a naive
// sort on random keys with many ties.
func TestRestSelection(t *testing.T) {
	rng := model.NewRand(5, 0)
	const n = 500
	pages := make([]series.Page, n)
	for i := range pages {
		pages[i] = series.Page{ID: int64(i + 1), Updates: []int64{0}, Group: "one"}
	}
	c, err := NewCorpus(pages, "group", 10, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	cy := &Cycle{C: c, Rand: rng, Last: make([]int64, n)}
	for i := range cy.Last {
		cy.Last[i] = rng.Int64N(20)
	}
	for _, k := range []int{0, 1, 7, 50, 124, 125, 300, 499} {
		x := newSamples(cy)[0]
		x.sampled = 1
		want := slices.Clone(x.order[1:])
		slices.SortFunc(want, func(a, b int) int {
			if cy.Last[a] != cy.Last[b] {
				return int(cy.Last[a] - cy.Last[b])
			}
			return x.rank[a] - x.rank[b]
		})
		got := x.rest(cy, k)
		if len(got) < k || !slices.Equal(got[:k], want[:k]) {
			t.Fatalf("k=%d: rest %v…, want %v…", k, got[:min(k, 10)], want[:min(k, 10)])
		}
	}
}
