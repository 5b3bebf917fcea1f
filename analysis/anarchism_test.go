package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/replay"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// anarchismPage is the real Anarchism history (enwiki, 15,180 revisions
// 2001–2010, SOURCES.md) from the derived revision list of
// large.xml.lzma, normalized as ingest does: one same-second pair
// collapses, 15,179 updates.
func anarchismPage(t *testing.T) series.Page {
	t.Helper()
	rev := realdata.Path(t, "wikipedia/_derived/revision_timestamps.csv")
	var g grouper
	readCSV(t, rev, func(line int, r map[string]string) {
		if strings.HasSuffix(r["file"], "/large.xml.lzma") {
			g.add(r["page_id"], r["title"], parseTime(t, rev, line, r["timestamp"]))
		}
	})
	ps := g.pages()
	if len(ps) != 1 || ps[0].Title != "Anarchism" || len(ps[0].Updates) != 15179 || ps[0].Collapsed != 1 {
		t.Fatalf("large.xml.lzma: %d pages, want Anarchism alone with 15,179 updates (1 collapsed)", len(ps))
	}
	return ps[0]
}

// TestAnarchismMethodErrors replays the real Anarchism history with a
// constant crawler at λ = 2/h (Δ = 0.5 h; h = 0.05 h, x_max = 1000 h:
// revisit run's defaults) and checks the error table of SPEC §4.2's
// protocol (step estimates interpolated, exact G_U on the fine grid)
// against quantities computed here from the intervals alone.
//
// Measured (seed 1): κ M2 0.020 %, M4 1.198 %, M5 1.194 %, M6 0.543 %.
// Two effects, each computed independently below:
//   - the interpolation error of G_U itself, max |chord − G_U| on the fine
//     grid = 0.543 % (at x = 0.15 h, where G_U bends most): M6's whole κ,
//     and a floor for every interpolated step estimate;
//   - the first inter-update interval, U_1 = 1,145 h (1.6 % of the
//     lifetime): comparison sampling cannot see it (no age is known before
//     the first detection), so M4 and M5 estimate G_U without U_1, which
//     is max 1.193 % (at x ≈ 110 h) away from G_U. M6 counts pairs inside
//     the first cycle and does not suffer.
//
// So "M4 = M5 = M6 within 0.3 pp" holds on [0, 2E[U]] (≈ 9.6 h), where
// the interpolation error dominates, and on [0, 1000 h] only for M4 and
// M5: M6 is 0.65 pp better there. M2 (the ages, compared at the grid
// points) is best on any range.
func TestAnarchismMethodErrors(t *testing.T) {
	p := anarchismPage(t)
	u := transform.Intervals(p.Updates, transform.Hour)
	const delta, xmax = 0.5, 1000.0
	s, err := replay.ParseSampler("const:0.5")
	if err != nil {
		t.Fatal(err)
	}
	est, err := replay.ReplayTimes(transform.Times(p.Updates, transform.Hour), s, model.NewRand(1, 0xa11), replay.Config{H: 0.05, XMax: xmax})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]EstimateRow, len(est))
	for i, e := range est {
		rows[i] = EstimateRow{PageID: p.ID, Title: p.Title, Sampler: e.Sampler, Method: e.Method, Kind: e.Kind, CDF: e.CDF, Rate: e.Rate, Note: e.Note}
	}
	ks := func(xmax float64, intervals map[int64][]float64) map[string]float64 {
		pe, err := PageErrors(rows, xmax, DefaultExtra, intervals)
		if err != nil {
			t.Fatal(err)
		}
		k := map[string]float64{}
		for _, e := range pe {
			if e.Kind == "G" {
				k[e.Method] = e.KS
			}
		}
		return k
	}
	exact := map[int64][]float64{p.ID: u}
	k := ks(xmax, exact)
	grid := ks(xmax, nil) // the truth known on the grid only: no interpolation
	t.Logf("κ on [0, %g h]: M2 %.5f M4 %.5f M5 %.5f M6 %.5f (grid points only: M4 %.5f M5 %.5f M6 %.5f)",
		xmax, k["M2"], k["M4"], k["M5"], k["M6"], grid["M4"], grid["M5"], grid["M6"])

	// Independent references from the intervals alone.
	gGrid := transform.AgeCDF(u, series.Grid(delta, xmax))
	fine := series.Grid(delta/float64(DefaultExtra+1), xmax)
	gFine := transform.AgeCDF(u, fine).P
	kInterp := 0.0
	for i, x := range fine {
		kInterp = math.Max(kInterp, math.Abs(gGrid.Linear(x)-gFine[i]))
	}
	withoutFirst := transform.AgeCDF(u[1:], gGrid.X).P
	kFirst := 0.0
	for i := range gGrid.X {
		kFirst = math.Max(kFirst, math.Abs(withoutFirst[i]-gGrid.P[i]))
	}
	t.Logf("interpolation error of G_U %.5f; G_U without U_1 = %.0f h: %.5f", kInterp, u[0], kFirst)

	const pp = 0.01 // a percentage point of κ
	for _, m := range []string{"M1", "M3", "M4", "M5", "M6", "G-M4", "naive", "cho", "matloff", "age-mle"} {
		if !(k["M2"] < k[m]) {
			t.Errorf("M2 (κ %.5f) not better than %s (κ %.5f)", k["M2"], m, k[m])
		}
	}
	if math.Abs(k["M6"]-kInterp) > 0.05*pp {
		t.Errorf("M6 κ %.5f, want the interpolation error of G_U %.5f ± 0.05 pp", k["M6"], kInterp)
	}
	if grid["M6"] > 0.1*pp || k["M6"] < grid["M6"]+0.3*pp {
		t.Errorf("M6: κ %.5f interpolated, %.5f at the grid points: the interpolation error must count", k["M6"], grid["M6"])
	}
	if math.Abs(k["M4"]-k["M5"]) > 0.3*pp {
		t.Errorf("M4 κ %.5f, M5 κ %.5f: more than 0.3 pp apart", k["M4"], k["M5"])
	}
	for _, m := range []string{"M4", "M5"} {
		if math.Abs(k[m]-kFirst) > 0.1*pp {
			t.Errorf("%s κ %.5f, want G_U without the unobserved first interval, %.5f ± 0.1 pp", m, k[m], kFirst)
		}
	}
	// Where the interpolation error dominates, the three agree.
	mean := transform.MeanInterval(u)
	near := ks(2*mean, exact)
	t.Logf("κ on [0, 2E[U] = %.2f h]: M2 %.5f M4 %.5f M5 %.5f M6 %.5f", 2*mean, near["M2"], near["M4"], near["M5"], near["M6"])
	for _, a := range []string{"M4", "M5", "M6"} {
		if !(near["M2"] < near[a]) {
			t.Errorf("[0, 2E[U]]: M2 (κ %.5f) not better than %s (κ %.5f)", near["M2"], a, near[a])
		}
		for _, b := range []string{"M4", "M5", "M6"} {
			if math.Abs(near[a]-near[b]) > 0.3*pp {
				t.Errorf("[0, 2E[U]]: %s κ %.5f and %s κ %.5f more than 0.3 pp apart", a, near[a], b, near[b])
			}
		}
	}
}
