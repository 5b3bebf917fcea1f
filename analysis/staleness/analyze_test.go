package staleness

import (
	"context"
	"math"
	"sort"
	"testing"

	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/policy/traces"
	"github.com/revisit-dev/revisit/series"
)

func genPage(id int64, d model.Dist, n int, seed uint64) series.Page {
	rng := model.NewRand(seed, uint64(id))
	p := series.Page{ID: id, Title: d.String(), Resolution: 1}
	t := 1_000_000_000.0
	for i := 0; i < n; i++ {
		p.Updates = append(p.Updates, int64(t))
		t += 3600 * d.Rand(rng)
		if int64(t) <= p.Updates[len(p.Updates)-1] {
			t = float64(p.Updates[len(p.Updates)-1] + 1)
		}
	}
	return p
}

// Analyze on a Poisson page and a Pareto page: the table rows carry the
// values Pages computes, the Pareto page's ratio is below 1 (see
// TestParetoDirection) and the exponential page's is near 1.
func TestAnalyzeBundle(t *testing.T) {
	pages := []series.Page{
		genPage(1, model.Exponential{Rate: 1}, 5000, 1),
		genPage(2, model.Pareto{Alpha: 2.5, Beta: 1.5}, 5000, 1),
		{ID: 3, Title: "short", Updates: []int64{1, 2, 3}},
	}
	b, err := Analyze(context.Background(), pages, 3600, Options{Seed: 1, Dataset: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Tables) != 2 || len(b.Figures) != 2 {
		t.Fatalf("got %d tables, %d figures", len(b.Tables), len(b.Figures))
	}
	var pt tables.Table
	for _, tb := range b.Tables {
		if tb.Section != 7 {
			t.Errorf("table %s in section %d", tb.ID, tb.Section)
		}
		if tb.ID == "staleness_pages" {
			pt = tb
		}
	}
	if len(pt.Rows) != 2 {
		t.Fatalf("per-page rows = %d, want 2 (the 3-update page is below MinUpdates)", len(pt.Rows))
	}
	for _, r := range pt.Rows {
		ratio := r[7].(float64)
		switch r[0] {
		case "exp:1":
			if math.Abs(ratio-1) > 0.05 {
				t.Errorf("exponential page ratio %.3f, want ≈ 1", ratio)
			}
		case "pareto:2.5,1.5":
			if !(ratio < 0.95) {
				t.Errorf("Pareto page ratio %.3f, want < 1", ratio)
			}
		}
	}
	if err := b.Write(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// TestRealTraces runs the analysis on the real traces and logs the summary
// (go test -v -run RealTraces): the figures quoted in the project notes.
func TestRealTraces(t *testing.T) {
	type src struct {
		name string
		path string
		read func(string) ([]series.Page, error)
		unit float64
	}
	for _, s := range []src{
		{"wikipedia revision_timestamps", traces.RevisionTimestamps, traces.Revisions, 3600},
		{"COVID-19 editions", traces.CovidEditions, traces.Covid, 3600},
		{"Kevinisagirl 1000 articles", traces.Kevinisagirl, traces.Kevin, 3600},
		{"help-scraper files", traces.HelpScraper, traces.GitFiles, 3600},
		{"ca-fires files", traces.CAFires, traces.GitFiles, 3600},
	} {
		if testing.Short() && s.path == traces.Kevinisagirl {
			continue
		}
		pages, err := s.read(realdata.Path(t, s.path))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Pages(context.Background(), pages, s.unit, Options{MinUpdates: 10, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res) == 0 {
			t.Fatalf("%s: no page with ≥ 10 updates", s.name)
		}
		var r, d []float64
		below := 0
		for _, x := range res {
			if math.IsNaN(x.Ratio()) || x.Exact < 0 || x.Exact > 1 {
				t.Errorf("%s %q: staleness %g, ratio %g", s.name, x.Page.Title, x.Exact, x.Ratio())
			}
			r = append(r, x.Ratio())
			d = append(d, x.DeltaRatio())
			if x.Ratio() < 1 {
				below++
			}
		}
		sort.Float64s(r)
		sort.Float64s(d)
		t.Logf("%s: %d pages ≥10 updates; at Δ = E[U]: S_exact/S_Poisson median %.3f (10%% %.3f, 90%% %.3f), below 1 on %d; Δ_0.1 exact/Poisson median %.2f (10%% %.2f, 90%% %.2f)",
			s.name, len(res), quantile(r, 0.5), quantile(r, 0.1), quantile(r, 0.9), below, quantile(d, 0.5), quantile(d, 0.1), quantile(d, 0.9))
	}
}

// TestPhaseByPage: a page's seeded phase (and so its "S at phase") does
// not depend on which other pages are analysed with it or in what order:
// the same page alone and behind another page gets the same phase, the
// one model.NewRand(seed, page id) draws first.
func TestPhaseByPage(t *testing.T) {
	a := genPage(7, model.Exponential{Rate: 1}, 300, 3)
	b := genPage(8, model.Pareto{Alpha: 2.5, Beta: 1.5}, 300, 3)
	alone, err := Pages(context.Background(), []series.Page{a}, 3600, Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	pair, err := Pages(context.Background(), []series.Page{b, a}, 3600, Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if alone[0].PhaseVal != pair[1].PhaseVal || alone[0].Phase != pair[1].Phase {
		t.Errorf("page 7: phase %g (S %g) alone, %g (S %g) behind page 8", alone[0].PhaseVal, alone[0].Phase, pair[1].PhaseVal, pair[1].Phase)
	}
	if want := model.NewRand(5, 7).Float64() * alone[0].Delta; alone[0].PhaseVal != want {
		t.Errorf("page 7: phase %g, want %g", alone[0].PhaseVal, want)
	}
}
