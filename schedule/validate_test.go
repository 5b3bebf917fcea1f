package schedule

import (
	"context"
	"math"
	"testing"

	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// poissonPages are n pages with Poisson updates over span seconds, rates
// (per hour) log-spread over [0.02, 2].
func poissonPages(n int, span float64, seed uint64) ([]series.Page, float64) {
	var pages []series.Page
	sum := 0.0
	for i := range n {
		rate := 0.02 * math.Pow(100, float64(i)/float64(n-1))
		sum += rate
		r := model.NewRand(seed, uint64(i))
		p := series.Page{ID: int64(i + 1), Title: "p", Resolution: 1}
		t0 := 1_500_000_000.0
		for t := t0; t < t0+span; t += 3600 * r.ExpFloat64() / rate {
			if u := int64(t); len(p.Updates) == 0 || u > p.Updates[len(p.Updates)-1] {
				p.Updates = append(p.Updates, u)
			}
		}
		pages = append(pages, p)
	}
	return pages, sum
}

// On Poisson pages crawled often (constant Δ = 0.25 h), the G_U plan
// and Cho–Garcia-Molina's are both the optimum: their realised
// freshness agrees within 0.2 points and is within 0.3 points of the
// oracle (planned on the evaluation window's true G_U), and what each
// predicted from its estimates matches what it realised within 0.5
// points (Poisson
// pages are stationary). Same seeds, same numbers; the 95 % interval
// holds the mean.
func TestValidatePoisson(t *testing.T) {
	pages, sumRate := poissonPages(30, 2*365*units.Day, 4)
	opt := ValidateOptions{
		Options: Options{Budget: 0.3 * sumRate / 3600, Plans: []string{PlanGU, PlanChoGM, PlanUniform}},
		Sampler: "const:0.25", Train: 0.5, Seeds: []uint64{1, 2, 3}, Unit: 3600,
	}
	v, err := Validate(context.Background(), pages, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Rows) != 5 || v.Rows[3].Plan != PlanOracleTrain || v.Rows[4].Plan != PlanOracle || v.Opt.Method != "M4" {
		t.Fatalf("rows %+v, method %s", v.Rows, v.Opt.Method)
	}
	gu, cho, uni, oracle := v.Rows[0], v.Rows[1], v.Rows[2], v.Rows[4]
	// Poisson pages do not change between windows: both oracles agree.
	if math.Abs(v.Rows[3].Mean-oracle.Mean) > 0.003 {
		t.Errorf("oracle-train %.4f, oracle %.4f", v.Rows[3].Mean, oracle.Mean)
	}
	if math.Abs(gu.Mean-cho.Mean) > 0.002 {
		t.Errorf("realised: gu %.4f, cho-gm %.4f", gu.Mean, cho.Mean)
	}
	for _, r := range []ValidationRow{gu, cho} {
		if math.Abs(r.Mean-oracle.Mean) > 0.003 {
			t.Errorf("%s realised %.4f, oracle %.4f", r.Plan, r.Mean, oracle.Mean)
		}
		for k := range r.Realized {
			if math.Abs(r.Predicted[k]-r.Realized[k]) > 0.005 {
				t.Errorf("%s seed %d: predicted %.4f, realised %.4f", r.Plan, k, r.Predicted[k], r.Realized[k])
			}
		}
		if !(r.Lo <= r.Mean && r.Mean <= r.Hi) {
			t.Errorf("%s: interval [%g, %g] misses the mean %g", r.Plan, r.Lo, r.Hi, r.Mean)
		}
	}
	// Rates spread over two decades: the optimum beats uniform clearly.
	if !(gu.Mean > uni.Mean+0.01) {
		t.Errorf("gu %.4f not above uniform %.4f", gu.Mean, uni.Mean)
	}
	again, err := Validate(context.Background(), pages, opt)
	if err != nil {
		t.Fatal(err)
	}
	for k := range v.Rows {
		for s := range v.Rows[k].Realized {
			if again.Rows[k].Realized[s] != v.Rows[k].Realized[s] {
				t.Errorf("not reproducible: %s seed %d: %g then %g", v.Rows[k].Plan, s, v.Rows[k].Realized[s], again.Rows[k].Realized[s])
			}
		}
	}
}

// meanCI against values worked out by hand: xs = 1, 2, 3 has mean 2,
// s = 1, t_{0.975, 2} = 4.302652729911275 (tables), half-width t/√3.
func TestMeanCI(t *testing.T) {
	m, lo, hi := meanCI([]float64{1, 2, 3})
	h := 4.302652729911275 / math.Sqrt(3)
	if m != 2 || math.Abs(lo-(2-h)) > 1e-9 || math.Abs(hi-(2+h)) > 1e-9 {
		t.Errorf("meanCI = %g [%g, %g], want 2 [%g, %g]", m, lo, hi, 2-h, 2+h)
	}
	if m, lo, _ := meanCI([]float64{0.5}); m != 0.5 || !math.IsNaN(lo) {
		t.Errorf("one value: %g %g", m, lo)
	}
}

// The quiet time after a page's last update is evidence, right-censored:
// on Poisson pages of a known rate λ, crawled hourly to the end of the
// training window (as Validate does), the crawler's λ̂ (cho's estimator:
// every visit that saw no change counts, those of the quiet tail too) is
// unbiased (mean λ̂/λ within 3 % over 400 pages of about 10 updates), and
// M4's Ĝ is the window's exact time-average age distribution (WindowCurve
// from the first update to the end) up to the hourly grid: the mean over
// the pages of the largest gap below x = T/2 is under 0.01. Stopping the
// crawl at the last update would drop the tail from Ĝ (the same
// gap, measured against the same window, would be above 0.02: the page
// looks faster than it is), and in the exact curves a page edited twice
// 75 s apart would look like it changed every 75 s.
func TestCrawlToSplitCensored(t *testing.T) {
	cr, err := newCrawler("const:1", "")
	if err != nil {
		t.Fatal(err)
	}
	const lam, T = 0.02, 500.0 // per hour; hours
	var ratio, gapEnd, gapLast float64
	n := 0
	gap := func(x, g, wx, wg []float64) float64 {
		d := 0.0
		for k := range x {
			if x[k] > T/2 {
				break
			}
			d = math.Max(d, math.Abs(g[k]-gAtG(wx, wg, x[k])))
		}
		return d
	}
	for i := range 400 {
		r := model.NewRand(5, uint64(i))
		ts := []float64{0}
		for u := r.ExpFloat64() / lam; u < T; u += r.ExpFloat64() / lam {
			ts = append(ts, u)
		}
		if ts[len(ts)-1] < T/2 {
			continue // the old crawl's grid would end before T/2
		}
		x, g, l, note, err := cr.crawl(ts, T, model.NewRand(6, uint64(i)))
		if err != nil || note != "" {
			t.Fatalf("page %d: %v %s", i, err, note)
		}
		xo, gOld, _, _, err := cr.crawl(ts, ts[len(ts)-1], model.NewRand(6, uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		wx, wg, _ := WindowCurve(ts, 0, T)
		ratio += l / lam
		gapEnd += gap(x, g, wx, wg)
		gapLast += gap(xo, gOld, wx, wg)
		n++
	}
	ratio /= float64(n)
	gapEnd /= float64(n)
	gapLast /= float64(n)
	t.Logf("%d pages: mean λ̂/λ %.4f; mean largest |Ĝ_M4 − Ĝ_window| %.4f crawled to the end, %.4f to the last update", n, ratio, gapEnd, gapLast)
	if math.Abs(ratio-1) > 0.03 || gapEnd > 0.01 || gapLast < 0.02 {
		t.Errorf("mean λ̂/λ %.4f (want within 3 %% of 1); Ĝ gap %.4f to the end (want ≤ 0.01), %.4f to the last update (want > 0.02)", ratio, gapEnd, gapLast)
	}
	// Two edits 75 s apart and then none for the rest of a 1,000 h
	// window: λ = 2 updates over the window, not 1/75 s.
	if _, _, l := WindowCurve([]float64{0, 75.0 / 3600}, 0, 1000); math.Abs(l-2.0/1000) > 1e-15 {
		t.Errorf("two edits then quiet: λ %g per hour, want 0.002", l)
	}
}

// gAtG is the piecewise-linear curve through (0, 0) and the knots.
func gAtG(x, g []float64, at float64) float64 {
	px, pg := 0.0, 0.0
	for k := range x {
		if at <= x[k] {
			return pg + (g[k]-pg)*(at-px)/(x[k]-px)
		}
		px, pg = x[k], g[k]
	}
	return pg
}

// A page without any update (a dataset may hold one) is a page with no
// estimate, not a crash: planned on the prior, scored as always fresh.
func TestValidatePageWithoutUpdates(t *testing.T) {
	pages, sumRate := poissonPages(10, 60*units.Day, 3)
	pages = append(pages, series.Page{ID: 99, Title: "empty", Resolution: 1})
	v, err := Validate(context.Background(), pages, ValidateOptions{
		Options: Options{Budget: 0.3 * sumRate / 3600, Prior: true, Plans: []string{PlanGU}},
		Sampler: "const:1", Train: 0.5, Seeds: []uint64{1}, Unit: 3600,
	})
	if err != nil || v.NoEstimate[0] != 1 || v.OnPrior[0] != 1 {
		t.Fatalf("%v; no estimate %v, on the prior %v", err, v.NoEstimate, v.OnPrior)
	}
}

// A method is named as the user likes ("m4" is M4, "gm4" G-M4, as replay
// and estimate read it): the validation crawler estimates with that
// method, so that the pages of a lower-case --method get estimates (every
// page had none, and the verdict went to uniform, the one plan that
// needs none), a method for constant delays is refused on random ones
// whatever its case, and "all" or a list is no one crawler's method.
func TestValidateMethodNames(t *testing.T) {
	pages, sumRate := poissonPages(12, 60*units.Day, 2)
	opt := ValidateOptions{
		Options: Options{Budget: 0.3 * sumRate / 3600, Plans: []string{PlanGU, PlanUniform}},
		Sampler: "const:0.5", Train: 0.5, Seeds: []uint64{1}, Unit: 3600,
	}
	var want *Validation
	for _, m := range []string{"M4", "m4", "G-M4", "gm4", "g_m4"} {
		opt.Method = m
		v, err := Validate(context.Background(), pages, opt)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		canon := "M4"
		if m != "M4" && m != "m4" {
			canon = "G-M4"
		}
		if v.Opt.Method != canon || v.NoEstimate[0] != 0 {
			t.Errorf("--method %s: crawled with %q, %d pages without an estimate; want %s and 0", m, v.Opt.Method, v.NoEstimate[0], canon)
		}
		if m == "M4" {
			want = v
		} else if m == "m4" && v.Rows[0].Mean != want.Rows[0].Mean {
			t.Errorf("gu realised %g with m4, %g with M4", v.Rows[0].Mean, want.Rows[0].Mean)
		}
	}
	for _, c := range []struct{ sampler, method string }{{"exp:1", "m4"}, {"exp:1", "M4"}, {"const:1", "all"}, {"const:1", "M4,M6"}} {
		if err := CheckCrawler(c.sampler, c.method); err == nil {
			t.Errorf("sampler %s, method %s: no error", c.sampler, c.method)
		}
	}
}
