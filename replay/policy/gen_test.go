package policy

import (
	"fmt"
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

func TestDbgPolicies(t *testing.T) {
	const S, N, C = 100, 100, 1000
	pages := genCorpus(S, N, 20, C, func(s int) float64 { return (float64(s) + 0.5) / S }, 1)
	c, err := NewCorpus(pages, "group", C, 0, 20*C)
	if err != nil {
		t.Fatal(err)
	}
	R := 1000
	for _, name := range Names {
		p, _ := New(name, Params{SampleSize: 3, K: 5, Alpha: 0.95})
		r, err := Replay(c, p, R, model.NewRand(1, 2))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-12s %.3f ± %.3f", name, r.Mean(), r.SD())
	}
	pages = genCorpus(1000, 100, 1, C, func(s int) float64 { return (float64(s) + 0.5) / 1000 }, 1)
	c, _ = NewCorpus(pages, "group", C, 0, C)
	for _, s := range []int{1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 20, 30} {
		var m float64
		for rep := 0; rep < 5; rep++ {
			r, _ := Replay(c, sampling{name: "greedy", s: s, greedy: true}, 10000, model.NewRand(uint64(rep), 3))
			m += r.Mean() / 5
		}
		t.Logf("greedy s=%d: %.4f", s, m)
	}
}
