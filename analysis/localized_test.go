package analysis

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// keeperPages are n pages with heavy-tailed numbers of updates (ties
// included) and titles of several lengths, ids in no particular order.
func keeperPages(n int, seed uint64) []series.Page {
	r := model.NewRand(seed, 1)
	pages := make([]series.Page, n)
	for i := range pages {
		k := 1 + int(model.Pareto{Alpha: 1.1, Beta: 20}.Rand(r))
		if i%9 == 0 {
			k = 50 // ties
		}
		k = min(k, 20000)
		pages[i] = series.Page{ID: int64(7919*i%100003 + 1), Title: strings.Repeat("t", i%13), Updates: make([]int64, k)}
	}
	return pages
}

// naiveBusiest is busiestKeeper's rule written out on all the pages at
// once: sort by busier; if the n busiest fit in the budget, they are
// kept; else pass over the pages above an eighth of the budget and take
// the others from the top while at most n and within the budget. And the
// n busiest of all that are not taken.
func naiveBusiest(pages []series.Page, n int, budget int64) (kept []int64, skipped []int64) {
	s := slices.Clone(pages)
	slices.SortFunc(s, func(a, b series.Page) int {
		if busier(rankOf(&a), rankOf(&b)) {
			return -1
		}
		return 1
	})
	top := s[:min(n, len(s))]
	var sum int64
	for i := range top {
		sum += pageBytes(&top[i])
	}
	taken := map[int64]bool{}
	if sum <= budget {
		for i := range top {
			kept = append(kept, top[i].ID)
			taken[top[i].ID] = true
		}
		return kept, nil
	}
	sum = 0
	for i := range s {
		c := pageBytes(&s[i])
		if c > budget/8 {
			continue
		}
		if len(kept) == n || sum+c > budget {
			break
		}
		sum += c
		kept = append(kept, s[i].ID)
		taken[s[i].ID] = true
	}
	for i := range top {
		if !taken[top[i].ID] {
			skipped = append(skipped, top[i].ID)
		}
	}
	return kept, skipped
}

func ids(pages []series.Page) []int64 {
	var out []int64
	for i := range pages {
		out = append(out, pages[i].ID)
	}
	return out
}

func rankIDs(rs []PageRank) []int64 {
	var out []int64
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

// The keeper, fed the pages in any order, and the merge of keepers of
// shards of them, keep the pages of the naive rule and name the same
// skipped pages; it never holds more than the budget.
func TestBusiestKeeperNaive(t *testing.T) {
	pages := keeperPages(400, 5)
	var total int64
	for i := range pages {
		total += pageBytes(&pages[i])
	}
	giantsSkipped, extraHeld := 0, 0 // the cases the rule has: giants passed over with others kept; extra pages held
	for _, n := range []int{1, 7, 50, 1000} {
		for _, budget := range []int64{100, 2000, 30000, 200000, 400000, total} {
			wantKept, wantSkipped := naiveBusiest(pages, n, budget)
			for _, id := range wantSkipped {
				if i := slices.IndexFunc(pages, func(p series.Page) bool { return p.ID == id }); pageBytes(&pages[i]) > budget/8 && len(wantKept) > 0 {
					giantsSkipped++
				}
			}
			r := rand.New(rand.NewPCG(uint64(n), uint64(budget)))
			for order := range 3 {
				p := slices.Clone(pages)
				switch order {
				case 1:
					slices.Reverse(p)
				case 2:
					r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
				}
				k := &busiestKeeper{n: n, budget: budget}
				for i := range p {
					k.Offer(&p[i])
					var sum int64
					for j := range k.pages {
						sum += pageBytes(&k.pages[j])
					}
					if sum != k.bytes || k.bytes > budget || len(k.pages) > n || len(k.top) > n || len(k.extra) > 7 {
						t.Fatalf("n %d budget %d: holds %d pages, %d bytes (counted %d), %d top, %d extra", n, budget, len(k.pages), k.bytes, sum, len(k.top), len(k.extra))
					}
					if !k.over {
						var held int64
						for _, q := range append(slices.Clone(k.top), k.extra...) {
							held += pageBytes(&q)
						}
						if held > budget+7*budget/8 {
							t.Fatalf("n %d budget %d: %d bytes held under the budget", n, budget, held)
						}
					}
				}
				if !k.over && len(k.extra) > 0 {
					extraHeld++
				}
				var kp Partial
				k.fill(&kp)
				if got := ids(KeptPages(&kp)); !slices.Equal(got, wantKept) {
					t.Fatalf("n %d budget %d order %d: kept %v\nwant %v", n, budget, order, got, wantKept)
				}
				if got := rankIDs(Skipped(kp.KeepTop, KeptPages(&kp))); !slices.Equal(got, wantSkipped) {
					t.Fatalf("n %d budget %d order %d: skipped %v\nwant %v", n, budget, order, got, wantSkipped)
				}
			}
			for _, shards := range []int{2, 5} {
				parts := make([]*Partial, shards)
				keepers := make([]*busiestKeeper, shards)
				for s := range keepers {
					keepers[s] = &busiestKeeper{n: n, budget: budget}
					parts[s] = &Partial{}
				}
				for i := range pages {
					keepers[int(shard.Hash(pages[i].ID)%uint64(shards))].Offer(&pages[i])
				}
				m := &busiestKeeper{n: n, budget: budget}
				for _, s := range r.Perm(shards) {
					keepers[s].fill(parts[s])
					m.offerPartial(parts[s])
				}
				var mp Partial
				m.fill(&mp)
				if got := ids(KeptPages(&mp)); !slices.Equal(got, wantKept) {
					t.Fatalf("n %d budget %d, merge of %d shards: kept %v\nwant %v", n, budget, shards, got, wantKept)
				}
				if got := rankIDs(Skipped(mp.KeepTop, KeptPages(&mp))); !slices.Equal(got, wantSkipped) {
					t.Fatalf("n %d budget %d, merge of %d shards: skipped %v\nwant %v", n, budget, shards, got, wantSkipped)
				}
			}
		}
	}
	if giantsSkipped == 0 || extraHeld == 0 {
		t.Errorf("%d giants passed over with other pages kept, %d keepers holding extra pages under the budget: the case should have both", giantsSkipped, extraHeld)
	}
}

// Whenever the n busiest pages fit in the budget, the keeper keeps what
// the count-bounded keeper (transform.TopKeeper) keeps, and skips none.
func TestBusiestKeeperAsTopKeeper(t *testing.T) {
	pages := keeperPages(300, 8)
	for _, n := range []int{1, 10, 100, 300} {
		top := transform.NewTopKeeper(n)
		for i := range pages {
			top.Offer(&pages[i])
		}
		var need int64
		for i := range top.Pages() {
			need += pageBytes(&top.Pages()[i])
		}
		for _, budget := range []int64{need, need + 1, 1 << 40} {
			k := &busiestKeeper{n: n, budget: budget}
			for i := range pages {
				k.Offer(&pages[i])
			}
			var kp Partial
			k.fill(&kp)
			if got, want := ids(KeptPages(&kp)), ids(top.Pages()); !slices.Equal(got, want) {
				t.Fatalf("n %d budget %d (the top need %d): kept %v, TopKeeper %v", n, budget, need, got, want)
			}
			if s := Skipped(kp.KeepTop, KeptPages(&kp)); len(s) != 0 {
				t.Fatalf("n %d budget %d: skipped %v", n, budget, rankIDs(s))
			}
		}
	}
}

// A dataset with three huge pages among ordinary ones, analysed with a
// byte budget the busiest pages do not fit in: the huge pages (giants,
// above an eighth of the budget) are passed over and the ordinary ones
// kept from the busiest down until the budget is full; every page of the
// SelectMax busiest not kept is named in staleness_skipped and counted in
// a note of every staleness table, the staleness covers the kept pages
// only, and the merge of 3 shards writes the same files.
func TestLocalizedByteBudget(t *testing.T) {
	pages := shardPages() // 40 pages of 30–132 updates (624–1,440 bytes)
	r := model.NewRand(11, 11)
	for k, n := range []int{90000, 70000, 50000} {
		p := series.Page{ID: int64(5 + k), Title: "huge", Resolution: 1}
		ts := int64(1e9)
		for range n {
			p.Updates = append(p.Updates, ts)
			ts += 1 + int64(3600*r.ExpFloat64())
		}
		pages = append(pages, p)
	}
	dir := writeDataset(t, pages)
	const budget = 10_000 // giants above 1,250 bytes (108 updates): the huge pages and those of 115 and 132
	opt := Options{Dataset: dir, Reps: 19, MinUpdates: 40, Top: 3, MaxLag: 10, Seed: 4, Workers: 2,
		Localized: LocalizedOptions{Staleness: true, SelectMax: 40, SelectBytes: budget}}
	tmp := t.TempDir()
	full := opt
	full.Out = filepath.Join(tmp, "full")
	if _, err := Run(context.Background(), full); err != nil {
		t.Fatal(err)
	}
	wantKept, wantSkipped := naiveBusiest(pages, 40, budget)
	if len(wantKept) < 5 || len(wantSkipped) < 6 || !slices.Equal(wantSkipped[:3], []int64{5, 6, 7}) {
		t.Fatalf("kept %v, skipped %v: the case needs the huge pages skipped first, then others, and ordinary pages kept", wantKept, wantSkipped)
	}
	b, err := tables.Read(full.Out)
	if err != nil {
		t.Fatal(err)
	}
	var skippedRows [][]any
	var stalenessTables int
	for _, tb := range b.Tables {
		if tb.ID == "staleness_skipped" {
			skippedRows = tb.Rows
			continue
		}
		if !strings.HasPrefix(tb.ID, "staleness") {
			continue
		}
		stalenessTables++
		if !slices.ContainsFunc(tb.Notes, func(n string) bool {
			return strings.Contains(n, "of the 40 busiest pages") && strings.Contains(n, "staleness_skipped")
		}) {
			t.Errorf("table %s: no note of the skipped pages in %q", tb.ID, tb.Notes)
		}
		if !strings.Contains(tb.Source, fmt.Sprintf(" of %d pages", len(wantKept))) {
			t.Errorf("table %s: source %q does not count the %d kept pages", tb.ID, tb.Source, len(wantKept))
		}
	}
	if stalenessTables == 0 {
		t.Fatal("no staleness table")
	}
	var got []int64
	for _, row := range skippedRows {
		got = append(got, row[0].(int64))
	}
	if !slices.Equal(got, wantSkipped) {
		t.Fatalf("staleness_skipped lists %v, want %v", got, wantSkipped)
	}
	if why := skippedRows[0][4]; why != "a giant: above an eighth of the budget" {
		t.Errorf("the biggest page is skipped because %q", why)
	}
	if why := skippedRows[len(skippedRows)-1][4]; why != "the busier pages kept fill the budget" {
		t.Errorf("the last skipped page is skipped because %q", why)
	}

	want := stagetest.ReadTree(t, full.Out)
	var dirs []string
	for i := range 3 {
		o := opt
		o.Out = filepath.Join(tmp, "s", fmt.Sprint(i))
		if err := RunShard(context.Background(), o, shard.Spec{I: i, N: 3}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, o.Out)
	}
	out := filepath.Join(tmp, "merged")
	if _, err := MergeShards(context.Background(), dirs, out, nil, nil); err != nil {
		t.Fatal(err)
	}
	merged := stagetest.ReadTree(t, out)
	for name, b := range want {
		if !bytes.Equal(merged[name], b) {
			t.Errorf("merge of 3 shards: %s differs from the one-process analysis", name)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "csv", "staleness_skipped.csv")); err != nil {
		t.Errorf("no CSV of the skipped pages: %v", err)
	}
}

// A shard's bar carries into the merge: shard 0 keeps nine pages of 500
// updates and cuts the tenth busiest page for the budget; shard 1's one
// small page would fit after the nine, but the tenth ranks above it, so
// over all pages it is not kept (the naive rule on all pages says so).
func TestBusiestKeeperMergeBar(t *testing.T) {
	page := func(id int64, n int) series.Page { return series.Page{ID: id, Updates: make([]int64, n)} }
	var s0 []series.Page
	for i := range 9 {
		s0 = append(s0, page(int64(10+i), 500))
	}
	s0 = append(s0, page(99, 100))
	s1 := []series.Page{page(5, 1)}
	const n, budget = 20, 40000
	wantKept, wantSkipped := naiveBusiest(append(slices.Clone(s0), s1...), n, budget)
	if len(wantKept) != 9 || !slices.Contains(wantSkipped, 5) {
		t.Fatalf("kept %v, skipped %v: want the nine pages of 500 kept, page 5 skipped", wantKept, wantSkipped)
	}
	m := &busiestKeeper{n: n, budget: budget}
	for _, pages := range [][]series.Page{s1, s0} {
		k := &busiestKeeper{n: n, budget: budget}
		for i := range pages {
			k.Offer(&pages[i])
		}
		var p Partial
		k.fill(&p)
		m.offerPartial(&p)
	}
	var mp Partial
	m.fill(&mp)
	if got := ids(KeptPages(&mp)); !slices.Equal(got, wantKept) {
		t.Fatalf("merge kept %v, want %v", got, wantKept)
	}
	if got := rankIDs(Skipped(mp.KeepTop, KeptPages(&mp))); !slices.Equal(got, wantSkipped) {
		t.Fatalf("merge skipped %v, want %v", got, wantSkipped)
	}
}

// With LocalizedApart the NHPP and staleness tables and figures come back
// in Result.Localized, one bundle per analysis in the order they ran, and
// the analysis bundle written to Out holds none of them; together they
// are exactly what one bundle holds without it (the caller writes them).
func TestLocalizedApart(t *testing.T) {
	dir := writeDataset(t, shardPages())
	opt := Options{Dataset: dir, Reps: 19, MinUpdates: 40, Top: 3, MaxLag: 10, Seed: 4, Workers: 2,
		Localized: LocalizedOptions{NHPP: true, Staleness: true, SelectMax: 5}}
	tmp := t.TempDir()
	one := opt
	one.Out = filepath.Join(tmp, "one")
	whole, err := Run(context.Background(), one)
	if err != nil {
		t.Fatal(err)
	}
	apart := opt
	apart.Out, apart.LocalizedApart = filepath.Join(tmp, "apart"), true
	res, err := Run(context.Background(), apart)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Localized) != 0 {
		t.Fatalf("without LocalizedApart, Result.Localized has %d bundles", len(whole.Localized))
	}
	var kinds []string
	ids := func(b *tables.Bundle) (ts, fs []string) {
		for _, tb := range b.Tables {
			ts = append(ts, tb.ID)
		}
		for _, f := range b.Figures {
			fs = append(fs, f.ID)
		}
		return ts, fs
	}
	gotT, gotF := ids(res.Bundle)
	for _, lb := range res.Localized {
		kinds = append(kinds, lb.Kind)
		ts, fs := ids(lb.Bundle)
		if len(ts) == 0 {
			t.Errorf("%s: no table", lb.Kind)
		}
		for _, id := range ts {
			if !strings.HasPrefix(id, lb.Kind) {
				t.Errorf("%s bundle holds table %s", lb.Kind, id)
			}
		}
		gotT, gotF = append(gotT, ts...), append(gotF, fs...)
	}
	if !slices.Equal(kinds, []string{"nhpp", "staleness"}) {
		t.Fatalf("Result.Localized kinds %v, want nhpp then staleness", kinds)
	}
	analysisT, analysisF := ids(res.Bundle)
	for _, id := range append(analysisT, analysisF...) {
		if strings.HasPrefix(id, "nhpp") || strings.HasPrefix(id, "staleness") {
			t.Errorf("the analysis bundle keeps %s", id)
		}
	}
	wantT, wantF := ids(whole.Bundle)
	if !slices.Equal(gotT, wantT) || !slices.Equal(gotF, wantF) {
		t.Errorf("apart: tables %v figures %v; in one bundle: tables %v figures %v", gotT, gotF, wantT, wantF)
	}
	written, err := tables.Read(apart.Out)
	if err != nil {
		t.Fatal(err)
	}
	wt, _ := ids(written) // tables.Read orders them by section
	if slices.Sort(wt); !slices.Equal(wt, slices.Sorted(slices.Values(analysisT))) {
		t.Errorf("written analysis tables %v, want those of %v", wt, analysisT)
	}
}
