package replay

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/transform"
)

// Relative sampler specs: λ = k/E[U] or Δ = k·E[U] on each page, the spec
// unchanged; absolute specs are the same on every page.
func TestRelativeSamplers(t *testing.T) {
	for _, c := range []struct {
		spec        string
		meanU       float64
		rate, delta float64
		mean        float64 // E[S] of F_S
	}{
		{"exp:2x", 4, 0.5, 0, 2},                     // λ = 2/4
		{"exp:20x", 0.5, 40, 0, 0.025},               // λ = 20/0.5
		{"const:0.5x", 4, 0.5, 2, 2},                 // Δ = 0.5·4
		{"const:0.05X", 100, 0.2, 5, 5},              // Δ = 0.05·100
		{"uniform:3x", 6, 0.5, 0, 2},                 // λ = 3/6: uniform on [0, 4]
		{"pareto:3,2x", 10, 0.2, 0, 5},               // λ = 2/10, mean 5
		{"exp:2", 4, 2, 0, 0.5},                      // absolute: unchanged
		{"const:0.5", 4, 2, 0.5, 0.5},                // absolute: unchanged
		{"dist:weibull:1,3", 4, 1. / 3, 0, 3},        // absolute: unchanged
		{" exp:1.5x ", 3, 0.5, 0, 2},                 // spaces trimmed
		{"poisson:1x", 1e-3, 1000, 0, 1e-3},          // tiny E[U]
		{"constant:1x", 8760, 1. / 8760, 8760, 8760}, // a year in hours
	} {
		s, err := estimator.ParseSampler(c.spec)
		if err != nil {
			t.Fatalf("%q: %v", c.spec, err)
		}
		p, err := s.ForMean(c.meanU)
		if err != nil {
			t.Fatalf("%q at E[U] = %g: %v", c.spec, c.meanU, err)
		}
		rel := c.spec != "exp:2" && c.spec != "const:0.5" && c.spec != "dist:weibull:1,3"
		if p.Spec != s.Spec || s.Relative != rel || p.Relative != rel {
			t.Errorf("%q: spec %q→%q relative %v/%v", c.spec, s.Spec, p.Spec, s.Relative, p.Relative)
		}
		if math.Abs(p.Rate-c.rate) > 1e-12*c.rate || math.Abs(p.Delta-c.delta) > 1e-12*math.Max(1, c.delta) ||
			math.Abs(p.Dist.Mean()-c.mean) > 1e-9*c.mean {
			t.Errorf("%q at E[U] = %g: λ %g Δ %g E[S] %g, want %g %g %g", c.spec, c.meanU, p.Rate, p.Delta, p.Dist.Mean(), c.rate, c.delta, c.mean)
		}
	}
	for _, bad := range []string{"exp:x", "exp:-2x", "const:0x", "pareto:2x,1", "exp:2xx", "dist:exp:1x"} {
		if _, err := estimator.ParseSampler(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	s, _ := estimator.ParseSampler("exp:2x")
	for _, m := range []float64{0, -1, math.Inf(1), math.NaN()} {
		if _, err := s.ForMean(m); err == nil {
			t.Errorf("exp:2x at E[U] = %g: no error", m)
		}
	}
	// The default samplers are relative and parse.
	for _, spec := range DefaultSamplers {
		if s, err := estimator.ParseSampler(spec); err != nil || !s.Relative {
			t.Errorf("default sampler %q: %v (relative %v)", spec, err, s.Relative)
		}
	}
}

// DefaultsOf by hand. U = {1, 3, 2} h: G_U(x) = (3 + x)/6 on [2, 3], so
// the 0.99 quantile is 2.94; E[U] = 2, h = max(2/100, 1 s) = 0.02 for a
// 1-second source and the resolution 1 for a date-only one in days.
func TestDefaultsOfByHand(t *testing.T) {
	u := []float64{1, 3, 2}
	for _, c := range []struct {
		res   float64
		ch    Choice
		want  PageDefaults
		label string
	}{
		{1.0 / 3600, Choice{}, PageDefaults{MeanU: 2, XMax: 2.94, H: 0.02}, "seconds"},
		{1, Choice{}, PageDefaults{MeanU: 2, XMax: 2.94, H: 1}, "dates"},
		{1.0 / 3600, Choice{XMax: 5, H: 0.1}, PageDefaults{MeanU: 2, XMax: 5, H: 0.1}, "given"},
		{1.0 / 3600, Choice{XMax: 5}, PageDefaults{MeanU: 2, XMax: 5, H: 0.02}, "x_max given"},
		{1.0 / 3600, Choice{H: 0.5}, PageDefaults{MeanU: 2, XMax: 2.94, H: 0.5}, "h given"},
		// all intervals at the resolution: x_max = 0.99 < h = 1 → x_max = h
		{1, Choice{}, PageDefaults{MeanU: 1, XMax: 1, H: 1}, "coarse"},
	} {
		uu := u
		if c.label == "coarse" {
			uu = []float64{1, 1}
		}
		got := DefaultsOf(uu, c.res, c.ch)
		if math.Abs(got.MeanU-c.want.MeanU) > 1e-12 || math.Abs(got.XMax-c.want.XMax) > 1e-12 || math.Abs(got.H-c.want.H) > 1e-12 {
			t.Errorf("%s: %+v, want %+v", c.label, got, c.want)
		}
	}
	// A heavy tail: x_max/h is capped at MaxAutoGrid.
	heavy := append(slices.Repeat([]float64{0.001}, 999_999), 1e6)
	d := DefaultsOf(heavy, 0, Choice{})
	if n := d.XMax / d.H; n > MaxAutoGrid*(1+1e-9) {
		t.Errorf("heavy tail: x_max %g / h %g = %g points, more than %d", d.XMax, d.H, n, MaxAutoGrid)
	}
}

// Run with every default: each page's estimates and truth are tabulated
// on [0, x_max(page)] with x_max(page) the 0.99 quantile of the page's
// G_U (a naive bisection here), the relative samplers give λ = 20/E[U]
// (the visits made ≈ 20 per interval), M6's bins are E[U]/100, and
// replay.json records the rules and the spread of the values.
func TestRunPerPageDefaults(t *testing.T) {
	ds, pages := writeDataset(t, 4)
	out := filepath.Join(t.TempDir(), "rep")
	meta, err := Run(context.Background(), Options{Dataset: ds, Out: out, Methods: []string{"M2", "M4", "M6"}, Seed: 3, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(meta.Samplers, DefaultSamplers) || meta.H != 0 || meta.XMax != 0 || len(meta.Grid) != 0 {
		t.Fatalf("samplers %v h %g x_max %g grid %v", meta.Samplers, meta.H, meta.XMax, meta.Grid)
	}
	if meta.Choices == nil || meta.Choices.XMaxRule != RuleXMaxAuto || meta.Choices.HRule != RuleHAuto {
		t.Fatalf("choices %+v", meta.Choices)
	}
	_, est, err := ReadEstimates(out)
	if err != nil {
		t.Fatal(err)
	}
	var xmaxes []float64
	for _, p := range pages[1:] { // page 0 has one update
		u := transform.Intervals(p.Updates, transform.Hour)
		meanU := transform.MeanInterval(u)
		// naive 0.99 quantile of G_U(x) = Σ min(U_i, x)/Σ U_i
		lo, hi := 0.0, slices.Max(u)
		for range 200 {
			mid := (lo + hi) / 2
			num, den := 0.0, 0.0
			for _, v := range u {
				num += math.Min(v, mid)
				den += v
			}
			if num/den >= 0.99 {
				hi = mid
			} else {
				lo = mid
			}
		}
		xmaxes = append(xmaxes, hi)
		h := meanU / 100
		seen := 0
		for _, e := range est {
			if e.PageID != p.ID {
				continue
			}
			seen++
			step := h
			if e.Sampler == "const:0.05x" {
				step = meanU / 20
			}
			x := e.CDF.X
			if last := x[len(x)-1]; last < hi-1e-9 || last-step >= hi+1e-9 || math.Abs(x[1]-step) > 1e-9*step {
				t.Errorf("page %d %s %s: grid step %g to %g, want step %g up to ⌈%g⌉", p.ID, e.Sampler, e.Method, x[1], last, step, hi)
			}
			if e.Method == estimator.MethodM6 && e.Kind == estimator.KindG && math.Abs(e.H-step) > 1e-9*step {
				t.Errorf("page %d %s: M6 h %g, want %g", p.ID, e.Sampler, e.H, step)
			}
			// λ = 20/E[U]: about 20 visits per interval over the window.
			if want := 20 * float64(len(u)); math.Abs(float64(e.Visits)-want) > 5*math.Sqrt(want)+1 {
				t.Errorf("page %d %s: %d visits, want about %g", p.ID, e.Sampler, e.Visits, want)
			}
		}
		if seen == 0 {
			t.Errorf("page %d: no rows", p.ID)
		}
	}
	slices.Sort(xmaxes)
	if c := meta.Choices.XMax; math.Abs(c.Min-xmaxes[0]) > 1e-6 || math.Abs(c.Max-xmaxes[len(xmaxes)-1]) > 1e-6 {
		t.Errorf("choices x_max %+v, want range %g–%g", c, xmaxes[0], xmaxes[len(xmaxes)-1])
	}
}

// With a given x_max and h every page uses them.
func TestRunGivenXMaxH(t *testing.T) {
	ds, _ := writeDataset(t, 3)
	out := filepath.Join(t.TempDir(), "rep")
	meta, err := Run(context.Background(), Options{Dataset: ds, Out: out, Samplers: []string{"exp:2", "const:0.5x"}, Methods: []string{"M2", "M6"},
		H: 0.1, XMax: 7, Seed: 3, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if meta.Grid["exp:2"] != 0.1 || len(meta.Grid) != 1 || meta.Choices.XMaxRule != RuleGiven || meta.Choices.HRule != RuleGiven {
		t.Errorf("grid %v choices %+v", meta.Grid, meta.Choices)
	}
	_, est, err := ReadEstimates(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range est {
		if x := e.CDF.X; x[len(x)-1] < 7-1e-9 || (e.Sampler == "exp:2" && math.Abs(x[len(x)-1]-7) > 1e-9) {
			t.Errorf("page %d %s %s: grid ends at %g, want x_max 7", e.PageID, e.Sampler, e.Method, x[len(x)-1])
		}
	}
}

// The work limits apply with each page's own values: under the relative
// defaults a page of n intervals expects 20n + 1 visits (λ = 20/E[U] over
// T = n·E[U]) with either sampler, so --max-visits 20·60 + 1 leaves out
// exactly the pages with more than 60 intervals, both samplers. A given
// x_max of 10⁹ with const:0.05x needs x_max/(E[U]/20) > 10⁶ grid points
// on every page (left out, over_max_grid), while exp:20x gets the
// automatic h = x_max/MaxAutoGrid and runs.
func TestPerPageWorkBounds(t *testing.T) {
	ds, pages := writeDataset(t, 4) // 20 + 30i intervals: 50, 80, 110 for i = 1, 2, 3
	want := int64(0)
	for _, p := range pages[1:] {
		if n := len(p.Updates) - 1; 20*n+1 > 20*60+1 {
			want += 2
		}
	}
	meta, err := Run(context.Background(), Options{Dataset: ds, Out: filepath.Join(t.TempDir(), "a"), Methods: []string{"M2"},
		MaxVisits: 20*60 + 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want != 4 || meta.Skipped[estimator.SkipMaxVisits] != want || meta.Pages != 1 {
		t.Errorf("skipped %v pages %d, want %d jobs over max visits (of pages with more than 60 intervals)", meta.Skipped, meta.Pages, want)
	}
	meta, err = Run(context.Background(), Options{Dataset: ds, Out: filepath.Join(t.TempDir(), "b"), Methods: []string{"M2", "M6"},
		XMax: 1e9, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if meta.Skipped[estimator.SkipMaxGrid] != 3 || meta.Pages != 3 || meta.Choices.H.Min != 1e9/MaxAutoGrid {
		t.Errorf("skipped %v pages %d h %+v, want 3 const:0.05x jobs over the grid limit and h = %g", meta.Skipped, meta.Pages, meta.Choices.H, 1e9/MaxAutoGrid)
	}
}

// A slow source computed in hours: the message states x_max and h in the
// unit their values call for, never in e-notation ("median 1.354e+04,
// range … h"). Expected strings by hand: 13,540 h =
// 13,540/8,766 y = 1.545 y; 8,000 h = 0.9126 y; 20,000 h = 2.282 y; h =
// 24 h = 1 d (the given value, alone in its unit).
func TestDescribeSlowSourceUnits(t *testing.T) {
	c := Choices{XMaxRule: RuleXMaxAuto, HRule: RuleGiven, SamplerRule: "given: exp:1",
		XMax: Spread{Median: 13540, Min: 8000, Max: 20000}, H: Spread{Median: 24, Min: 24, Max: 24}}
	got := c.Describe("h")
	want := "x_max " + RuleXMaxAuto + " (median 1.545 y, range 0.9126–2.282 y); h = 1 d (given); samplers given: exp:1"
	if got != want {
		t.Errorf("Describe =\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(got, "e+") {
		t.Errorf("e-notation in %q", got)
	}
	// A date-only source computed in days keeps days below a year.
	c = Choices{XMaxRule: RuleXMaxAuto, HRule: RuleHAuto, XMax: Spread{Median: 120, Min: 30, Max: 400}, H: Spread{Median: 1, Min: 1, Max: 1}}
	if got := c.Describe("d"); !strings.Contains(got, "(median 120 d, range 30–400 d)") || !strings.Contains(got, "("+"1 d)") {
		t.Errorf("Describe(d) = %q", got)
	}
	// The old provenance line of a replay without choices, too.
	m := Meta{Samplers: []string{"exp:1"}, H: 0.05, XMax: 13540, UnitName: "h", Seed: 1, Pages: 2}
	if got := m.Describe(); got != "samplers exp:1, h 3 min, x_max 1.545 y; seed 1, unit h, 2 pages" {
		t.Errorf("Meta.Describe = %q", got)
	}
}
