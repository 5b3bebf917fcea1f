package analysis

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// synthPages makes pages whose truth is known: page 1 Poisson (v = 1),
// page 2 Pareto α = 2.5 (v = √(α/(α−2)) = √5 ≈ 2.24), page 3 Weibull
// k = 0.5 (v = √5 ≈ 2.24), page 4 tiny.
func synthPages() []series.Page {
	r := model.NewRand(5, 5)
	mk := func(id int64, d model.Dist, n int) series.Page {
		raw := series.RawPage{ID: id, Title: d.String(), Resolution: 1, Source: "generated"}
		t := 1e9
		for i := 0; i < n; i++ {
			raw.Revisions = append(raw.Revisions, int64(t))
			t += 3600*d.Rand(r) + 1
		}
		return raw.Normalize()
	}
	return []series.Page{
		mk(1, model.Exponential{Rate: 1}, 3000),
		mk(2, model.Pareto{Alpha: 2.5, Beta: 1.5}, 3000),
		mk(3, model.Weibull{K: 0.5, Scale: 1}, 2000),
		mk(4, model.Exponential{Rate: 1}, 5),
	}
}

// writeDataset writes pages, in order, as a dataset in a fresh temporary
// directory and returns its path.
func writeDataset(t testing.TB, pages []series.Page) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := dataset.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pages {
		if err := w.Write(&pages[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRunDataset writes a dataset, runs the analysis on it with a replay
// reader that returns hand-made rows, and checks what lands in OUT.
func TestRunDataset(t *testing.T) {
	pages := synthPages()
	dir := writeDataset(t, pages)
	grid := stagetest.Grid(1, 10)
	truth := transform.AgeCDF(transform.Intervals(pages[0].Updates, 3600), grid)
	rows := []EstimateRow{
		{PageID: 1, Sampler: "const:1", Constant: true, Method: "truth", Kind: "G", CDF: truth},
		{PageID: 1, Sampler: "const:1", Constant: true, Method: "M4", Kind: "G", CDF: truth},
		{PageID: 1, Sampler: "const:1", Constant: true, Method: "M3", Kind: "G", CDF: series.CDF{X: grid, P: make([]float64, len(grid))}},
	}
	out := filepath.Join(t.TempDir(), "out")
	res, err := Run(context.Background(), Options{Dataset: dir, Out: out, Replay: "fake", Reps: 99, MinUpdates: 100,
		Estimates: func(string) ([]EstimateRow, string, error) { return rows, "hand-made rows", nil }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pages != 4 || res.Screened != 3 || res.UnitName != "h" {
		t.Errorf("pages %d screened %d unit %s; want 4, 3, h", res.Pages, res.Screened, res.UnitName)
	}
	// The Poisson page (v ≈ 1 ± 0.03 at n = 3,000) is the only one in the band and passes KS.
	if res.InBand != 1 || res.Candidates[0].PageID != 1 || res.Candidates[0].KSP < 0.01 {
		t.Errorf("candidates %+v", res.Candidates)
	}
	if res.Closest[0].PageID != 1 {
		t.Errorf("closest page %d, want 1", res.Closest[0].PageID)
	}
	// M4 equals the truth at the grid points, so its error is the
	// interpolation error of G_U itself: the chord through the grid values
	// against the exact G_U on the fine grid x = 0, 0.1, …, 10 (SPEC
	// §4.2, 9 extra points per step). M3 ≡ 0 against G: w = Σ G / Σ G/2 = 2.
	fine := stagetest.Grid(0.1, 10)
	exact := transform.AgeCDF(transform.Intervals(pages[0].Updates, 3600), fine).P
	chord := make([]float64, len(fine))
	for i, x := range fine {
		chord[i] = truth.Linear(x)
	}
	wantM4 := series.WMRD(chord, exact)
	if !(wantM4 > 1e-3) {
		t.Fatalf("reference interpolation error %g: G_U should bend between grid points", wantM4)
	}
	for _, e := range res.PageErrors {
		if (e.Method == "M4" && abs(e.WMRD-wantM4) > 1e-9) || (e.Method == "M3" && abs(e.WMRD-2) > 1e-12) {
			t.Errorf("%s: w = %g (M4 want %g)", e.Method, e.WMRD, wantM4)
		}
	}
	b, err := tables.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, tb := range b.Tables {
		ids[tb.ID] = true
	}
	for _, f := range b.Figures {
		ids[f.ID] = true
	}
	for _, id := range []string{"top_pages", "tail_fits_aggregate", "tail_fits_top", "poisson_screen", "screen_candidates", "hurst_closest", "method_errors", "recommendation", "cov_histogram", "acf_closest", "tail_aggregate", "top_g_m3_m4"} {
		if !ids[id] {
			t.Errorf("bundle lacks %s", id)
		}
	}
	// page_stats.parquet has one row per page; the CSV a header plus 4 rows.
	pf, err := file.OpenParquetFile(filepath.Join(out, "page_stats.parquet"), false)
	if err != nil {
		t.Fatal(err)
	}
	if pf.NumRows() != 4 {
		t.Errorf("page_stats.parquet has %d rows", pf.NumRows())
	}
	pf.Close()
	f, _ := os.Open(filepath.Join(out, "page_stats.csv"))
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) != 5 {
		t.Errorf("page_stats.csv: %d records, %v", len(recs), err)
	}
	for _, name := range []string{"page_errors.parquet", "page_errors.csv", "csv/method_errors.csv", "csv/screen_candidates.parquet"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("missing %s", name)
		}
	}
	// Same seed, same output.
	res2, _ := Run(context.Background(), Options{Dataset: dir, Out: t.TempDir(), Reps: 99})
	if res2.Candidates[0].KSP != res.Candidates[0].KSP {
		t.Errorf("same seed, different p-value: %g vs %g", res2.Candidates[0].KSP, res.Candidates[0].KSP)
	}
	if _, err := Run(context.Background(), Options{Dataset: filepath.Join(dir, "nope"), Out: out}); err == nil {
		t.Error("missing dataset: no error")
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
