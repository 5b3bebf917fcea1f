package analysis

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/pool"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stage"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/replay"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// Defaults of Options: the zero value of each field takes them, and
// revisit analyze's flags start from them.
const (
	DefaultTop          = 10      // top-N pages by number of updates
	DefaultClosest      = 5       // closest-to-Poisson pages given ACF and Hurst tables
	DefaultAggregateMax = 1 << 18 // intervals sampled for the aggregate tail fits (2¹⁸)
)

// Options are the knobs of Run; zero values take the documented defaults.
type Options struct {
	Dataset string // dataset directory (SPEC §2)
	Replay  string // replay output directory; "" = no error tables
	Out     string // output directory

	Unit       float64 // interval unit in seconds; 0 = hours, or days for date-only sources (transform.DefaultUnit)
	Top        int     // top-N pages (default DefaultTop)
	MinUpdates int     // K of the Poisson screen (default 100)
	Band       float64 // CoV band |v − 1| ≤ Band (default 0.1)
	MaxLag     int     // ACF lags 1…MaxLag (default 100)
	Closest    int     // closest-to-Poisson pages given ACF and Hurst (default DefaultClosest)
	XMax       float64 // errors on [0, XMax] in Unit; 0 = each page on its own replay grid (the replay's x_max of the page)
	Extra      int     // points inserted per step for step estimates (default DefaultExtra = 9)
	Seed       uint64  // seed of every Monte-Carlo draw
	Workers    int     // pages analysed in parallel; 0 = runtime.GOMAXPROCS(0); the results do not depend on it
	Reps       int     // Lilliefors Monte-Carlo replicates (default 999)
	// AggregateMax bounds the intervals kept for the aggregate tail fits:
	// a uniform sample of every interval of every page, so each interval
	// counts once whatever its page (default DefaultAggregateMax): the AggregateMax
	// intervals with the smallest hash of (Seed, page id, interval index)
	// (bottomK), the same whether the pages are read in one process or
	// in shards.
	AggregateMax int

	// Estimates reads a replay directory into rows and a provenance line;
	// nil is ReadReplay (tests pass hand-made rows).
	Estimates func(dir string) ([]EstimateRow, string, error)
	// Methods is the method registry the estimates' methods are looked
	// up in (class, step interpolation, rank); the zero value is
	// revisit's own estimators.
	Methods estimator.Registry

	// Localized adds the NHPP and staleness analyses on the busiest pages.
	Localized LocalizedOptions
	// LocalizedApart returns their tables and figures in Result.Localized,
	// one bundle per analysis, instead of adding them to the analysis
	// bundle (revisit run writes them as results directories of their own).
	LocalizedApart bool

	// Select keeps only the pages it selects (--pages, --match, --group),
	// before the shard test; nil analyses every page. What it selected is
	// Result.Selection and goes into the tables' Source lines.
	Select *dataset.Selection

	// Log receives progress lines (nil: silent).
	Log io.Writer

	// budget is the bytes the giant pages analysed at once may need
	// between them (byteGate); 0 is pageBudget. Tests set it lower.
	budget int64
}

func (o *Options) defaults() {
	if o.Top <= 0 {
		o.Top = DefaultTop
	}
	// The screen's knobs share ScreenOptions' defaults.
	s := ScreenOptions{MinUpdates: o.MinUpdates, Band: o.Band, MaxLag: o.MaxLag, Reps: o.Reps}
	s.defaults()
	o.MinUpdates, o.Band, o.MaxLag, o.Reps = s.MinUpdates, s.Band, s.MaxLag, s.Reps
	if o.Closest <= 0 {
		o.Closest = DefaultClosest
	}
	if o.Extra < 0 {
		o.Extra = 0
	} else if o.Extra == 0 {
		o.Extra = DefaultExtra
	}
	if o.AggregateMax <= 0 {
		o.AggregateMax = DefaultAggregateMax
	}
	if o.Estimates == nil {
		o.Estimates = ReadReplay
	}
}

// Result is what Run computed; Bundle holds the same as tables and
// figures for reports.
type Result struct {
	Unit     float64
	UnitName string

	Pages         int // pages read
	Updates       int64
	Intervals     int64   // intervals of all pages (the aggregate)
	First, Last   int64   // Unix seconds over all pages
	Screened      int     // pages with ≥ K updates
	InBand        int     // of those, |v − 1| ≤ Band
	CoVCounts     []int64 // screened pages per bin of the CoV histogram (width 0.1, the last bin open)
	Top           []PageStats
	Candidates    []CandidateRow // pages in the band, with their checks
	Closest       []Candidate    // the pages with the smallest |v − 1| among the screened
	HurstScreened []HurstSummary // DFA-1 and local Whittle over every screened page (page_stats)
	LRD           LRDSummary     // the long-memory verdicts over every screened page (page_stats)
	ScreenAll     ScreenCounts   // the screen's tests over every screened page, in the band or not (page_stats)
	Aggregate     []Fit          // fits to the aggregate, best AIC first; none below MinFitIntervals
	AggregateN    int            // intervals sampled for the aggregate fits (≤ AggregateMax)
	AggregateFitN int            // of those, the positive ones the fits use
	TopFits       []Fit          // fits to the top page's intervals; none below MinFitIntervals
	TopFitN       int            // positive intervals of the top page
	Survival      [][2]float64
	TopSurvival   [][2]float64
	PageErrors    []PageError
	Summary       []MethodSummary
	Evidence      []MethodSummary // Summary over the pages with ≥ MinEvidenceIntervals intervals (EvidenceSummary)
	ReplaySource  string
	Selection     *dataset.SelectionSummary // the page selection, nil without one

	Bundle    *tables.Bundle
	Localized []KindBundle // with Options.LocalizedApart: the NHPP and staleness bundles, in the order they ran
}

// PageSource calls fn for every page (dataset.Reader.Each has this shape).
type PageSource func(fn func(*series.Page) error) error

// posSource calls fn for every page with its position in the whole
// dataset (dataset.Reader.EachPos has this shape).
type posSource func(fn func(pos int64, p *series.Page) error) error

// counted numbers the pages of src from 0.
func counted(src PageSource) posSource {
	return func(fn func(int64, *series.Page) error) error {
		var pos int64 = -1
		return src(func(p *series.Page) error {
			pos++
			return fn(pos, p)
		})
	}
}

// Run reads the dataset (and the replay output, if any), computes every
// statistic of SPEC §5 and writes to opt.Out: the tables/figures bundle
// (tables/*.json, figures/*.json) for reports, and page_stats,
// screen, hurst, tail_fits and page_errors as Parquet and CSV.
func Run(ctx context.Context, opt Options) (*Result, error) {
	r, err := dataset.Open(opt.Dataset)
	if err != nil {
		return nil, err
	}
	return Analyze(ctx, r.Each, opt)
}

var errStop = errors.New("stop")

// Analyze is Run on any source of pages (Run passes the dataset's Each).
// The results directory opt.Out is written atomically (tables.WriteResults): it
// appears, or replaces an earlier one, only when everything succeeded.
func Analyze(ctx context.Context, pages PageSource, opt Options) (*Result, error) {
	opt.defaults()
	if opt.Out == "" {
		return nil, errorf("no output directory")
	}
	return analyze(ctx, pages, opt)
}

// analyze computes everything and writes the results into out: one pass
// over the pages into a Partial (page_stats streamed to out), then
// finishTables.
func analyze(ctx context.Context, pages PageSource, opt Options) (*Result, error) {
	// One Lilliefors null cache for the pass and the closest pages after it.
	null := NewLillieforsNull(opt.Seed, opt.Reps)
	a := newPass(counted(pages), opt, shard.Spec{}, opt.Unit, null)
	var statsW *tables.FileWriter
	var res *Result
	s := a.stage(func(tmp, unitName string) (err error) {
		statsW, err = tables.NewFileWriter(filepath.Join(tmp, "page_stats"), pageStatsColumns(unitName))
		return err
	}, func(_ int64, st PageStats, sc *PageScreen) error {
		return statsW.Append(pageStatsRow(st, sc))
	}, func(tmp string, p *Partial) (err error) {
		w := statsW
		statsW = nil // closed, or aborted by Close
		if err := w.Close(); err != nil {
			return errorf("%w", err)
		}
		res, err = finishTables(ctx, p, a.rows, a.opt, null, tmp)
		return err
	}, func() {
		if statsW != nil {
			statsW.Abort()
		}
	})
	if err := tables.WriteResults(ctx, opt.Out, "analysis", s.Fill(ctx)); err != nil {
		return nil, err
	}
	return res, nil
}

// pass is the analysis's one pass over the pages of shard sp (every page
// for the zero Spec; pages may hold only the shard's own,
// dataset.Reader.ShardSource), into the additive partial statistics
// (Partial), as a stage (internal/stage, the shape of replay and
// estimate): Open reads the unit (when not given, the default unit of the
// first page) and the replay rows, if any (all of them: the row order is
// the order of the error tables); the pages go through the ordered pool,
// analysed on the workers (analyzePage) and folded into the Partial in
// dataset order; Finish completes it with the busiest pages, the
// aggregate sample and the errors of the owned pages' estimates. null
// caches the Lilliefors null distributions of the screen (see
// screenOptions).
type pass struct {
	pages posSource
	opt   Options
	sp    shard.Spec
	p     *Partial
	rows  []EstimateRow
	sopt  ScreenOptions

	replayed   map[int64][]float64 // the replayed pages' intervals (below)
	resolution map[int64]float64   // and their time resolution, in units
	unselected map[int64]bool      // replayed pages the selection left out: not compared

	top  *transform.TopKeeper
	keep *busiestKeeper
	agg  *bottomK

	workers  int
	seedHash uint64
	budget   int64
	gate     *byteGate
}

func newPass(pages posSource, opt Options, sp shard.Spec, unit float64, null *LillieforsNull) *pass {
	a := &pass{opt: opt, sp: sp, resolution: map[int64]float64{}, unselected: map[int64]bool{}}
	a.p = &Partial{Tool: "revisit", Format: PartialFormat, Shard: sp.String(), I: sp.I, N: sp.N, Opt: partialOptionsOf(&a.opt), Unit: unit, Bins: survBins{}}
	a.pages = selectPages(&a.opt, pages, a.p, func(pg *series.Page) {
		if _, ok := a.replayed[pg.ID]; ok {
			a.unselected[pg.ID] = true
		}
	})
	a.top = transform.NewTopKeeper(opt.Top)
	a.keep = newLocalizedKeeper(&a.opt)
	a.agg = newBottomK(opt.AggregateMax, opt.Seed)
	a.sopt = screenOptions(&a.opt, null)
	a.p.CoVCounts = make([]int64, covBins)
	a.workers = opt.Workers
	if a.workers <= 0 {
		a.workers = runtime.GOMAXPROCS(0)
	}
	a.seedHash = shard.Hash(int64(opt.Seed))
	// A giant page (its analysis estimated above a worker's share of the
	// budget) waits for the bytes at the gate, so that two or more giants
	// analysed at once cannot need more than the budget between them.
	a.budget = opt.budget
	if a.budget <= 0 {
		a.budget = pageBudget
	}
	a.gate = newByteGate(a.budget)
	return a
}

// stage is the pass writing into the temporary directory of its output:
// begin is called in Open with that directory and the unit name before
// the first page (it creates the writers), stat with each owned page's
// dataset position, statistics and screen (nil when the page is not
// screened) in dataset order, finish in Finish with the completed
// Partial, and abort, when not nil, releases the writers when the pass
// failed. The errors of the pages and of begin and stat are the
// analysis's own (*StageError).
func (a *pass) stage(begin func(tmp, unitName string) error, stat func(pos int64, st PageStats, sc *PageScreen) error,
	finish func(tmp string, p *Partial) error, abort func()) stage.Stage[pageJob, *pageResult] {
	// The pages go through a worker pool: the per-page work (intervals,
	// statistics, the screen's checks, the aggregate keys and survival
	// bins) runs on opt.Workers goroutines, and the results are folded
	// into the Partial in dataset order, so every output is the same, bit
	// for bit, for any number of workers.
	return stage.Stage[pageJob, *pageResult]{
		Pool: pool.Options{Workers: a.workers},
		Open: func(tmp string) error { return a.open(tmp, begin) },
		Produce: func(ctx context.Context, send pool.Send[pageJob]) error {
			err := a.pages(func(pos int64, pg *series.Page) error {
				if err := ctx.Err(); err != nil {
					return err
				}
				if !a.sp.Owns(pg.ID) {
					return nil
				}
				return send(pageJob{pos, pg}, pageTokens(len(pg.Updates), a.workers))
			})
			return wrapPass(err)
		},
		Work: func(_ context.Context, j pageJob) (*pageResult, error) {
			if w := pageAnalysisBytes(len(j.pg.Updates), a.opt.MinUpdates, a.opt.MaxLag); w > a.budget/int64(a.workers) {
				defer a.gate.release(a.gate.acquire(w))
			}
			return analyzePage(j, a.p.Unit, &a.opt, a.sopt, a.seedHash), nil
		},
		Sink: func(r *pageResult) error {
			if err := stat(r.pos, r.st, r.sc); err != nil {
				return errorf("%w", err)
			}
			a.fold(r)
			return nil
		},
		Finish: func(tmp string) error {
			if err := a.finish(); err != nil {
				return err
			}
			return finish(tmp, a.p)
		},
		Abort: abort,
	}
}

// wrapPass is err, an error of reading the pages, as the analysis's own;
// a cancellation stays as it is.
func wrapPass(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return errorf("%w", err)
}

// open is the pass's Open: the unit, begin, the replay rows.
func (a *pass) open(tmp string, begin func(tmp, unitName string) error) error {
	p := a.p
	if p.Unit == 0 {
		err := a.pages(func(_ int64, pg *series.Page) error {
			p.Unit = transform.DefaultUnit(pg)
			return errStop
		})
		if err != nil && !errors.Is(err, errStop) {
			return err
		}
		if p.Unit == 0 {
			p.Unit = transform.Hour
		}
	}
	if err := begin(tmp, transform.UnitName(p.Unit)); err != nil {
		return errorf("%w", err)
	}
	// The replay output is read first: the pass over the pages keeps the
	// intervals of the replayed ones, from which the error tables take the
	// exact G_U (PageErrors).
	if a.opt.Replay != "" {
		var src string
		var err error
		a.rows, src, err = a.opt.Estimates(a.opt.Replay)
		if err != nil {
			return errorf("%w", err)
		}
		p.ReplaySource = src
		a.replayed = map[int64][]float64{}
		for _, r := range a.rows {
			if a.sp.Owns(r.PageID) {
				a.replayed[r.PageID] = nil
			}
		}
	}
	logf(a.opt.Log, "analyze: reading pages (unit %s)", transform.UnitName(p.Unit))
	return nil
}

// fold adds one page's result to the Partial.
func (a *pass) fold(r *pageResult) {
	p := a.p
	pg, u := r.pg, r.u
	if r.sc != nil {
		p.Screened++
		p.CoVCounts[covBin(r.st.CoV)]++
		if r.cand != nil {
			p.InBand++
			p.Candidates = append(p.Candidates, PosCandidate{r.pos, *r.cand})
		}
		p.offerClosest(r.pos, r.st, u, a.opt.Closest)
	}
	p.Pages++
	p.Updates += int64(len(pg.Updates))
	if len(pg.Updates) > 0 {
		if p.First == 0 || pg.Updates[0] < p.First {
			p.First = pg.Updates[0]
		}
		p.Last = max(p.Last, pg.Updates[len(pg.Updates)-1])
	}
	a.top.Offer(pg)
	if a.keep != nil {
		a.keep.Offer(pg)
	}
	if _, ok := a.replayed[pg.ID]; ok {
		a.replayed[pg.ID] = u
		a.resolution[pg.ID] = float64(pg.Resolution) / p.Unit
	}
	if r.sample != nil {
		for _, h := range r.sample {
			a.agg.offerKey(h.Key, h.Page, h.I, h.V)
		}
	} else {
		for i, x := range u {
			a.agg.offerKey(r.keys[i], pg.ID, i, x)
		}
	}
	for i, c := range r.bins {
		if c > 0 {
			p.Bins[r.binLo+i] += c
		}
	}
	p.Intervals += int64(len(u))
}

// finish completes the Partial after the last page: the busiest pages,
// the aggregate sample, and the errors of the owned pages' estimates,
// each with the index of its row.
func (a *pass) finish() error {
	p, opt := a.p, &a.opt
	p.Top = a.top.Pages()
	if a.keep != nil {
		a.keep.fill(p)
	}
	p.Agg = a.agg.sorted()
	if opt.Replay == "" {
		return nil
	}
	for id, u := range a.replayed {
		if u == nil { // not in the dataset (or without intervals): PageErrors says so
			delete(a.replayed, id)
		}
	}
	var own []EstimateRow
	var idx []int
	for i, r := range a.rows {
		if a.sp.Owns(r.PageID) && !a.unselected[r.PageID] {
			own = append(own, r)
			if r.Method != "truth" {
				idx = append(idx, i)
			}
		}
	}
	pe, err := PageErrorsFor(opt.Methods, own, opt.XMax, opt.Extra, a.replayed)
	if err != nil {
		return errorf("replay %s: %w", opt.Replay, err)
	}
	if len(pe) != len(idx) {
		return errorf("replay %s: %d errors for %d estimates", opt.Replay, len(pe), len(idx))
	}
	for i := range pe {
		// the page's x_max by the replay's rule (the given one, or the
		// 0.99 quantile of its G_U), as the replay's Source line states it
		if u := a.replayed[pe[i].PageID]; len(u) > 0 {
			pe[i].PageXMax = replay.DefaultsOf(u, a.resolution[pe[i].PageID], replay.Choice{XMax: opt.XMax}).XMax
		}
		p.PageErrors = append(p.PageErrors, PosPageError{idx[i], pe[i]})
	}
	return nil
}

// pageJob is a page at dataset row pos, for the pass's workers.
type pageJob struct {
	pos int64
	pg  *series.Page
}

// pageResult is what a worker computes from one page (analyzePage) for
// the pass to fold into its Partial in dataset order.
type pageResult struct {
	pos  int64
	pg   *series.Page
	u    []float64     // intervals in the unit
	st   PageStats     //
	sc   *PageScreen   // nil: not screened
	cand *CandidateRow // in the band (screened, |v − 1| ≤ Band)
	keys []uint64      // aggKey of each interval; nil when sample is set
	// sample is the page's own bottomK of its intervals for the
	// aggregate, for a page with too many intervals to key each one.
	sample []HashedValue
	binLo  int     // survival bin of bins[0]
	bins   []int64 // intervals > 0 per survival bin binLo, binLo+1, …
}

// pageBudget bounds the bytes the pages in flight in the pass hold (their
// updates, intervals and keys: about 32 bytes per update): a page takes
// tokens in proportion to its updates, so that a few huge pages cannot
// fill every slot of the pool's window at once.
const pageBudget = 256 << 20

// pageTokens is the pool cost of a page of n updates with the window of
// 4·workers tokens (pool.Options' default) sharing pageBudget.
func pageTokens(n, workers int) int {
	per := pageBudget / (4 * workers)
	return 1 + 32*n/per
}

// analyzePage is the per-page work of the pass: the intervals and
// statistics of j's page; for a screened page (≥ K updates, a finite v)
// its screen: the band's checks (Check) for a page in the band, else
// screenPage (the same numbers either way, with the page's own random
// stream); the aggregate keys of its intervals and their survival bins.
func analyzePage(j pageJob, unit float64, opt *Options, sopt ScreenOptions, seedHash uint64) *pageResult {
	pg := j.pg
	u := transform.Intervals(pg.Updates, unit)
	r := &pageResult{pos: j.pos, pg: pg, u: u, st: statsOf(pg, unit, u)}
	if len(pg.Updates) >= opt.MinUpdates && !math.IsNaN(r.st.CoV) {
		rng := model.NewRand(opt.Seed, uint64(pg.ID))
		var sc PageScreen
		if math.Abs(r.st.CoV-1) <= opt.Band {
			c := Check(r.st, u, sopt, rng)
			row := c.Row()
			r.cand = &row
			sc = c.Screen(sopt)
		} else {
			sc = screenPage(u, sopt, rng)
		}
		sc.LRD = LongMemory(u, sc.DFA, sc.LW, model.NewRand(opt.Seed, lrdStream(pg.ID)))
		r.sc = &sc
	}
	// The aggregate keys: one per interval; for a page of more than
	// 4·AggregateMax intervals only the page's own AggregateMax smallest
	// (a bottomK of the page), which hold every interval of the page the
	// dataset's sample can take, in at most 2·AggregateMax entries instead
	// of 8 bytes per interval. The sample is the same set either way
	// (bottomK keeps the smallest keys whatever the order of offers).
	if len(u) > 4*opt.AggregateMax {
		own := &bottomK{k: opt.AggregateMax, seed: seedHash}
		for i, x := range u {
			own.offerKey(aggKey(seedHash, pg.ID, i), pg.ID, i, x)
		}
		if len(own.buf) > own.k {
			own.compact()
		}
		r.sample = own.buf
	} else {
		r.keys = make([]uint64, len(u))
		for i := range u {
			r.keys[i] = aggKey(seedHash, pg.ID, i)
		}
	}
	// Survival bins, counted as they come: the span of bins grows at
	// either end (at most 20 per decade of interval lengths).
	for _, x := range u {
		if x > 0 {
			b := int(math.Floor(survBinsPerDecade * math.Log10(x)))
			switch {
			case r.bins == nil:
				r.binLo, r.bins = b, []int64{0}
			case b < r.binLo:
				r.bins = append(make([]int64, r.binLo-b), r.bins...)
				r.binLo = b
			case b >= r.binLo+len(r.bins):
				r.bins = append(r.bins, make([]int64, b-r.binLo-len(r.bins)+1)...)
			}
			r.bins[b-r.binLo]++
		}
	}
	return r
}

// offerClosest adds a screened page at dataset row pos, with statistics st
// and intervals u, to the closest-to-Poisson pages when it is among the
// n smallest |v − 1| (ties in dataset order).
func (p *Partial) offerClosest(pos int64, st PageStats, u []float64, n int) {
	d := math.Abs(st.CoV - 1)
	i, _ := slices.BinarySearchFunc(p.Closest, d, func(e Near, t float64) int {
		if math.Abs(e.Stats.CoV-1) <= t {
			return -1
		}
		return 1
	})
	if i < n {
		p.Closest = slices.Insert(p.Closest, i, Near{pos, st, u})
		if len(p.Closest) > n {
			p.Closest = p.Closest[:n]
		}
	}
}

// finishTables computes the tables of a whole dataset from its Partial (one, or
// the merge of every shard's) and writes them into out; rows are the
// replay rows (nil without a replay). null caches the Lilliefors null
// distributions for the closest pages not checked in the pass (the
// pass's own cache when there was one pass).
func finishTables(ctx context.Context, p *Partial, rows []EstimateRow, opt Options, null *LillieforsNull, out string) (*Result, error) {
	res := &Result{Unit: p.Unit, UnitName: transform.UnitName(p.Unit), Pages: p.Pages, Updates: p.Updates,
		Intervals: p.Intervals, First: p.First, Last: p.Last, Screened: p.Screened, InBand: p.InBand,
		ReplaySource: p.ReplaySource, Selection: p.Selection}
	logf(opt.Log, "analyze: %d pages, %d intervals, %d screened (≥ %d updates), %d in the band", res.Pages, res.Intervals, res.Screened, opt.MinUpdates, res.InBand)
	sopt := screenOptions(&opt, null)
	res.CoVCounts = p.CoVCounts
	for _, c := range p.Candidates {
		res.Candidates = append(res.Candidates, c.CandidateRow)
	}
	// The closest pages' full checks (ACF, every Hurst estimator), again:
	// the same function on the same intervals with the page's own random
	// stream gives the numbers the pass gave the ones in the band.
	for _, n := range p.Closest {
		res.Closest = append(res.Closest, Check(n.Stats, n.U, sopt, model.NewRand(opt.Seed, uint64(n.Stats.PageID))))
	}
	for i := range p.Top {
		res.Top = append(res.Top, Stats(&p.Top[i], res.Unit))
	}
	// H over every screened page, read back from page_stats (written to
	// out before the tables).
	var err error
	if res.HurstScreened, err = summarizeHurst(filepath.Join(out, "page_stats.parquet")); err != nil {
		return nil, errorf("%w", err)
	}
	if res.ScreenAll, err = countScreened(filepath.Join(out, "page_stats.parquet")); err != nil {
		return nil, errorf("%w", err)
	}
	if res.LRD, err = summarizeLRD(filepath.Join(out, "page_stats.parquet")); err != nil {
		return nil, errorf("%w", err)
	}

	// Tail fits: the aggregate (hash sample) and the top page.
	sample := make([]float64, len(p.Agg))
	for i, a := range p.Agg {
		sample[i] = a.V
	}
	res.AggregateN = len(sample)
	res.Survival = survivalFromBins(p.Bins, res.Intervals)
	pos := positive(sample)
	res.AggregateFitN = len(pos)
	if len(pos) >= MinFitIntervals {
		if res.Aggregate, err = FitAll(pos); err != nil {
			return nil, errorf("aggregate fit: %w", err)
		}
	}
	if tp := p.Top; len(tp) > 0 {
		if res.TopFitN, res.TopSurvival, res.TopFits, err = topPageFits(tp[0].Updates, res.Unit); err != nil {
			return nil, errorf("%w", err)
		}
	}

	// Error tables from the replay output, against the exact G_U of the
	// replayed pages' intervals.
	if opt.Replay != "" {
		for _, e := range p.PageErrors {
			res.PageErrors = append(res.PageErrors, e.PageError)
		}
		res.Summary = SummarizeFor(opt.Methods, res.PageErrors, opt.Seed)
		res.Evidence = EvidenceSummaryFor(opt.Methods, res.PageErrors, opt.Seed)
		logf(opt.Log, "analyze: %d estimates compared with the truth on [0, %s] (%s)", len(res.PageErrors), xmaxText(opt.XMax), res.ReplaySource)
	}

	res.Bundle = buildBundle(res, &opt, rows)
	if opt.Localized.enabled() {
		kept := KeptPages(p)
		skipped := Skipped(p.KeepTop, kept)
		logf(opt.Log, "analyze: localized rates and staleness on the %d busiest pages", len(kept))
		if len(skipped) > 0 {
			logf(opt.Log, "analyze: %s", skippedNote(skipped, &opt))
		}
		lbs, err := localizedBundles(ctx, kept, skipped, res.Unit, &opt)
		if err != nil {
			return nil, errorf("%w", err)
		}
		if opt.LocalizedApart {
			res.Localized = lbs
		} else {
			for _, lb := range lbs {
				res.Bundle.Tables = append(res.Bundle.Tables, lb.Bundle.Tables...)
				res.Bundle.Figures = append(res.Bundle.Figures, lb.Bundle.Figures...)
			}
		}
	}
	if err := res.Bundle.Write(out); err != nil {
		return nil, errorf("%w", err)
	}
	for _, t := range res.Bundle.Tables {
		if t.ID == "page_stats_top" {
			continue
		}
		if err := tables.WriteFiles(filepath.Join(out, "csv", t.ID), t); err != nil {
			return nil, errorf("%w", err)
		}
	}
	if len(res.PageErrors) > 0 {
		if err := tables.WriteFiles(filepath.Join(out, "page_errors"), pageErrorsTable(res, &opt, false)); err != nil {
			return nil, errorf("%w", err)
		}
	}
	return res, nil
}

func logf(w io.Writer, format string, a ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", a...)
	}
}

// topPageFits are the top page's positive intervals (their number), its
// empirical survival and the tail fits (none below MinFitIntervals),
// from its update times in unit. Memory: the intervals, then a sorted
// copy for the survival or for FitAll, and the Weibull fit's logarithms
// (24 bytes per update at the peak).
func topPageFits(updates []int64, unit float64) (n int, surv [][2]float64, fits []Fit, err error) {
	u := positiveInPlace(transform.Intervals(updates, unit))
	if len(u) > 0 {
		surv = empiricalSurvival(u)
	}
	if len(u) >= MinFitIntervals {
		if fits, err = FitAll(u); err != nil {
			return 0, nil, nil, fmt.Errorf("top page fit: %w", err)
		}
	}
	return len(u), surv, fits, nil
}

// positiveInPlace is positive(x) written over x (the same values in the
// same order), for a caller that no longer needs x.
func positiveInPlace(x []float64) []float64 {
	out := x[:0]
	for _, v := range x {
		if v > 0 {
			out = append(out, v)
		}
	}
	return out
}

func positive(x []float64) []float64 {
	out := make([]float64, 0, len(x))
	for _, v := range x {
		if v > 0 {
			out = append(out, v)
		}
	}
	return out
}

// survBinsPerDecade is the resolution of the aggregate survival curve.
const survBinsPerDecade = 20

// survivalFromBins turns counts of intervals per log bin
// [10^{b/20}, 10^{(b+1)/20}) into points (x, P(U ≥ x)) at the bin edges:
// exact for every interval of every page, at that resolution.
func survivalFromBins(bins map[int]int64, total int64) [][2]float64 {
	if total == 0 {
		return nil
	}
	keys := make([]int, 0, len(bins))
	for k := range bins {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out [][2]float64
	above := int64(0)
	for _, k := range keys {
		above += bins[k]
	}
	for _, k := range keys {
		out = append(out, [2]float64{math.Pow(10, float64(k)/survBinsPerDecade), float64(above) / float64(total)})
		above -= bins[k]
	}
	return out
}

// empiricalSurvival is (x_(i), P̂(U ≥ x_(i))) at up to 400 order
// statistics spread evenly in rank.
func empiricalSurvival(u []float64) [][2]float64 {
	s := slices.Clone(u)
	slices.Sort(s)
	n := len(s)
	step := max(1, n/400)
	var out [][2]float64
	for i := 0; i < n; i += step {
		out = append(out, [2]float64{s[i], float64(n-i) / float64(n)})
	}
	return out
}

// screenOptions are the Poisson screen's options from opt, with null (one
// Lilliefors null distribution per sample size, shared by the pages; see
// LillieforsNull) as the null cache.
func screenOptions(opt *Options, null *LillieforsNull) ScreenOptions {
	return ScreenOptions{MinUpdates: opt.MinUpdates, Band: opt.Band, MaxLag: opt.MaxLag, Reps: opt.Reps, Null: null}
}
