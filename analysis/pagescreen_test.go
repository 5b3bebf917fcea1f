package analysis

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/revisit-dev/revisit/internal/pq"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// screenPages: a Poisson page (in the band), heavy-tailed and bursty
// screened pages of several sizes, a screened page with fewer intervals
// than the Hurst estimators need, and pages below K = 100 updates.
func screenPages() []series.Page {
	r := model.NewRand(8, 8)
	mk := func(id int64, d model.Dist, n int) series.Page {
		raw := series.RawPage{ID: id, Title: d.String(), Resolution: 1, Source: "generated"}
		ts := 1e9
		for range n {
			raw.Revisions = append(raw.Revisions, int64(ts))
			ts += 3600*d.Rand(r) + 1
		}
		return raw.Normalize()
	}
	pages := []series.Page{
		mk(1, model.Exponential{Rate: 1}, 2000),
		mk(2, model.Pareto{Alpha: 2.5, Beta: 1.5}, 400),
		mk(3, model.Weibull{K: 0.5, Scale: 1}, 300),
		mk(4, model.Exponential{Rate: 1}, 120), // screened, 119 < 128 intervals: no H
		mk(5, model.Exponential{Rate: 1}, 50),  // not screened
	}
	for k := range 24 {
		var d model.Dist = model.Weibull{K: 0.4 + 0.05*float64(k%6), Scale: 1}
		if k%3 == 0 {
			d = model.Pareto{Alpha: 1.5 + 0.2*float64(k%5), Beta: 1}
		}
		pages = append(pages, mk(int64(100+k), d, 150+37*k))
	}
	// Every page above is renewal (no long memory); one whose exponential
	// intervals follow fractional Gaussian noise of H = 0.9 has it.
	z, err := model.FGN(3000, 0.9, r)
	if err != nil {
		panic(err)
	}
	raw := series.RawPage{ID: 200, Title: "lrd:0.9,(exp:1)", Resolution: 1, Source: "generated"}
	ts := 1e9
	for _, x := range z {
		raw.Revisions = append(raw.Revisions, int64(ts))
		ts += 3600*model.Quantile(model.Exponential{Rate: 1}, distuv.UnitNormal.CDF(x)) + 1
	}
	return append(pages, raw.Normalize())
}

// readPageStats reads page_stats.parquet into one map per row: int64 for
// integer and time columns, float64 (NaN for null) for float columns,
// string for string columns.
func readPageStats(t *testing.T, name string) []map[string]any {
	t.Helper()
	var rows []map[string]any
	err := pq.EachRecord(name, 1<<12, func(rec arrow.RecordBatch) error {
		for i := 0; i < int(rec.NumRows()); i++ {
			row := map[string]any{}
			for j, f := range rec.Schema().Fields() {
				switch a := rec.Column(j).(type) {
				case *array.Float64:
					row[f.Name] = math.NaN()
					if !a.IsNull(i) {
						row[f.Name] = a.Value(i)
					}
				case *array.Int64:
					row[f.Name] = a.Value(i)
				case *array.String:
					row[f.Name] = a.Value(i)
				case *array.Timestamp:
					row[f.Name] = int64(a.Value(i))
				default:
					t.Fatalf("column %s: unexpected type %s", f.Name, a.DataType())
				}
			}
			rows = append(rows, row)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// naiveRho is ρ(k) by the textbook double sum (divisor Σ(x − x̄)² at every
// lag).
func naiveRho(x []float64, k int) float64 {
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	num, den := 0.0, 0.0
	for i, v := range x {
		den += (v - m) * (v - m)
		if i+k < len(x) {
			num += (v - m) * (x[i+k] - m)
		}
	}
	return num / den
}

// chi2Survival20 is P(χ²₂₀ > q) in closed form: for an even number of
// degrees of freedom 2m, e^{−q/2} Σ_{k<m} (q/2)^k / k!.
func chi2Survival20(q float64) float64 {
	s, term := 0.0, 1.0
	for k := range 10 {
		if k > 0 {
			term *= q / 2 / float64(k)
		}
		s += term
	}
	return math.Exp(-q/2) * s
}

func near(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

// TestPageStatsScreen: page_stats holds every screened page's KS, ρ(1),
// Ljung–Box and DFA-1 / local Whittle H with 95 % intervals, re-computed
// here from each page's intervals: KS by a fresh LillieforsNull's Test
// (validated against direct simulation in screen_test.go), ρ(1) and Ljung–Box Q by the textbook sums, the Ljung–Box p
// by the closed-form χ²₂₀ survival, H by calling DFA and LocalWhittle.
// Unscreened pages have null cells; a screened page under 128 intervals
// has a KS but no H, and says why. The hurst_screened quartiles equal
// type-7 quantiles of the sorted h columns, and its counts a naive count.
func TestPageStatsScreen(t *testing.T) {
	pages := screenPages()
	dir := writeDataset(t, pages)
	out := filepath.Join(t.TempDir(), "out")
	const seed, reps = 7, 49
	res, err := Run(context.Background(), Options{Dataset: dir, Out: out, Reps: reps, Seed: seed, MinUpdates: 100, Unit: transform.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if res.Screened != len(pages)-1 || res.InBand < 1 || res.Candidates[0].PageID != 1 {
		t.Fatalf("screened %d, in band %d: want %d screened and page 1 in the band", res.Screened, res.InBand, len(pages)-1)
	}
	rows := readPageStats(t, filepath.Join(out, "page_stats.parquet"))
	if len(rows) != len(pages) {
		t.Fatalf("%d rows, want %d", len(rows), len(pages))
	}
	checked := 0
	for i, pg := range pages {
		row := rows[i]
		if row["page_id"].(int64) != pg.ID {
			t.Fatalf("row %d is page %d, want %d", i, row["page_id"], pg.ID)
		}
		u := transform.Intervals(pg.Updates, transform.Hour)
		f := func(c string) float64 { return row[c].(float64) }
		if len(pg.Updates) < 100 {
			for _, c := range []string{"ks_d", "ks_p", "rho1", "ljung_box_q", "ljung_box_p", "h_dfa", "h_dfa_lo", "h_lw", "h_lw_hi"} {
				if !math.IsNaN(f(c)) {
					t.Errorf("page %d (not screened): %s = %g, want null", pg.ID, c, f(c))
				}
			}
			continue
		}
		checked++
		d, p := NewLillieforsNull(seed, reps).Test(u)
		if f("ks_d") != d || f("ks_p") != p {
			t.Errorf("page %d: KS D %g p %g, LillieforsNull.Test %g %g", pg.ID, f("ks_d"), f("ks_p"), d, p)
		}
		q := 0.0
		n := float64(len(u))
		for k := 1; k <= 20; k++ {
			r := naiveRho(u, k)
			q += r * r / (n - float64(k))
		}
		q *= n * (n + 2)
		if !near(f("rho1"), naiveRho(u, 1), 1e-10) || !near(f("ljung_box_q"), q, 1e-9) || !near(f("ljung_box_p"), chi2Survival20(q), 1e-9) {
			t.Errorf("page %d: ρ(1) %g Q %g p %g; naive %g %g %g", pg.ID, f("rho1"), f("ljung_box_q"), f("ljung_box_p"), naiveRho(u, 1), q, chi2Survival20(q))
		}
		if len(u) < MinHurstLen {
			if !math.IsNaN(f("h_dfa")) || !math.IsNaN(f("h_lw")) || !strings.Contains(row["screen_note"].(string), "H: too few (119 < 128 intervals)") {
				t.Errorf("page %d (%d intervals): H %g %g note %q; want none, too few", pg.ID, len(u), f("h_dfa"), f("h_lw"), row["screen_note"])
			}
			continue
		}
		for _, h := range []struct {
			col string
			e   HurstEstimate
		}{{"h_dfa", DFA(u)}, {"h_lw", LocalWhittle(u)}} {
			if !(h.e.H >= 0 && h.e.H <= 1) {
				t.Fatalf("page %d: %s = %g outside [0, 1]; choose other pages", pg.ID, h.col, h.e.H)
			}
			if f(h.col) != h.e.H || f(h.col+"_se") != h.e.SE || !near(f(h.col+"_lo"), h.e.H-1.96*h.e.SE, 1e-12) || !near(f(h.col+"_hi"), h.e.H+1.96*h.e.SE, 1e-12) {
				t.Errorf("page %d: %s %g (SE %g, %g–%g); direct %+v", pg.ID, h.col, f(h.col), f(h.col+"_se"), f(h.col+"_lo"), f(h.col+"_hi"), h.e)
			}
		}
		if note := row["screen_note"].(string); note != "" {
			t.Errorf("page %d: note %q, want none", pg.ID, note)
		}
	}
	if checked != len(pages)-1 {
		t.Fatalf("checked %d pages", checked)
	}
	// The band page has the same numbers as the screen table's.
	c := res.Candidates[0]
	if rows[0]["ks_p"].(float64) != c.KSP || rows[0]["ljung_box_p"].(float64) != c.LjungP || rows[0]["h_lw"].(float64) != c.HLW {
		t.Errorf("band page: page_stats and screen_candidates differ")
	}

	// The long-memory verdict of every screened page: LongMemory on its
	// intervals with its own stream, and the counts of lrd_verdict a
	// naive count of the column.
	var lrd LRDSummary
	for i, pg := range pages {
		row := rows[i]
		if len(pg.Updates) < 100 {
			if row["lrd"].(string) != "" || !math.IsNaN(row["h_dfa_p"].(float64)) {
				t.Errorf("page %d (not screened): lrd %q, h_dfa_p %g", pg.ID, row["lrd"], row["h_dfa_p"])
			}
			continue
		}
		lrd.Screened++
		u := transform.Intervals(pg.Updates, transform.Hour)
		want := LongMemory(u, DFA(u), LocalWhittle(u), model.NewRand(seed, lrdStream(pg.ID)))
		if len(u) < MinHurstLen {
			want = LRDCheck{DFAP: math.NaN(), TrendP: math.NaN(), Halves: -1}
		}
		halves := math.NaN()
		if want.Halves >= 0 {
			halves = float64(want.Halves)
		}
		if !near(row["h_dfa_p"].(float64), want.DFAP, 0) || !near(row["trend_p"].(float64), want.TrendP, 0) || !near(row["lrd_halves"].(float64), halves, 0) || row["lrd"].(string) != want.Verdict {
			t.Errorf("page %d: p %g trend p %g halves %g %q; LongMemory %+v", pg.ID, row["h_dfa_p"], row["trend_p"], row["lrd_halves"], row["lrd"], want)
		}
		switch want.Verdict {
		case LRDClaimed:
			lrd.Claimed++
			if want.Rescaled() {
				lrd.Rescaled++
			}
		case LRDNone:
			lrd.None++
		case LRDTrend:
			lrd.Trend++
			if want.Halves < 0 {
				lrd.TrendShort++
			}
		case LRDDisagree:
			lrd.Disagree++
		}
		if want.Verdict != "" {
			lrd.Pages++
		}
	}
	if res.LRD != lrd || lrd.Pages == 0 {
		t.Errorf("lrd_verdict %+v, naive %+v", res.LRD, lrd)
	}

	// The screen's tests counted over every screened page (parallel to
	// the sequence band → KS → Ljung–Box): a naive count of the p-values.
	var ks, lb, both int64
	for _, r := range rows {
		k, l := r["ks_p"].(float64) >= 0.05, r["ljung_box_p"].(float64) >= 0.05
		if k {
			ks++
		}
		if l {
			lb++
		}
		if k && l {
			both++
		}
	}
	if res.ScreenAll != (ScreenCounts{KS: ks, LjungBox: lb, Both: both}) || ks == 0 {
		t.Errorf("all screened: %+v, naive KS %d Ljung–Box %d both %d", res.ScreenAll, ks, lb, both)
	}

	// hurst_screened against a sort of each column.
	type7 := func(s []float64, p float64) float64 {
		h := float64(len(s)-1) * p
		lo := int(h)
		if lo+1 == len(s) {
			return s[lo]
		}
		return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
	}
	if len(res.HurstScreened) != 2 {
		t.Fatalf("hurst summaries %+v", res.HurstScreened)
	}
	for i, col := range []string{"h_dfa", "h_lw"} {
		var hs []float64
		var above, below int64
		for _, r := range rows {
			if h := r[col].(float64); !math.IsNaN(h) {
				hs = append(hs, h)
				if col == "h_dfa" { // one-sided: the surrogate test
					if r["h_dfa_p"].(float64) < 0.05 {
						above++
					}
					continue
				}
				if r[col+"_lo"].(float64) > 0.5 {
					above++
				}
				if r[col+"_hi"].(float64) < 0.5 {
					below++
				}
			}
		}
		slices.Sort(hs)
		s := res.HurstScreened[i]
		around := s.N - above - below
		if col == "h_dfa" {
			around = 0
		}
		if s.N != int64(len(hs)) || s.N != int64(len(pages)-2) || s.Above != above || s.Below != below || s.Around != around {
			t.Errorf("%s: N %d above %d below %d around %d; naive %d %d %d", col, s.N, s.Above, s.Below, s.Around, len(hs), above, below)
		}
		if s.Q1 != type7(hs, 0.25) || s.Median != type7(hs, 0.5) || s.Q3 != type7(hs, 0.75) {
			t.Errorf("%s: quartiles %g %g %g; sorted column %g %g %g", col, s.Q1, s.Median, s.Q3, type7(hs, 0.25), type7(hs, 0.5), type7(hs, 0.75))
		}
		if above == 0 || above == s.N {
			t.Errorf("%s: %d of %d above 0.5: the case should have both", col, above, s.N)
		}
	}
}

// TestSelectRanks: the order statistics radix selection finds equal those
// of a sort, on values with ties, negative values and ±0, whether they fit
// in memory (one pass) or not (several passes of 16-bit histograms, down
// to the full 64 bits when a value repeats more than maxKeep times).
func TestSelectRanks(t *testing.T) {
	r := model.NewRand(2, 2)
	var x []float64
	for range 3000 {
		x = append(x, r.NormFloat64())
	}
	for range 500 {
		x = append(x, 0.25) // a value repeated beyond maxKeep
	}
	x = append(x, math.Copysign(0, -1), 0, 1e-300, -1e300, 1, 1, 1)
	r.Shuffle(len(x), func(i, j int) { x[i], x[j] = x[j], x[i] })
	s := slices.Clone(x)
	slices.Sort(s)
	ranks := []int64{0, 1, 17, int64(len(x)) / 2, int64(len(x)) - 1}
	for i := range s {
		if s[i] == 0.25 {
			ranks = append(ranks, int64(i)+3) // inside the run of 0.25
			break
		}
	}
	for _, keep := range []int{len(x), 7} {
		passes := 0
		scan := func(fn func(float64)) error {
			passes++
			for _, v := range x {
				fn(v)
			}
			return nil
		}
		got, err := selectRanks(scan, int64(len(x)), ranks, keep)
		if err != nil {
			t.Fatal(err)
		}
		for i, rk := range ranks {
			if got[i] != s[rk] || math.Signbit(got[i]) != math.Signbit(s[rk]) && s[rk] != 0 {
				t.Errorf("keep %d: rank %d = %g, sorted %g", keep, rk, got[i], s[rk])
			}
		}
		if keep == len(x) && passes != 1 || keep == 7 && passes < 3 {
			t.Errorf("keep %d: %d passes", keep, passes)
		}
	}
	q, err := quantilesOf(func(fn func(float64)) error {
		for _, v := range []float64{4, 1, 3, 2} {
			fn(v)
		}
		return nil
	}, 4, []float64{0.25, 0.5, 0.75, 1}, 1)
	// By hand, type 7 on 1, 2, 3, 4: h = 0.75, 1.5, 2.25, 3.
	if err != nil || q[0] != 1.75 || q[1] != 2.5 || q[2] != 3.25 || q[3] != 4 {
		t.Errorf("quartiles of 1…4: %v %v, want 1.75 2.5 3.25 4", q, err)
	}
	if _, err := selectRanks(func(fn func(float64)) error { fn(1); return nil }, 2, []int64{0}, 10); err == nil {
		t.Error("a scan with fewer values than counted: no error")
	}
}
