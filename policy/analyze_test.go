package policy

import (
	"context"
	"fmt"
	"testing"

	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/policy/traces"
	"github.com/revisit-dev/revisit/series"
)

// Run produces the policy table (one row per policy), the greedy sweep
// with its figure, the budget sweep and the site table, all in section 7,
// and writes them.
func TestRunBundle(t *testing.T) {
	pages := genCorpus(20, 30, 6, 1000, uniform(20), 4)
	b, err := Run(context.Background(), pages, Options{Cycle: 1000, Budget: 60, Seed: 1, Dataset: "generated"})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]tables.Table{}
	for _, tb := range b.Tables {
		ids[tb.ID] = tb
		if tb.Section != 7 || tb.Source == "" {
			t.Errorf("%s: section %d, source %q", tb.ID, tb.Section, tb.Source)
		}
	}
	for _, id := range []string{"policy_change_ratio", "policy_greedy_sample", "policy_budget", "policy_sites"} {
		if _, ok := ids[id]; !ok {
			t.Errorf("table %s missing", id)
		}
	}
	if n := len(ids["policy_change_ratio"].Rows); n != len(Names) {
		t.Errorf("%d policy rows, want %d", n, len(Names))
	}
	// Budget sweep R/8 … 4R of 60 → 8, 15, 30, 60, 120, 240.
	if n := len(ids["policy_budget"].Rows); n != 6 {
		t.Errorf("%d budget rows, want 6", n)
	}
	if len(b.Figures) != 2 {
		t.Errorf("%d figures, want 2", len(b.Figures))
	}
	if err := b.Write(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), pages, Options{Cycle: 1000, Budget: 60, Grouping: "bogus"}); err == nil {
		t.Error("unknown grouping accepted")
	}
	if _, err := Run(context.Background(), pages, Options{Cycle: 1000, Budget: 60, Policies: []string{"lottery"}}); err == nil {
		t.Error("unknown policy accepted")
	}
}

// TestRealTraces replays the policies on real traces and logs their
// ChangeRatio (go test -v -run RealTraces): the help-scraper repository's
// 17,615 files grouped by top directory with a weekly cycle, the 1,000
// Kevinisagirl enwiki articles in 20 hash sites with a 30-day cycle, and
// the 118 COVID-19 editions in 8 hash sites with a daily cycle.
func TestRealTraces(t *testing.T) {
	for _, s := range []struct {
		name, path string
		read       func(string) ([]series.Page, error)
		opt        Options
	}{
		{"help-scraper by top directory, 7d", traces.HelpScraper, traces.GitFiles, Options{Cycle: 7 * units.Day, Budget: 200}},
		{"Kevinisagirl enwiki, hash:20, 30d", traces.Kevinisagirl, traces.Kevin, Options{Cycle: 30 * units.Day, Budget: 50, Grouping: "hash:20"}},
		{"COVID-19 editions, hash:8, 1d", traces.CovidEditions, traces.Covid, Options{Cycle: units.Day, Budget: 10, Grouping: "hash:8"}},
	} {
		if testing.Short() && s.path != traces.CovidEditions {
			continue
		}
		pages, err := s.read(realdata.Path(t, s.path))
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewCorpus(pages, s.opt.Grouping, s.opt.Cycle, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		s.opt.Seed = 1
		res, err := Results(context.Background(), c, s.opt)
		if err != nil {
			t.Fatal(err)
		}
		msg := ""
		var oracle float64
		for _, r := range res {
			if r.Policy == "oracle" {
				oracle = r.Mean()
			} else if r.Mean() > oracle+1e-12 {
				t.Errorf("%s: %s %.4f above the oracle %.4f", s.name, r.Policy, r.Mean(), oracle)
			}
			msg += " " + r.Policy + " " + pct(r.Mean()) + "±" + pct(r.SD()) + ";"
		}
		sizes := defaultSizes(c, s.opt.Budget)
		mean, _, err := GreedySweep(context.Background(), c, s.opt, sizes)
		if err != nil {
			t.Fatal(err)
		}
		best := 0
		for i := range mean {
			if mean[i] > mean[best] {
				best = i
			}
		}
		t.Logf("%s: %d pages, %d sites, %d cycles, R=%d:%s greedy best s=%d (%s) vs √(N r)=%.2f",
			s.name, len(pages), len(c.Sites), c.N, s.opt.Budget, msg, sizes[best], pct(mean[best]), OptimalSample(c, s.opt.Budget))
	}
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// Greedy's best s is named only when it stands out by more than two
// standard errors of the difference (here SE = √(0.05² + 0.05²)/√100 =
// 0.00707, so 2 SE = 0.0141): 0.86 against 0.855 is not, 0.86 against
// 0.84 is.
func TestBestSampleDistinguishable(t *testing.T) {
	sizes := []int{1, 3, 10}
	sd := []float64{0.05, 0.05, 0.05}
	if got, want := bestSample(sizes, []float64{0.855, 0.86, 0.80}, sd, 100), "No s stands out: mean ChangeRatio 80.0–86.0% over s = 1…10; the highest, s = 3's 86.0%, is within two standard errors (SD/√100 cycles) of s = 1's 85.5%"; got != want {
		t.Errorf("close:\n got %q\nwant %q", got, want)
	}
	if got, want := bestSample(sizes, []float64{0.84, 0.86, 0.80}, sd, 100), "Best s = 3 (ChangeRatio 86.0%, more than two standard errors (SD/√100 cycles) above every other s)"; got != want {
		t.Errorf("apart:\n got %q\nwant %q", got, want)
	}
}

// One configuration, one answer: a policy replayed with the same budget R
// and the same parameters (s, k, α, ρ_t) is the same replay wherever a
// table shows it, so policy_change_ratio, the budget sweep at R and the
// greedy sweep at its s = round(√(N r)) give the same ChangeRatio, for
// every policy whose choices are random (greedy, proportional, subset,
// adaptive, and the oracle when more pages changed than R).
func TestSameConfigurationSameNumber(t *testing.T) {
	pages := genCorpus(20, 30, 12, 1000, uniform(20), 4)
	const budget = 60
	b, err := Run(context.Background(), pages, Options{Cycle: 1000, Budget: budget, Seed: 1, Dataset: "generated"})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]tables.Table{}
	for _, tb := range b.Tables {
		ids[tb.ID] = tb
	}
	ratio, bt, gt := ids["policy_change_ratio"], ids["policy_budget"], ids["policy_greedy_sample"]
	var atR []any
	for _, r := range bt.Rows {
		if r[0] == tables.I(budget) {
			atR = r
		}
	}
	if atR == nil {
		t.Fatalf("policy_budget has no row at R = %d", budget)
	}
	c, err := NewCorpus(pages, "", 1000, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := Options{Budget: budget}.params(c).SampleSize
	for _, r := range ratio.Rows {
		name, mean := r[0].(string), r[1].(float64)
		j := -1
		for k, col := range bt.Columns {
			if col.Name == name {
				j = k
			}
		}
		if j < 0 {
			t.Fatalf("policy_budget has no column %s", name)
		}
		if got := atR[j].(float64); got != mean {
			t.Errorf("%s at R = %d: policy_change_ratio %.6f, policy_budget %.6f", name, budget, mean, got)
		}
		if name != "greedy" {
			continue
		}
		found := false
		for _, g := range gt.Rows {
			if g[0] == tables.I(s) {
				found = true
				if got := g[1].(float64); got != mean {
					t.Errorf("greedy at s = %d: policy_change_ratio %.6f, policy_greedy_sample %.6f", s, mean, got)
				}
			}
		}
		if !found {
			t.Errorf("policy_greedy_sample has no row at s = %d", s)
		}
	}
}
