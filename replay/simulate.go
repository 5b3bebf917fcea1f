package replay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/pool"
	"github.com/revisit-dev/revisit/internal/stage"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
)

// SimOptions configure Simulate (SPEC §6.2).
type SimOptions struct {
	Update   string    // update model spec (model.Parse), e.g. "pareto:3,1"
	Samplers []string  // sampler specs (ParseSampler)
	Ts       []float64 // window lengths T (ParseTs)
	Paths    int       // independent sample paths per T and sampler
	Methods  []string  // ParseMethods; empty means all
	Seed     uint64
	// H is the bin width for random delays; 0 takes E[U]/10.
	H float64
	// XMax is the largest grid point; 0 takes the x where G_U(x) ≥ 0.999
	// (capped at 10⁴·E[U]).
	XMax    float64
	Recover bool // also recover F_U from M2, M4, M5, M6 and score it against F_U
	Workers int  // 0: runtime.GOMAXPROCS(0)
	// MaxVisits and MaxPairs bound the work of one path (0:
	// DefaultMaxVisits, DefaultMaxPairs): Simulate refuses (*OptionError) a
	// T and sampler whose expected visits, updates (T/E[U]) or M6 pairs
	// exceed them, and fails if a path reaches twice a limit.
	MaxVisits, MaxPairs int64
	Log                 func(format string, a ...any)
}

// ParseTs reads window lengths: "1e2..1e7" (every power of ten from the
// first to the last), or a comma-separated list "100,1000,5e4".
func ParseTs(s string) ([]float64, error) {
	num := func(a string) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("window length %q: want a number > 0", a)
		}
		return v, nil
	}
	if a, b, ok := strings.Cut(s, ".."); ok {
		lo, err := num(a)
		if err != nil {
			return nil, err
		}
		hi, err := num(b)
		if err != nil {
			return nil, err
		}
		if hi < lo {
			return nil, fmt.Errorf("window lengths %q: %g > %g", s, lo, hi)
		}
		var out []float64
		for t := lo; t <= hi*(1+1e-9); t *= 10 {
			out = append(out, t)
		}
		return out, nil
	}
	var out []float64
	for _, a := range strings.Split(s, ",") {
		v, err := num(a)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// SimRow is one line of the convergence table: the errors of one method
// (and kind) for one sampler and window length, over the paths.
type SimRow struct {
	Sampler, Method, Kind string
	T                     float64
	Paths                 int     // paths with a defined estimate
	WMRD, WMRDCI          float64 // mean over paths and the half-width of its 95 % interval
	KS, KSCI              float64
	// Limit errors, for the biased M1 and M3: WMRD and KS of the estimate
	// against its closed-form limit (1 − Ḡ_1, 1 − Ḡ_3); NaN for others.
	LimitWMRD, LimitKS float64
}

// SimCheck compares a simulated quantity with its closed form.
type SimCheck struct {
	Sampler, Quantity string
	T                 float64
	Sim, SimCI, Model float64
}

// SimResult is what Simulate found.
type SimResult struct {
	Update     string
	EU         float64 // E[U]
	Samplers   []string
	Methods    []string
	H, XMax    float64
	Seed       uint64
	Paths      int
	Rows       []SimRow
	Checks     []SimCheck
	TailCurves []tables.Curve // M1 and M3 tails at the largest T against their closed forms
	Elapsed    time.Duration
}

type simJob struct{ ti, path, si int }

type simOut struct {
	job simJob
	res estimator.PathResult
}

// Simulate runs the estimators on synthetic renewal processes (SPEC §6.2):
// for every window length T, sampler and path, a renewal update process
// with intervals from the update model starts with an update at time 0
// (it is not stationary: the first cycle is a full interval) and a crawler
// visits it in [0, T]; the estimates are scored with WMRD and KS against
// the model's closed-form G_U (and F_U), and M1's kept fraction, M1's tail
// and M3's tail and mean against their closed forms. Every path has its own
// random stream (seed, T index, path, sampler), so results do not depend on
// the number of workers.
func Simulate(ctx context.Context, opt SimOptions) (*SimResult, error) {
	start := time.Now()
	bad := func(err error) (*SimResult, error) { return nil, &OptionError{Err: err} }
	u, err := model.Parse(opt.Update)
	if err != nil {
		return bad(fmt.Errorf("--update: %w", err))
	}
	eu := u.Mean()
	if !(eu > 0) || math.IsInf(eu, 0) {
		return bad(fmt.Errorf("--update %s: E[U] = %g, need a finite mean (G_U exists only then)", opt.Update, eu))
	}
	if len(opt.Samplers) == 0 {
		return bad(errors.New("no sampler given"))
	}
	var smp []estimator.Sampler
	for _, spec := range opt.Samplers {
		s, err := estimator.ParseSampler(spec)
		if err == nil {
			s, err = s.ForMean(eu) // relative samplers: λ = k/E[U] of the model
		}
		if err != nil {
			return bad(err)
		}
		smp = append(smp, s)
	}
	methods := estimator.AllMethods
	if len(opt.Methods) > 0 {
		if methods, err = estimator.ParseMethods(opt.Methods); err != nil {
			return bad(err)
		}
	}
	if err := (estimator.Registry{}).CheckApplicable(methods, smp); err != nil {
		return bad(err)
	}
	if len(opt.Ts) == 0 {
		return bad(errors.New("no window length T given"))
	}
	if opt.Paths <= 0 {
		return bad(fmt.Errorf("--paths must be ≥ 1, got %d", opt.Paths))
	}
	if opt.H < 0 || opt.XMax < 0 {
		return bad(errors.New("h and x_max must be > 0 (or 0 for automatic)"))
	}
	if opt.H == 0 {
		opt.H = eu / 10
	}
	if opt.XMax == 0 {
		opt.XMax = quantileG(u, 0.999, 1e4*eu)
	}
	cfg := estimator.Config{Methods: methods, H: opt.H, XMax: opt.XMax, Recover: opt.Recover}
	if err := cfg.Check(); err != nil {
		return bad(err)
	}
	for _, s := range smp {
		if n := opt.XMax / s.Step(opt.H); n > estimator.MaxGrid {
			return bad(fmt.Errorf("sampler %s: x_max/step = %.3g grid points is too many (at most %.0e)", s.Spec, n, estimator.MaxGrid))
		}
	}
	if opt.MaxVisits < 0 || opt.MaxPairs < 0 {
		return bad(fmt.Errorf("the work limits must be ≥ 1 (got %d visits and %d pairs)", opt.MaxVisits, opt.MaxPairs))
	}
	maxVisits, maxPairs := (&Options{MaxVisits: opt.MaxVisits, MaxPairs: opt.MaxPairs}).limits()
	for _, T := range opt.Ts {
		if n := T/eu + 1; !(n <= float64(maxVisits)) {
			return bad(fmt.Errorf("window T = %g: about %.3g updates per path, more than the limit %d", T, n, maxVisits))
		}
		for _, s := range smp {
			if le := estimator.EstimateWork(s, T, &cfg).Check(maxVisits, maxPairs); le != nil {
				return bad(fmt.Errorf("window T = %g, sampler %s: %v per path", T, s.Spec, le))
			}
		}
	}
	logf := opt.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}

	// closed forms on each sampler's grid
	type truth struct{ g, f, lim1, lim3 []float64 }
	truths := make([]truth, len(smp))
	for si, s := range smp {
		gx := estimator.Grid(s.Step(opt.H), opt.XMax)
		var tr truth
		p := estimator.KeptFraction(u, s)
		withM1, withM3 := slicesContains(methods, estimator.MethodM1), slicesContains(methods, estimator.MethodM3)
		for _, x := range gx {
			tr.g = append(tr.g, u.AgeCDF(x))
			tr.f = append(tr.f, u.CDF(x))
			if withM1 {
				tr.lim1 = append(tr.lim1, 1-(estimator.ExpectG(u, s, x)-u.AgeCDF(x))/p)
			}
			if withM3 && s.Constant() {
				tr.lim3 = append(tr.lim3, 1-estimator.M3Tail(u, s.Delta, x))
			}
		}
		truths[si] = tr
	}

	work := func(ctx context.Context, j simJob) (simOut, error) {
		s := smp[j.si]
		stream := uint64(j.ti)<<40 ^ uint64(j.path)<<8 ^ uint64(j.si) ^ streamOf(0, s.Spec, 0)
		r := model.NewRand(opt.Seed, stream)
		res, err := replayPath(&renewalUpdates{next_: u.Rand, r: r}, newVisitGen(s, r), opt.Ts[j.ti], s, &cfg,
			estimator.NewGuard(ctx, maxVisits, maxPairs))
		if err != nil {
			// a path stopped by a limit: the whole simulation fails
			return simOut{}, fmt.Errorf("simulate: T = %g, sampler %s, path %d: %w", opt.Ts[j.ti], s.Spec, j.path, err)
		}
		return simOut{job: j, res: res}, nil
	}
	produce := func(ctx context.Context, send pool.Send[simJob]) error {
		for ti := range opt.Ts {
			for si := range smp {
				for p := 0; p < opt.Paths; p++ {
					if err := send(simJob{ti, p, si}, 1); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}

	type key struct {
		si, ti       int
		method, kind string
	}
	type acc struct{ w, k, lw, lk []float64 }
	accs := map[key]*acc{}
	p1 := map[[2]int][]float64{}
	d3 := map[[2]int][]float64{}
	last := len(opt.Ts) - 1
	tail1 := make([][]float64, len(smp)) // Σ over paths of M1's ECDF at the largest T
	tail3 := make([][]float64, len(smp))
	n1, n3 := make([]int, len(smp)), make([]int, len(smp))
	done, total := 0, len(opt.Ts)*len(smp)*opt.Paths
	lastLog := time.Now()
	// Results are folded in job order (T, sampler, path), whatever order
	// the workers finish in (pool.Ordered): sums of floating-point numbers
	// depend on their order, and the same seed must give the same bits.
	fold := func(o simOut) {
		j, tr := o.job, truths[o.job.si]
		p1[[2]int{j.si, j.ti}] = append(p1[[2]int{j.si, j.ti}], o.res.P1)
		d3[[2]int{j.si, j.ti}] = append(d3[[2]int{j.si, j.ti}], o.res.MeanD3)
		for _, e := range o.res.Est {
			k := key{j.si, j.ti, e.Method, e.Kind}
			a := accs[k]
			if a == nil {
				a = &acc{}
				accs[k] = a
			}
			ref := tr.g
			if e.Kind == estimator.KindF {
				ref = tr.f
			}
			a.w = append(a.w, wmrd(e.CDF.P, ref))
			a.k = append(a.k, ks(e.CDF.P, ref))
			var lim []float64
			switch e.Method {
			case estimator.MethodM1:
				lim = tr.lim1
				if j.ti == last && e.CDF.Samples > 0 {
					tail1[j.si] = addTo(tail1[j.si], e.CDF.P)
					n1[j.si]++
				}
			case estimator.MethodM3:
				lim = tr.lim3
				if j.ti == last && e.CDF.Samples > 0 {
					tail3[j.si] = addTo(tail3[j.si], e.CDF.P)
					n3[j.si]++
				}
			}
			if lim != nil {
				a.lw = append(a.lw, wmrd(e.CDF.P, lim))
				a.lk = append(a.lk, ks(e.CDF.P, lim))
			}
		}
		done++
		if time.Since(lastLog) > 5*time.Second {
			logf("simulate: %d of %d paths", done, total)
			lastLog = time.Now()
		}
	}
	// A simulation writes no output directory: its result is returned.
	if err := stage.Run(ctx, stage.Output{}, stage.Stage[simJob, simOut]{
		Pool: pool.Options{Workers: opt.Workers}, Produce: produce, Work: work,
		Sink: func(o simOut) error {
			fold(o)
			return nil
		},
	}); err != nil {
		return nil, err
	}

	res := &SimResult{Update: u.String(), EU: eu, Samplers: opt.Samplers, Methods: methods, H: opt.H,
		XMax: opt.XMax, Seed: opt.Seed, Paths: opt.Paths}
	for si, s := range smp {
		for _, m := range methods {
			for _, kind := range []string{estimator.KindG, estimator.KindF} {
				for ti, T := range opt.Ts {
					a := accs[key{si, ti, m, kind}]
					if a == nil {
						continue
					}
					row := SimRow{Sampler: s.Spec, Method: m, Kind: kind, T: T, LimitWMRD: math.NaN(), LimitKS: math.NaN()}
					row.WMRD, row.WMRDCI, row.Paths = meanCI(a.w)
					row.KS, row.KSCI, _ = meanCI(a.k)
					if len(a.lw) > 0 {
						row.LimitWMRD, _, _ = meanCI(a.lw)
						row.LimitKS, _, _ = meanCI(a.lk)
					}
					res.Rows = append(res.Rows, row)
				}
			}
		}
		for ti, T := range opt.Ts {
			if slicesContains(methods, estimator.MethodM1) {
				m, ci, _ := meanCI(p1[[2]int{si, ti}])
				res.Checks = append(res.Checks, SimCheck{s.Spec, "M1 kept fraction p vs E[G_U(S)]", T, m, ci, estimator.KeptFraction(u, s)})
			}
			if s.Constant() && slicesContains(methods, estimator.MethodM3) {
				m, ci, _ := meanCI(d3[[2]int{si, ti}])
				res.Checks = append(res.Checks, SimCheck{s.Spec, "M3 mean E[D_3] vs Δ/G_U(Δ)", T, m, ci, estimator.MeanD3(u, s.Delta)})
			}
		}
		gx := estimator.Grid(s.Step(opt.H), opt.XMax)
		tr := truths[si]
		if n1[si] > 0 {
			res.TailCurves = append(res.TailCurves,
				tables.Curve{Name: s.Spec + " M1 simulated", X: gx, Y: survival(tail1[si], n1[si])},
				tables.Curve{Name: s.Spec + " M1 model Ḡ_1", X: gx, Y: survival(tr.lim1, 1), Dashed: true})
		}
		if n3[si] > 0 {
			res.TailCurves = append(res.TailCurves,
				tables.Curve{Name: s.Spec + " M3 simulated", X: gx, Y: survival(tail3[si], n3[si]), Step: true},
				tables.Curve{Name: s.Spec + " M3 model Ḡ_3", X: gx, Y: survival(tr.lim3, 1), Dashed: true})
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func addTo(sum, p []float64) []float64 {
	if sum == nil {
		sum = make([]float64, len(p))
	}
	for i, v := range p {
		sum[i] += v
	}
	return sum
}

// survival is 1 − sum/n.
func survival(sum []float64, n int) []float64 {
	out := make([]float64, len(sum))
	for i, v := range sum {
		out[i] = 1 - v/float64(n)
	}
	return out
}

// quantileG is the smallest x (by bisection) with G_U(x) ≥ q, capped at cap.
func quantileG(u model.Dist, q, cap float64) float64 {
	if u.AgeCDF(cap) < q {
		return cap
	}
	lo, hi := 0.0, cap
	for range 200 {
		mid := (lo + hi) / 2
		if u.AgeCDF(mid) >= q {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// Section of simulate's tables and figures in a report: Simulation, after
// the SPEC §7 sections.
const simSection = tables.SectionSimulation

// Bundle turns the result into tables and figures for `revisit report`:
// simulate_convergence (errors per method and T), simulate_checks (model
// vs simulation), one convergence figure per sampler (mean WMRD against T)
// and the M1/M3 tail figure.
func (r *SimResult) Bundle() *tables.Bundle {
	src := fmt.Sprintf("revisit simulate: update %s (E[U] = %.4g), samplers %s, %d paths per T, h = %.4g, x_max = %.4g, seed %d",
		r.Update, r.EU, strings.Join(r.Samplers, ", "), r.Paths, r.H, r.XMax, r.Seed)
	conv := tables.Table{ID: "simulate_convergence", Title: "Convergence of the estimators on synthetic renewal paths",
		Source: src, Section: simSection, Order: 1,
		Notes: []string{"WMRD and KS against the closed-form G_U (kind G) or F_U (kind F) on the grid [0, x_max]; ± is the half-width of a 95 % interval over paths.",
			"limit columns: M1 and M3 against their closed-form biased limits 1 − Ḡ_1 and 1 − Ḡ_3 (docs/methods.md#m1, #m3).",
			"M6 with random delays estimates the mean of G_U over each bin (y_n − h, y_n]: at a fixed h its KS to G_U(y_n) levels off near h·g_U(0)/2 = h/(2E[U]) as T grows (consistent as h → 0)."},
		Columns: []tables.Column{{Name: "sampler", Kind: tables.String}, {Name: "method", Kind: tables.String},
			{Name: "kind", Kind: tables.String}, {Name: "T", Kind: tables.Float}, {Name: "paths", Kind: tables.Int},
			{Name: "WMRD", Kind: tables.Float}, {Name: "WMRD ±", Kind: tables.Float},
			{Name: "KS", Kind: tables.Float}, {Name: "KS ±", Kind: tables.Float},
			{Name: "WMRD vs limit", Kind: tables.Float}, {Name: "KS vs limit", Kind: tables.Float}}}
	for _, row := range r.Rows {
		conv.Rows = append(conv.Rows, []any{row.Sampler, row.Method, row.Kind, row.T, tables.I(row.Paths),
			row.WMRD, row.WMRDCI, row.KS, row.KSCI, row.LimitWMRD, row.LimitKS})
	}
	checks := tables.Table{ID: "simulate_checks", Title: "Model against simulation", Source: src,
		Section: simSection, Order: 2,
		Columns: []tables.Column{{Name: "sampler", Kind: tables.String}, {Name: "quantity", Kind: tables.String},
			{Name: "T", Kind: tables.Float}, {Name: "simulated", Kind: tables.Float}, {Name: "±", Kind: tables.Float},
			{Name: "model", Kind: tables.Float}, {Name: "relative difference", Kind: tables.Percent}}}
	for _, c := range r.Checks {
		checks.Rows = append(checks.Rows, []any{c.Sampler, c.Quantity, c.T, c.Sim, c.SimCI, c.Model, (c.Sim - c.Model) / c.Model})
	}
	b := &tables.Bundle{Tables: []tables.Table{conv}}
	if len(checks.Rows) > 0 { // only M1 and M3 have closed-form checks
		b.Tables = append(b.Tables, checks)
	}
	for i, s := range r.Samplers {
		fig := tables.Figure{ID: "simulate_convergence_" + sanitizeID(s), Title: "Convergence with sampler " + s,
			Source: src, Section: simSection, Order: 10 + i, XLabel: "window T", YLabel: "mean WMRD against G_U",
			LogX: true, LogY: true}
		for _, m := range r.Methods {
			var c tables.Curve
			c.Name = m
			for _, row := range r.Rows {
				if row.Sampler == s && row.Method == m && row.Kind == estimator.KindG && row.WMRD > 0 {
					c.X = append(c.X, row.T)
					c.Y = append(c.Y, row.WMRD)
				}
			}
			if len(c.X) > 0 {
				fig.Curves = append(fig.Curves, c)
			}
		}
		b.Figures = append(b.Figures, fig)
	}
	if len(r.TailCurves) > 0 {
		b.Figures = append(b.Figures, tables.Figure{ID: "simulate_tails", Title: "M1 and M3 tails: simulation against the model",
			Source: src, Section: simSection, Order: 50, XLabel: "x", YLabel: "tail 1 − Ĥ(x)", LogY: true, YKind: tables.YProbability,
			Curves: r.TailCurves, Caption: "Mean over paths at the largest T; dashed: closed forms Ḡ_1 and Ḡ_3 (docs/methods.md#m1, #m3)."})
	}
	return b
}

func sanitizeID(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}
