package nhpp

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// DefaultTheta is the consistency threshold of the windows when none is
// given (Options.Theta, revisit analyze --nhpp-theta).
const DefaultTheta = 0.1

// Options configures Analyze.
type Options struct {
	// Theta is the consistency threshold of Windows (0 → DefaultTheta).
	Theta float64
	// MinUpdates skips pages with fewer updates (0 → 20).
	MinUpdates int
	// Tau is the visit interval of the comparison baselines (naive, Cho–GM,
	// Matloff) in the unit; 0 uses each window's mean interval.
	Tau float64
	// Top is the number of pages listed in the per-page table (0 → 20);
	// the windows of the page with the most updates are listed in full.
	Top int
	// Dataset names the input in the tables' provenance line.
	Dataset string
}

func (o Options) withDefaults() Options {
	if o.Theta == 0 {
		o.Theta = DefaultTheta
	}
	if o.MinUpdates == 0 {
		o.MinUpdates = 20
	}
	if o.MinUpdates < MinWindow+1 {
		o.MinUpdates = MinWindow + 1
	}
	if o.Top == 0 {
		o.Top = 20
	}
	return o
}

// PageResult is the localized-rate analysis of one page.
type PageResult struct {
	Page    *series.Page
	Times   []float64 // update times from the first, in the unit
	Windows []Window
	// SSE[s][e] and Points[s] accumulate the rebuild error of estimator e
	// (EstimatorNames order) over the windows of state s; Invalid[s][e]
	// counts windows where the estimate was undefined.
	SSE     [3][]float64
	RelSSE  [3][]float64 // Σ ((t̂_i − t_i)/t_n)²
	Invalid [3][]int
	Valid   [3][]int // points of the windows where estimator e existed
	// WindowRel[s][e] lists, per window of state s, estimator e's relative
	// RMSE sqrt(Σ((t̂_i − t_i)/t_n)²/n): its median is robust to the few
	// short windows where an estimate explodes.
	WindowRel [3][][]float64
	Points    [3]int
	// Pred[e] is the next-update prediction of Predictors[e] over all windows.
	Pred []Prediction
}

// AnalyzePage windows one page and scores every estimator on it. It
// returns ctx.Err() when ctx is cancelled, checked before every window and
// every 4096 predicted visits.
func AnalyzePage(ctx context.Context, p *series.Page, unit float64, opt Options) (*PageResult, error) {
	opt = opt.withDefaults()
	times := transform.Times(p.Updates, unit)
	ws, err := Windows(times, opt.Theta)
	if err != nil {
		return nil, fmt.Errorf("page %d %q: %w", p.ID, p.Title, err)
	}
	r := &PageResult{Page: p, Times: times, Windows: ws, Pred: make([]Prediction, len(Predictors))}
	for s := range r.SSE {
		r.SSE[s] = make([]float64, len(EstimatorNames))
		r.RelSSE[s] = make([]float64, len(EstimatorNames))
		r.Invalid[s] = make([]int, len(EstimatorNames))
		r.Valid[s] = make([]int, len(EstimatorNames))
		r.WindowRel[s] = make([][]float64, len(EstimatorNames))
	}
	for _, w := range ws {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lt := w.Local(times)
		s := int(w.State)
		tn := lt[len(lt)-1]
		for e, c := range Estimates(lt, opt.Tau) {
			sse := RebuildSSE(lt, c)
			if math.IsNaN(sse) || math.IsInf(sse, 0) {
				r.Invalid[s][e]++
				continue
			}
			r.SSE[s][e] += sse
			r.Valid[s][e] += len(lt)
			r.WindowRel[s][e] = append(r.WindowRel[s][e], math.Sqrt(sse/(tn*tn)/float64(len(lt))))
			r.RelSSE[s][e] += sse / (tn * tn)
		}
		r.Points[s] += len(lt)
		for e, est := range Predictors {
			pr, err := predict(ctx, lt, est)
			if err != nil {
				return nil, err
			}
			r.Pred[e].Add(pr)
		}
	}
	return r, nil
}

// Analyze is the NHPP stage for reports (SPEC §7 item 7): per window type
// the mean squared error of the update times rebuilt by every estimator,
// next-update prediction scores, the windows of the page with the most
// updates, a per-page summary, and a figure of that page's update count
// against the corrected Weibull fits. Times are in unit seconds. A
// cancelled ctx stops it within a window's work: it returns ctx.Err() and
// no bundle.
func Analyze(ctx context.Context, pages []series.Page, unit float64, opt Options) (*tables.Bundle, error) {
	opt = opt.withDefaults()
	if !(unit > 0) {
		return nil, fmt.Errorf("nhpp: unit %g s must be positive", unit)
	}
	var res []*PageResult
	for i := range pages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(pages[i].Updates) < opt.MinUpdates {
			continue
		}
		r, err := AnalyzePage(ctx, &pages[i], unit, opt)
		if err != nil {
			return nil, err
		}
		res = append(res, r)
	}
	un := transform.UnitName(unit)
	tau := "once per mean interval of each window"
	if opt.Tau > 0 {
		tau = "every " + human.Duration(opt.Tau*unit)
	}
	src := fmt.Sprintf("dataset %s; %d of %d pages with ≥ %d updates; θ = %g (a window ends where the mean time between updates moves by more than the fraction θ); baselines visit %s; unit %s",
		orDash(opt.Dataset), len(res), len(pages), opt.MinUpdates, opt.Theta, tau, un)
	b := &tables.Bundle{}
	if len(res) == 0 {
		b.Tables = append(b.Tables, tables.Table{ID: "nhpp_mse", Title: "Localized rate (NHPP): no page qualifies", Source: src,
			Section: tables.SectionPolicies, Order: 10, Columns: []tables.Column{{Name: "note", Kind: tables.String}},
			Rows: [][]any{{fmt.Sprintf("no page has ≥ %d updates", opt.MinUpdates)}}})
		return b, nil
	}

	// MSE per window type and estimator.
	mse := tables.Table{
		ID: "nhpp_mse", Title: "Localized rate (NHPP): error of the rebuilt update times per window type",
		Source: src, Section: tables.SectionPolicies, Order: 10,
		Notes: []string{
			"Windows: MTBU(t_i) = t_i/i from the page's first update; each window is fitted in its own time, from its origin (the previous window's last update).",
			"Rebuilt times t̂_i = Λ^{−1}(i); MSE = Σ(t̂_i − t_i)²/points; relative RMSE = sqrt(Σ((t̂_i − t_i)/t_n)²/points).",
			"The corrected intensity's factor (n−3)/(n−2) with a small β̃ makes Λ̌^{−1} explode in short bursty windows: compare the medians.",
		},
		Columns: []tables.Column{{Name: "window type", Kind: tables.String}, {Name: "estimator", Kind: tables.String},
			{Name: "windows", Kind: tables.Int}, {Name: "points", Kind: tables.Int}, {Name: "undefined", Kind: tables.Int, Doc: "windows where the estimate does not exist"},
			{Name: "MSE", Unit: un + "²", Kind: tables.Duration, UnitGroup: "error"}, {Name: "RMSE", Unit: un, Kind: tables.Duration, UnitGroup: "error"}, {Name: "relative RMSE", Kind: tables.Percent},
			{Name: "median window relative RMSE", Kind: tables.Percent, Doc: "median over windows of sqrt(Σ((t̂_i − t_i)/t_n)²/n)"}},
	}
	for _, st := range States {
		s := int(st)
		nw := 0
		for _, r := range res {
			for _, w := range r.Windows {
				if w.State == st {
					nw++
				}
			}
		}
		if nw == 0 {
			continue
		}
		for e, name := range EstimatorNames {
			var sse, rel float64
			pts, inv := 0, 0
			var per []float64
			for _, r := range res {
				sse += r.SSE[s][e]
				rel += r.RelSSE[s][e]
				inv += r.Invalid[s][e]
				pts += r.Valid[s][e]
				per = append(per, r.WindowRel[s][e]...)
			}
			med := math.NaN()
			if len(per) > 0 {
				sort.Float64s(per)
				med = per[len(per)/2]
			}
			m := sse / float64(pts)
			mse.Rows = append(mse.Rows, []any{st.String(), name, tables.I(nw), tables.I(pts), tables.I(inv), m, math.Sqrt(m), math.Sqrt(rel / float64(pts)), med})
		}
	}

	// Prediction.
	pred := tables.Table{
		ID: "nhpp_prediction", Title: "Localized rate (NHPP): visiting at the predicted next update",
		Source: src, Section: tables.SectionPolicies, Order: 11,
		Notes: []string{"In each window the crawler knows its first 4 updates, then visits at Λ^{−1}(Λ(last visit) + 1), refitting on what it has learned; precision = detected updates / visits."},
		Columns: []tables.Column{{Name: "estimator", Kind: tables.String}, {Name: "updates", Kind: tables.Int},
			{Name: "visits", Kind: tables.Int}, {Name: "detected", Kind: tables.Int}, {Name: "premature", Kind: tables.Int},
			{Name: "precision", Kind: tables.Percent}, {Name: "recall", Kind: tables.Percent, Doc: "detected / updates"},
			{Name: "fallbacks", Kind: tables.Int, Doc: "visits planned by the Poisson MLE because the estimate was undefined"}},
	}
	for e, est := range Predictors {
		var p Prediction
		for _, r := range res {
			p.Add(r.Pred[e])
		}
		pred.Rows = append(pred.Rows, []any{est.Name, tables.I(p.Updates), tables.I(p.Visits), tables.I(p.Detected),
			tables.I(p.Premature), p.Precision(), p.Recall(), tables.I(p.Fallbacks)})
	}

	// Per-page summary.
	sort.SliceStable(res, func(i, j int) bool { return len(res[i].Times) > len(res[j].Times) })
	pp := tables.Table{
		ID: "nhpp_pages", Title: "Localized rate (NHPP): consistent windows per page", Source: src, Section: tables.SectionPolicies, Order: 12,
		Columns: []tables.Column{{Name: "page", Kind: tables.String}, {Name: "updates", Kind: tables.Int}, {Name: "windows", Kind: tables.Int},
			{Name: "increasing", Kind: tables.Int}, {Name: "decreasing", Kind: tables.Int}, {Name: "constant", Kind: tables.Int},
			{Name: "median window", Kind: tables.Int, Doc: "updates per window"},
			{Name: "precision (corrected)", Kind: tables.Percent}, {Name: "precision (Poisson)", Kind: tables.Percent}},
	}
	for i, r := range res {
		if i >= opt.Top {
			break
		}
		var cnt [3]int
		ns := make([]int, 0, len(r.Windows))
		for _, w := range r.Windows {
			cnt[w.State]++
			ns = append(ns, w.N())
		}
		sort.Ints(ns)
		if len(ns) == 0 {
			continue
		}
		pp.Rows = append(pp.Rows, []any{r.Page.Title, tables.I(len(r.Times)), tables.I(len(r.Windows)),
			tables.I(cnt[Increasing]), tables.I(cnt[Decreasing]), tables.I(cnt[Constant]), tables.I(ns[len(ns)/2]),
			r.Pred[1].Precision(), r.Pred[3].Precision()})
	}

	// Windows of the top page.
	top := res[0]
	tw := tables.Table{
		ID: "nhpp_top_windows", Title: fmt.Sprintf("Localized rate (NHPP): windows of %s", top.Page.Title), Source: src, Section: tables.SectionPolicies, Order: 13,
		Columns: []tables.Column{{Name: "window", Kind: tables.Int}, {Name: "from", Kind: tables.Time}, {Name: "to", Kind: tables.Time},
			{Name: "type", Kind: tables.String}, {Name: "n", Kind: tables.Int},
			{Name: "β̂", Kind: tables.Float}, {Name: "β̃", Kind: tables.Float}, {Name: "η̂", Unit: un, Kind: tables.Duration},
			{Name: "Duane γ", Kind: tables.Float}, {Name: "Duane α", Kind: tables.Float}, {Name: "Poisson rate", Unit: "1/" + un, Kind: tables.Float}},
	}
	fig := tables.Figure{
		ID: "nhpp_top_counts", Title: fmt.Sprintf("Update count and per-window corrected Weibull fit: %s", top.Page.Title),
		Source: src, Section: tables.SectionPolicies, Order: 10, XLabel: "time since the first update", XUnit: un, YLabel: "updates N(t)",
	}
	obs := tables.Curve{Name: "updates", Step: true}
	for i, x := range top.Times {
		obs.X, obs.Y = append(obs.X, x), append(obs.Y, float64(i))
	}
	fitc := tables.Curve{Name: "Weibull corrected, per window", Dashed: true}
	duaneFailed := 0
	for k, w := range top.Windows {
		lt := w.Local(top.Times)
		wf := FitWeibull(lt)
		d := FitDuane(lt)
		if d.Failed() {
			duaneFailed++
			d = Duane{Gamma: math.NaN(), Alpha: math.NaN()}
		}
		if k < 200 {
			tw.Rows = append(tw.Rows, []any{tables.I(k + 1), top.Page.Updates[w.Origin], top.Page.Updates[w.End], w.State.String(), tables.I(w.N()),
				wf.Beta, wf.BetaCorrected(), wf.Eta, d.Gamma, d.Alpha, Poisson(lt).A})
		}
		c := wf.Corrected()
		if !c.Valid() {
			continue
		}
		o := top.Times[w.Origin]
		for j := 0; j <= 20; j++ {
			x := lt[len(lt)-1] * float64(j) / 20
			fitc.X = append(fitc.X, o+x)
			fitc.Y = append(fitc.Y, float64(w.Origin)+c.At(x))
		}
	}
	tw.Notes = append(tw.Notes, fmt.Sprintf("Duane: MTBU(t) = α t^γ on the window's local times; α is the MTBU at t = 1 %s. Failed fits (γ outside (−1, 1): the count would not grow, or grow at least as fast as t², a burst after a gap) are left empty: %d of %d windows.", un, duaneFailed, len(top.Windows)))
	fig.Curves = []tables.Curve{obs, fitc}
	b.Tables = append(b.Tables, mse, pred, pp, tw)
	b.Figures = append(b.Figures, fig)
	return b, nil
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
