package schedule

import (
	"context"
	"math"
	"testing"

	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// The prior of the pages a plan knows nothing about is the mean of the
// others' Ĝ: a page never watched is predicted the mean freshness of the
// pages with estimates at every Δ (freshness is linear in Ĝ), and gets
// their mean λ̂ = m; one watched a time E without a change gets λ̃ =
// m/(1 + mE) and the same shape stretched, φ(Δ) = φ_0(Δ λ̃/m). Both are
// visited by gu, and the plans say what share of the budget they got.
func TestPriorPages(t *testing.T) {
	lambdas := []float64{1, 2, 0.5, 1.5, 0, 0}
	p := expProblem(lambdas[:4], nil, 6, 400)
	c := p.Curves
	c.Off = append(c.Off, len(c.G), len(c.G)) // two pages without knots
	p.Lambda = append(p.Lambda, 0, 0)
	p.Prior, p.Watched = true, []float64{0, 0, 0, 0, 0, 10}
	ref := expProblem(lambdas[:4], nil, 6, 400)
	if err := p.Prepare(); err != nil {
		t.Fatal(err)
	}
	if err := ref.Prepare(); err != nil {
		t.Fatal(err)
	}
	const m = 1.25
	if p.onPrior != 2 || math.Abs(p.Lambda[4]-m) > 1e-6 || math.Abs(p.Lambda[5]-m/(1+m*10)) > 1e-6 {
		t.Fatalf("%d pages on the prior, λ̃ %g and %g; want 2, %g and %g", p.onPrior, p.Lambda[4], p.Lambda[5], m, m/(1+m*10))
	}
	for _, delta := range []float64{0.05, 0.3, 1, 3, 20} {
		mean := 0.0
		for i := range 4 {
			g, _ := ref.Predicted(i, 1/delta)
			mean += g / 4
		}
		g4, _ := p.Predicted(4, 1/delta)
		if math.Abs(g4-mean) > 2e-3 {
			t.Errorf("Δ=%g: never watched page %.5f, mean of the others %.5f", delta, g4, mean)
		}
		s := float64(p.scale[5])
		g5, _ := p.Predicted(5, 1/delta)
		g0, _ := p.Predicted(4, 1/(delta*s))
		if math.Abs(g5-g0) > 1e-12 {
			t.Errorf("Δ=%g: watched page %.6f, the prior at sΔ %.6f", delta, g5, g0)
		}
	}
	s, err := p.Solve(PlanGU)
	if err != nil {
		t.Fatal(err)
	}
	if !(s.F[4] > 0 && s.F[5] > 0) || math.Abs(s.Used-6) > 1e-9 {
		t.Errorf("gu rates %v (used %g): the pages on the prior are not visited", s.F, s.Used)
	}
	// The KKT condition of a page on the prior, by finite differences of
	// its predicted freshness: w F'(f) = μ (w = 1).
	for _, i := range []int{4, 5} {
		f, h := s.F[i], 1e-6*s.F[i]
		a, _ := p.Predicted(i, f+h)
		b, _ := p.Predicted(i, f-h)
		if d := (a - b) / (2 * h); math.Abs(d-s.Mu) > 1e-3*s.Mu {
			t.Errorf("page %d: marginal value %g, μ %g", i, d, s.Mu)
		}
	}
}

// In validation, pages created after the split have no estimate; with
// --min-rate 0 (the default before) every plan left them unvisited and
// stale from their first update, while on the prior they are visited:
// 20 Poisson pages all along and 10 created just after the split, the
// prior gives the new pages a share of the budget and gu realises more.
func TestPriorNewPages(t *testing.T) {
	var pages []series.Page
	t0 := 1_500_000_000.0
	span := 200 * units.Day
	for i := range 30 {
		r := model.NewRand(9, uint64(i))
		rate := 0.05 * math.Exp(r.NormFloat64()) / 3600
		p := series.Page{ID: int64(i + 1), Title: "p", Resolution: 1}
		start := t0
		if i >= 20 {
			start = t0 + span/2 + units.Day*float64(i-19)
		}
		for t := start; t < t0+span; t += r.ExpFloat64() / rate {
			p.Updates = append(p.Updates, int64(t))
		}
		pages = append(pages, p)
	}
	run := func(prior bool) *Validation {
		opt := ValidateOptions{
			Options: Options{Budget: 30.0 / units.Day, Prior: prior, Plans: []string{PlanGU, PlanUniform}},
			Sampler: "const:1", Train: 0.5, Seeds: []uint64{1}, Unit: 3600,
		}
		v, err := Validate(context.Background(), pages, opt)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	with, without := run(true), run(false)
	if with.OnPrior[0] != 10 || without.OnPrior[0] != 0 || with.NoEstimate[0] != 10 {
		t.Fatalf("on the prior: %v and %v; without estimate %v", with.OnPrior, without.OnPrior, with.NoEstimate)
	}
	gw, gn := with.Rows[0], without.Rows[0]
	t.Logf("gu realises %.4f on the prior (%.1f %% of the budget to the new pages), %.4f with min rate 0", gw.Mean, 100*gw.PriorShare[0], gn.Mean)
	if !(gw.PriorShare[0] > 0.05) || !(gw.Mean > gn.Mean+0.02) || gn.PriorShare[0] != 0 {
		t.Errorf("gu on the prior %.4f (share %.3f), with min rate 0 %.4f", gw.Mean, gw.PriorShare[0], gn.Mean)
	}
}
