package analysis

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// TestHurstTooFewAndOutOfRange: below MinHurstLen intervals no estimator
// gives a number, and each says "too few" with the threshold; on white
// noise (500 unit exponentials, seed 6) the ACF power law on the positive
// lags gives H = 1.147 > 1, which is flagged (NaN, value kept in Raw)
// instead of reported, while DFA and local Whittle (0.34 ± 0.07 at this
// n) are reported.
func TestHurstTooFewAndOutOfRange(t *testing.T) {
	short := draw(model.Exponential{Rate: 1}, MinHurstLen-1, 1)
	for _, h := range Hurst(short, 100) {
		if !math.IsNaN(h.H) || h.Note != "too few (127 < 128 intervals)" {
			t.Errorf("%s on %d intervals: H %g, note %q; want NaN and too few (127 < 128 intervals)", h.Method, len(short), h.H, h.Note)
		}
	}
	noise := draw(model.Exponential{Rate: 1}, 500, 6)
	c := Check(PageStats{CoV: 1}, noise, ScreenOptions{Reps: 19, MinUpdates: 100}, model.NewRand(1, 1))
	acf := c.HurstOf(HurstACF)
	if !math.IsNaN(acf.H) || !math.IsNaN(acf.Lo) || math.Abs(acf.Raw-1.147) > 0.001 || !strings.Contains(acf.Note, "H = 1.15 outside [0, 1]") {
		t.Errorf("H(ACF) on white noise: %+v, want NaN with the raw 1.147 flagged", acf)
	}
	for _, m := range []string{HurstDFA, HurstLW} {
		if h := c.HurstOf(m); !(h.H >= 0 && h.H <= 1) || h.Note != "" {
			t.Errorf("%s on white noise: %+v, want a reported H in [0, 1] and no note", m, h)
		}
	}
	if !strings.Contains(c.Note, HurstACF+": H = 1.15 outside [0, 1]") {
		t.Errorf("candidate note %q does not flag H(ACF)", c.Note)
	}
	if e := estimate("x", -0.2, 0.1, 5); !math.IsNaN(e.H) || e.Raw != -0.2 || e.Note == "" {
		t.Errorf("H = −0.2: %+v, want flagged", e)
	}
	if e := estimate("x", 1, 0.1, 5); e.H != 1 || e.Note != "" {
		t.Errorf("H = 1: %+v, want reported (the boundary is valid)", e)
	}
}

// TestCheckKSTooFew: the KS test needs the screen's K updates (K − 1
// intervals): with K = 100 and 50 intervals there is no D and no p.
func TestCheckKSTooFew(t *testing.T) {
	u := draw(model.Exponential{Rate: 1}, 50, 3)
	c := Check(PageStats{CoV: 1}, u, ScreenOptions{Reps: 19, MinUpdates: 100}, model.NewRand(1, 1))
	if !math.IsNaN(c.KS) || !math.IsNaN(c.KSP) || !strings.Contains(c.Note, "KS: too few (50 < 99 intervals)") {
		t.Errorf("50 intervals, K = 100: KS %g p %g note %q", c.KS, c.KSP, c.Note)
	}
	c = Check(PageStats{CoV: 1}, u, ScreenOptions{Reps: 19, MinUpdates: 51}, model.NewRand(1, 1))
	if math.IsNaN(c.KSP) || strings.Contains(c.Note, "KS") {
		t.Errorf("50 intervals, K = 51: KS p %g note %q; want a p-value", c.KSP, c.Note)
	}
}

// TestAnalyzeTooFew runs the analysis on two short pages (top page 6
// updates = 5 intervals; the other 4) with a replay of the top page: the
// tail fits, the Hurst exponents and the recommendation's evidence say
// "too few" with their thresholds and hold no number, in the tables and in
// their CSV (empty cells); the notes state the variance convention.
func TestAnalyzeTooFew(t *testing.T) {
	mk := func(id int64, hours ...int64) series.Page {
		p := series.Page{ID: id, Title: "p", Resolution: 1}
		for _, h := range hours {
			p.Updates = append(p.Updates, 1e9+3600*h)
		}
		return p
	}
	pages := []series.Page{mk(1, 0, 1, 3, 4, 8, 9), mk(2, 0, 2, 3, 7, 8)}
	u := transform.Intervals(pages[0].Updates, transform.Hour)
	grid := stagetest.Grid(1, 10)
	truth := transform.AgeCDF(u, grid)
	rows := []EstimateRow{
		{PageID: 1, Sampler: "const:1", Constant: true, Method: "truth", Kind: "G", CDF: truth},
		{PageID: 1, Sampler: "const:1", Constant: true, Method: "M4", Kind: "G", CDF: truth},
	}
	out := filepath.Join(t.TempDir(), "out")
	res, err := Analyze(context.Background(), eachOf(pages), Options{Out: out, Unit: transform.Hour, Reps: 19, MinUpdates: 3, Replay: "hand",
		Estimates: func(string) ([]EstimateRow, string, error) { return rows, "hand-made rows", nil }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.TopFits) != 0 || len(res.Aggregate) != 0 || res.TopFitN != 5 || res.AggregateFitN != 9 {
		t.Errorf("fits on 5 and 9 intervals: top %d (n %d), aggregate %d (n %d); want none", len(res.TopFits), res.TopFitN, len(res.Aggregate), res.AggregateFitN)
	}
	if len(res.PageErrors) != 1 || len(res.Evidence) != 0 {
		t.Errorf("page errors %d, evidence %d; want 1 and none (5 < %d intervals)", len(res.PageErrors), len(res.Evidence), MinEvidenceIntervals)
	}
	b, err := tables.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]tables.Table{}
	for _, tb := range b.Tables {
		byID[tb.ID] = tb
	}
	fits := byID["tail_fits_top"]
	if len(fits.Rows) != 4 {
		t.Fatalf("tail_fits_top: %d rows, want one per family", len(fits.Rows))
	}
	for _, r := range fits.Rows {
		if r[1] != "too few (5 < 10 intervals)" || !math.IsNaN(r[2].(float64)) || !math.IsNaN(r[5].(float64)) {
			t.Errorf("tail_fits_top row %v: want too few and no number", r)
		}
	}
	if r := byID["tail_fits_aggregate"].Rows; len(r) != 4 || r[0][1] != "too few (9 < 10 intervals)" {
		t.Errorf("tail_fits_aggregate rows %v", r)
	}
	for _, r := range byID["hurst_closest"].Rows {
		if !math.IsNaN(r[3].(float64)) || !strings.HasPrefix(r[8].(string), "too few (") || !strings.HasSuffix(r[8].(string), " < 128 intervals)") {
			t.Errorf("hurst_closest row %v: want no H and too few (… < 128 intervals)", r)
		}
	}
	rec := byID["recommendation"]
	if len(rec.Rows) == 0 {
		t.Fatal("no recommendation rows")
	}
	for _, r := range rec.Rows {
		if r[0] == "constant S, new measurement" && (r[5] != "too few (every replayed page < 99 intervals)" || !math.IsNaN(r[3].(float64))) {
			t.Errorf("recommendation row %v: want too few and no number", r)
		}
	}
	if !strings.Contains(strings.Join(byID["top_pages"].Notes, " "), "divisor n_U − 1") {
		t.Errorf("top_pages notes %q do not state the variance convention", byID["top_pages"].Notes)
	}
	// The machine-readable copy: numeric cells empty, the note in its own column.
	f, err := os.Open(filepath.Join(out, "csv", "tail_fits_top.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) != 5 {
		t.Fatalf("tail_fits_top.csv: %d records, %v", len(recs), err)
	}
	if r := recs[1]; r[1] != "too few (5 < 10 intervals)" || r[2] != "" || r[3] != "" || r[5] != "" || r[6] != "5" {
		t.Errorf("tail_fits_top.csv row %q: want the note, empty numbers and n = 5", r)
	}
}
