package staleness

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// DefaultEpsilon is the staleness target ε when none is given
// (Options.Epsilon, revisit analyze --stale-eps).
const DefaultEpsilon = 0.1

// Options configures Analyze.
type Options struct {
	// Delta is the revisit interval in the analysis unit; 0 uses each
	// page's own mean interval E[U] (λΔ = 1).
	Delta float64
	// Epsilon is the staleness target for the Δ each model needs (0 →
	// DefaultEpsilon).
	Epsilon float64
	// MinUpdates skips pages with fewer updates (0 → 10; at least 3).
	MinUpdates int
	// Seed draws the random phase of the single-phase column (model.NewRand,
	// one stream per page id).
	Seed uint64
	// Top is the number of pages listed in the per-page table, by number of
	// updates (0 → 30); the distribution covers every page analysed.
	Top int
	// Dataset names the input in the tables' provenance line.
	Dataset string
}

func (o Options) withDefaults() Options {
	if o.Epsilon == 0 {
		o.Epsilon = DefaultEpsilon
	}
	if o.MinUpdates == 0 {
		o.MinUpdates = 10
	}
	if o.MinUpdates < 3 {
		o.MinUpdates = 3
	}
	if o.Top == 0 {
		o.Top = 30
	}
	return o
}

// PageResult is the staleness of one page under a revisit interval Δ.
type PageResult struct {
	Page     *series.Page
	N        int     // updates
	MeanU    float64 // E[U] in the unit
	Lambda   float64 // 1/E[U], the rate of the Poisson model
	Delta    float64 // revisit interval used
	Exact    float64 // PhaseAveraged: exact, averaged over a uniform phase
	Phase    float64 // AtPhase with one seeded random phase
	Poisson  float64 // Poisson(λ, Δ)
	DeltaEx  float64 // ExactDelta(ε): Δ that keeps exact staleness ≤ ε
	DeltaPo  float64 // PoissonDelta(λ, ε)
	PhaseVal float64 // the phase drawn, in the unit
}

// Ratio is S_exact / S_Poisson: below 1 the Poisson model overestimates
// staleness.
func (r PageResult) Ratio() float64 { return r.Exact / r.Poisson }

// DeltaRatio is Δ_ε(exact) / Δ_ε(Poisson): the bandwidth a Poisson-planned
// crawler spends relative to what the real series needs for staleness ε
// (above 1 it over-provisions, below 1 it falls short).
func (r PageResult) DeltaRatio() float64 { return r.DeltaEx / r.DeltaPo }

// Pages computes the staleness of every page with at least MinUpdates
// updates, with intervals in unit seconds. It returns ctx.Err() as soon as
// ctx is cancelled (checked before every page).
func Pages(ctx context.Context, pages []series.Page, unit float64, opt Options) ([]PageResult, error) {
	opt = opt.withDefaults()
	if !(unit > 0) {
		return nil, fmt.Errorf("staleness: unit %g s must be positive", unit)
	}
	if opt.Delta < 0 || !(opt.Epsilon > 0 && opt.Epsilon < 1) {
		return nil, fmt.Errorf("staleness: need Δ ≥ 0 and 0 < ε < 1 (got Δ=%g, ε=%g)", opt.Delta, opt.Epsilon)
	}
	var out []PageResult
	for i := range pages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := &pages[i]
		if len(p.Updates) < opt.MinUpdates {
			continue
		}
		u := transform.Intervals(p.Updates, unit)
		mean := transform.MeanInterval(u)
		if !(mean > 0) {
			continue
		}
		r := PageResult{Page: p, N: len(p.Updates), MeanU: mean, Lambda: 1 / mean, Delta: opt.Delta}
		if r.Delta == 0 {
			r.Delta = mean
		}
		rng := model.NewRand(opt.Seed, uint64(p.ID)) // by page, not position: a page keeps its phase whatever else is selected
		r.PhaseVal = rng.Float64() * r.Delta
		r.Exact = PhaseAveraged(u, r.Delta)
		r.Phase = AtPhase(transform.Times(p.Updates, unit), r.Delta, r.PhaseVal)
		r.Poisson = Poisson(r.Lambda, r.Delta)
		r.DeltaEx = ExactDelta(u, opt.Epsilon)
		r.DeltaPo = PoissonDelta(r.Lambda, opt.Epsilon)
		out = append(out, r)
	}
	return out, nil
}

// Analyze is the staleness stage for reports (SPEC §7 item 7): the
// per-page table, the distribution over pages of S_exact/S_Poisson and of
// Δ_ε(exact)/Δ_ε(Poisson), a figure of both distributions and a figure of
// S(Δ) for the page with the most updates. Times are in unit seconds. A
// cancelled ctx stops it within one page's work: it returns ctx.Err() and
// no bundle.
func Analyze(ctx context.Context, pages []series.Page, unit float64, opt Options) (*tables.Bundle, error) {
	opt = opt.withDefaults()
	res, err := Pages(ctx, pages, unit, opt)
	if err != nil {
		return nil, err
	}
	un := transform.UnitName(unit)
	deltaDesc := "Δ = " + human.Duration(opt.Delta*unit)
	if opt.Delta == 0 {
		deltaDesc = "Δ = each page's E[U] (λΔ = 1)"
	}
	src := fmt.Sprintf("dataset %s; %d of %d pages with ≥ %d updates; %s; ε = %g; phase seed %d; unit %s",
		orDash(opt.Dataset), len(res), len(pages), opt.MinUpdates, deltaDesc, opt.Epsilon, opt.Seed, un)
	b := &tables.Bundle{}
	if len(res) == 0 {
		b.Tables = append(b.Tables, tables.Table{ID: "staleness_summary", Title: "Cost of assuming Poisson: staleness (no page qualifies)",
			Source: src, Section: tables.SectionPolicies, Order: 30, Columns: []tables.Column{{Name: "note", Kind: tables.String}},
			Rows: [][]any{{fmt.Sprintf("no page has ≥ %d updates", opt.MinUpdates)}}})
		return b, nil
	}

	// Per-page table, pages by number of updates.
	byN := make([]PageResult, len(res))
	copy(byN, res)
	sort.SliceStable(byN, func(i, j int) bool { return byN[i].N > byN[j].N })
	pt := tables.Table{
		ID: "staleness_pages", Title: "Staleness of a crawler's copy: exact on the real series vs the Poisson model",
		Source: src, Section: tables.SectionPolicies, Order: 31,
		Notes: []string{
			"S exact = Σ(m_i − m_i²/2Δ)/ΣU_i with m_i = min(U_i, Δ): the time-average over a uniform visit phase; S at phase: one seeded phase.",
			"S Poisson = 1 − (1 − e^{−λΔ})/(λΔ) with λ = 1/E[U]. Δ_ε: the largest Δ keeping staleness ≤ ε.",
		},
		Columns: []tables.Column{
			{Name: "page", Kind: tables.String}, {Name: "updates", Kind: tables.Int},
			{Name: "E[U]", Unit: un, Kind: tables.Duration, UnitGroup: "interval"}, {Name: "Δ", Unit: un, Kind: tables.Duration, UnitGroup: "interval"},
			{Name: "S exact", Kind: tables.Percent}, {Name: "S at phase", Kind: tables.Percent},
			{Name: "S Poisson", Kind: tables.Percent}, {Name: "S exact / S Poisson", Kind: tables.Float},
			{Name: "Δ_ε exact", Unit: un, Kind: tables.Duration, UnitGroup: "interval"}, {Name: "Δ_ε Poisson", Unit: un, Kind: tables.Duration, UnitGroup: "interval"},
			{Name: "Δ_ε exact / Δ_ε Poisson", Kind: tables.Float, Doc: "> 1: a Poisson-planned crawler revisits more often than needed"},
		},
	}
	for i, r := range byN {
		if i >= opt.Top {
			break
		}
		pt.Rows = append(pt.Rows, []any{r.Page.Title, tables.I(r.N), r.MeanU, r.Delta, r.Exact, r.Phase, r.Poisson,
			r.Ratio(), r.DeltaEx, r.DeltaPo, r.DeltaRatio()})
	}

	ratios := make([]float64, 0, len(res))
	dratios := make([]float64, 0, len(res))
	over, short := 0, 0
	for _, r := range res {
		ratios = append(ratios, r.Ratio())
		dratios = append(dratios, r.DeltaRatio())
		if r.DeltaRatio() > 1 {
			over++
		} else if r.DeltaRatio() < 1 {
			short++
		}
	}
	sort.Float64s(ratios)
	sort.Float64s(dratios)
	st := tables.Table{
		ID: "staleness_summary", Title: "Cost of assuming Poisson: distribution over pages",
		Source: src, Section: tables.SectionPolicies, Order: 30,
		Notes: []string{
			fmt.Sprintf("Poisson plan over-provisions (Δ_ε exact > Δ_ε Poisson) on %d of %d pages and falls short on %d.", over, len(res), short),
		},
		Columns: []tables.Column{{Name: "statistic", Kind: tables.String},
			{Name: "S exact / S Poisson", Kind: tables.Float}, {Name: "Δ_ε exact / Δ_ε Poisson", Kind: tables.Float}},
	}
	for _, q := range []struct {
		name string
		p    float64
	}{{"min", 0}, {"10%", 0.1}, {"25%", 0.25}, {"median", 0.5}, {"75%", 0.75}, {"90%", 0.9}, {"max", 1}} {
		st.Rows = append(st.Rows, []any{q.name, quantile(ratios, q.p), quantile(dratios, q.p)})
	}
	st.Rows = append(st.Rows, []any{"pages", float64(len(res)), float64(len(res))})
	b.Tables = append(b.Tables, st, pt)

	// Distribution figure: ECDFs over pages.
	ecdf := func(name string, xs []float64) tables.Curve {
		c := tables.Curve{Name: name, Step: true}
		for i, x := range xs {
			c.X = append(c.X, x)
			c.Y = append(c.Y, float64(i+1)/float64(len(xs)))
		}
		return c
	}
	b.Figures = append(b.Figures, tables.Figure{
		ID: "staleness_ratio_cdf", Title: "Cost of assuming Poisson: distribution over pages",
		Source: src, Section: tables.SectionPolicies, Order: 30, XLabel: "ratio (exact / Poisson)", YLabel: "fraction of pages ≤ x", LogX: true, YKind: tables.YProbability,
		Curves:  []tables.Curve{ecdf("S exact / S Poisson", ratios), ecdf("Δ_ε exact / Δ_ε Poisson", dratios)},
		Caption: "Left of 1: the Poisson model overstates staleness (S) or understates the revisit interval the page tolerates (Δ_ε).",
	})

	// S(Δ) for the page with the most updates.
	top := byN[0]
	u := transform.Intervals(top.Page.Updates, unit)
	var ex, po tables.Curve
	ex.Name, po.Name, po.Dashed = "exact (real series)", "Poisson, same rate", true
	for k := -30; k <= 30; k++ {
		d := top.MeanU * math.Pow(10, float64(k)/10)
		ex.X, ex.Y = append(ex.X, d), append(ex.Y, PhaseAveraged(u, d))
		po.X, po.Y = append(po.X, d), append(po.Y, Poisson(top.Lambda, d))
	}
	b.Figures = append(b.Figures, tables.Figure{
		ID: "staleness_vs_delta", Title: fmt.Sprintf("Staleness against revisit interval: %s", top.Page.Title),
		Source: src, Section: tables.SectionPolicies, Order: 31, XLabel: "revisit interval Δ", XUnit: un, YLabel: "fraction of time stale",
		LogX: true, Curves: []tables.Curve{ex, po},
	})
	return b, nil
}

// quantile is the p-quantile of sorted xs by linear interpolation between
// order statistics (type 7).
func quantile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	h := p * float64(len(xs)-1)
	i := int(math.Floor(h))
	if i >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	return xs[i] + (h-float64(i))*(xs[i+1]-xs[i])
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
