package replay

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/pool"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stage"
	"github.com/revisit-dev/revisit/internal/usage"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// Options configure Run.
type Options struct {
	Dataset string // dataset directory (dataset.Open)
	Out     string // output directory: estimates.parquet + replay.json

	// Samplers are sampler specs (ParseSampler); empty means
	// DefaultSamplers (relative to each page's E[U]).
	Samplers []string
	Methods  []string // method names (ParseMethods); empty means all
	// Unit is the time unit in seconds (transform.ParseUnit); 0 takes
	// transform.DefaultUnit of the first page replayed (hours for 1-second
	// sources, days for date-only ones).
	Unit float64
	// H is the bin width h for random delays and XMax the largest grid
	// point x_max, in units, for every page; 0 chooses them per page
	// (DefaultsFor: h = E[U]/100 but no finer than the source's
	// resolution, x_max = the 0.99 quantile of the page's G_U).
	H    float64
	XMax float64
	Top  int // replay only the Top pages with the most updates (0: all)
	// Sample replays a seeded random sample of Sample pages among those
	// with at least SampleIntervals intervals (sample.go: the pages with
	// the smallest SampleKey(Seed, id)), busiest first; 0: no sample.
	// It cannot be combined with Top. Every eligible page is replayed
	// when there are no more than Sample.
	Sample          int
	SampleIntervals int
	MinUpdates      int // replay only pages with at least this many updates
	Seed            uint64
	// Seeds is R, the number of independent crawls of every page ×
	// sampler (seed indices r = 0 … R−1, each its own random stream:
	// streamOf); 0 or 1 is one crawl, the stream of earlier replays.
	// Analysis gives each error a 95% interval over the R seeds.
	Seeds   int
	Workers int // 0: runtime.GOMAXPROCS(0)
	// MaxVisits and MaxPairs bound the work of one page × sampler job
	// (0: DefaultMaxVisits, DefaultMaxPairs). A job whose expected visits
	// λT + 1 or M6 pairs (EstimateWork) exceed them is not crawled but
	// counted in Meta.Skipped (SkipMaxVisits, SkipMaxPairs); a crawl that
	// reaches twice a limit is stopped and counted the same way. When
	// every job is left out, Run fails with an *OptionError.
	MaxVisits int64
	MaxPairs  int64

	// Shard replays only the pages of one shard (shard.Spec.Owns) and
	// writes ShardFile beside the estimates, for Merge; the zero Spec
	// replays every page. With Top > 0 a shard replays the Top busiest
	// pages of its own, of which Merge keeps the Top busiest overall.
	Shard shard.Spec
	// Select keeps only the pages it selects (--pages, --match, --group),
	// tested before the shard (a page's shard does not depend on it) and
	// before MinUpdates and Top; nil replays every page. What it selected
	// is Meta.Selection.
	Select *dataset.Selection

	// Curves is what curve each row keeps (estimates.CurvesFull or
	// CurvesCompact; "" is full, the command line's default is compact):
	// compact rows keep estimates.Knots points of the grid,
	// their errors against the truth computed at full resolution first
	// and stored beside them (estimator.StoreErrors); the FullCurves
	// busiest pages (most updates, as --top ranks them, among every
	// page of the dataset eligible by MinUpdates) keep their whole
	// curves for the figures, and with full every page does.
	Curves     estimates.Curves
	FullCurves int

	Recover    bool // also recover F_U from M2, M4, M5, M6
	RecoverOpt estimator.RecoverOptions

	// WriteObservations, if set, is a visit-log format (logs.Formats):
	// each sampler's crawler writes what it saw to
	// observations/SAMPLER.EXT in that format, and the estimates are
	// computed from exactly those observations (EstimateObserved: whole
	// seconds, and only what the format carries), so that `revisit
	// estimate` on the files gives the same rows.
	WriteObservations string

	Version string                        // tool version recorded in replay.json
	Log     func(format string, a ...any) // progress lines every 2 s; nil for none
	// Progress, if set, is called after each page × sampler job is written
	// with the jobs done and the total (−1 while pages are still streaming).
	Progress func(done, total int)
}

// OptionError is an invalid option: bad usage (usage.Error) rather than
// bad input.
type OptionError = usage.Error

// Validate checks the options and returns the parsed samplers and methods.
// Every error it returns is an *OptionError.
func (o *Options) Validate() ([]estimator.Sampler, []string, error) {
	bad := func(err error) ([]estimator.Sampler, []string, error) { return nil, nil, &OptionError{Err: err} }
	specs := o.Samplers
	if len(specs) == 0 {
		specs = DefaultSamplers
	}
	var smp []estimator.Sampler
	seen := map[string]bool{}
	for _, spec := range specs {
		s, err := estimator.ParseSampler(spec)
		if err != nil {
			return bad(err)
		}
		if seen[s.Spec] {
			return bad(fmt.Errorf("sampler %q given twice", s.Spec))
		}
		seen[s.Spec] = true
		smp = append(smp, s)
	}
	methods := estimator.AllMethods
	if len(o.Methods) > 0 {
		var err error
		if methods, err = estimator.ParseMethods(o.Methods); err != nil {
			return bad(err)
		}
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"bin width h", o.H}, {"x_max", o.XMax}} {
		if !(v.v >= 0) || math.IsInf(v.v, 0) {
			return bad(fmt.Errorf("%s must be > 0 (or 0: per page), got %g", v.name, v.v))
		}
	}
	if o.H > 0 && o.XMax > 0 && o.H > o.XMax {
		return bad(fmt.Errorf("bin width h = %g is larger than x_max = %g", o.H, o.XMax))
	}
	if err := (estimator.Registry{}).CheckApplicable(methods, smp); err != nil {
		return bad(err)
	}
	if o.Recover {
		if err := o.RecoverOpt.Check(); err != nil {
			return bad(err)
		}
	}
	if o.Unit < 0 || math.IsNaN(o.Unit) {
		return bad(fmt.Errorf("unit must be > 0 seconds, got %g", o.Unit))
	}
	if o.Top < 0 || o.MinUpdates < 0 || o.Workers < 0 || o.Sample < 0 || o.SampleIntervals < 0 {
		return bad(errors.New("--top, --sample, --min-updates and --workers must be ≥ 0"))
	}
	if o.Top > 0 && o.Sample > 0 {
		return bad(fmt.Errorf("--top %d and --sample %d: give one (the busiest pages, or a random sample)", o.Top, o.Sample))
	}
	if o.Seeds < 0 {
		return bad(fmt.Errorf("--seeds must be ≥ 1, got %d", o.Seeds))
	}
	if o.seeds() > 1 && o.WriteObservations != "" {
		return bad(fmt.Errorf("--write-observations writes one crawl per sampler: it cannot be combined with --seeds %d", o.Seeds))
	}
	if o.MaxVisits < 0 || o.MaxPairs < 0 {
		return bad(fmt.Errorf("--max-visits and --max-pairs must be ≥ 1 (got %d and %d)", o.MaxVisits, o.MaxPairs))
	}
	for _, s := range smp {
		if !o.fixedStep(s) || o.XMax == 0 {
			continue // per page: a page whose grid is too large is left out and counted (SkipMaxGrid)
		}
		if n := o.XMax / s.Step(o.H); n > estimator.MaxGrid {
			return bad(fmt.Errorf("sampler %s: x_max/step = %.3g grid points is too many (at most %.0e: raise --h or lower --x-max)", s.Spec, n, estimator.MaxGrid))
		}
	}
	if o.Out == "" {
		return bad(errors.New("no output directory (-o)"))
	}
	if o.Curves != "" {
		if _, err := estimates.ParseCurves(string(o.Curves)); err != nil {
			return bad(err)
		}
	}
	if o.FullCurves < 0 {
		return bad(fmt.Errorf("--full-curves must be ≥ 0, got %d", o.FullCurves))
	}
	if o.WriteObservations != "" {
		if _, err := logs.ParseFormat(o.WriteObservations); err != nil {
			return bad(err)
		}
	}
	return smp, methods, nil
}

// fixedStep reports whether sampler s has the same grid step on every
// page: an absolute constant Δ, or random delays with a given h.
func (o *Options) fixedStep(s estimator.Sampler) bool {
	return !s.Relative && (s.Constant() || o.H > 0)
}

// seeds is R (Options.Seeds), at least 1.
func (o *Options) seeds() int { return max(o.Seeds, 1) }

// streamOf is the random stream of one page, sampler and seed index r: a
// hash of the three, so that a page's draws do not depend on which other
// pages, samplers or seeds are replayed, nor on how the pages are
// sharded, nor on the order the workers take them in. Seed 0 hashes the
// page and sampler only: the stream of replays made before seeds.
func streamOf(pageID int64, sampler string, r int) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for i := range b {
		b[i] = byte(uint64(pageID) >> (8 * i))
	}
	h.Write(b[:])
	h.Write([]byte(sampler))
	if r > 0 {
		// a 0 byte cannot end a sampler spec, so no spec collides
		h.Write([]byte{0})
		for i := range b {
			b[i] = byte(uint64(r) >> (8 * i))
		}
		h.Write(b[:])
	}
	return h.Sum64()
}

type job struct {
	seq  int
	page *series.Page
	si   int
	seed int               // the seed index r (Options.Seeds)
	pd   PageDefaults      // the page's x_max, h and E[U]
	smp  estimator.Sampler // smp[si] on this page (ForMean)
	// The page's update times and intervals in the run's unit
	// (transform.Times, transform.Intervals), computed once per page and
	// shared read-only by its samplers' jobs.
	t, u []float64
	full bool // keep the whole curves (Options.Curves)
}

type jobResult struct {
	seq  int
	full bool
	est  []estimator.Estimate
	skip *estimator.LimitError // the job was left out: too much work
	obs  *series.Observed      // what the crawler saw (WriteObservations)
	page *series.Page
	smp  string
	seed int
}

// limits are the options' work limits with the defaults filled in.
func (o *Options) limits() (maxVisits, maxPairs int64) {
	maxVisits, maxPairs = o.MaxVisits, o.MaxPairs
	if maxVisits == 0 {
		maxVisits = estimator.DefaultMaxVisits
	}
	if maxPairs == 0 {
		maxPairs = estimator.DefaultMaxPairs
	}
	return maxVisits, maxPairs
}

// resultBudget bounds the memory of the page × sampler results waiting to
// be written in order (each holds its grid in every row): the reorder
// buffer holds 4 tokens per worker, each worth resultBudget/(4·workers)
// bytes of rows, and a job takes as many tokens as its grid needs, from 1
// up to 4 (so at least one job per worker is always in flight): fewer
// jobs wait when their grids are large. Grids differ from page to page
// when x_max or the step is chosen per page.
const resultBudget = 64 << 20

// jobTokens is the tokens of a job whose grid has points points.
func jobTokens(points float64, workers int) int {
	per := float64(resultBudget) / float64(4*workers)
	return int(min(4, max(1, math.Ceil(rowBytesPerPoint*points/per))))
}

// rowBytesPerPoint is about what one job's rows hold per grid point: up to
// 24 rows (11 methods × G and F, and the truth) of 8-byte values.
const rowBytesPerPoint = 24 * 8

// Run replays the selected pages of a dataset with every sampler and
// method and writes estimates.parquet and replay.json to opt.Out,
// atomically: they appear (replacing an earlier replay output there) only
// when everything succeeded. Pages stream from the dataset (only the Top
// pages are held when Top > 0); page × sampler jobs are spread over the
// workers and written in a deterministic order.
func Run(ctx context.Context, opt Options) (*Meta, error) {
	smp, methods, err := opt.Validate()
	if err != nil {
		return nil, err
	}
	return run(ctx, opt, smp, methods)
}

// run is Run with the options validated: smp and methods are what
// opt.Validate parsed from opt.Samplers and opt.Methods.
func run(ctx context.Context, opt Options, smp []estimator.Sampler, methods []string) (*Meta, error) {
	start := time.Now()
	logf := opt.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	// A shard may run on a node that holds only its own part files: it
	// opens the dataset without the others and needs them only if it
	// cannot read by parts (dataset.Reader.ShardSource).
	open := dataset.Open
	if opt.Shard.Sharded() {
		open = dataset.OpenPartial
	}
	ds, err := open(opt.Dataset)
	if err != nil {
		return nil, err
	}
	var dsID string // ShardInfo.DatasetID
	if opt.Shard.Sharded() {
		if dsID, err = ds.Identity(); err != nil {
			return nil, err
		}
	}
	// A shard of a dataset in a multiple of N parts reads only its own
	// parts (dataset.Reader.ForShard); the default unit then comes from
	// the manifest's resolutions, as every page gives the same one.
	src, unit0 := ds, opt.Unit
	if opt.Shard.Sharded() {
		var note string
		src, unit0, note = ds.ShardSource(opt.Shard, opt.Unit, opt.Select)
		logf("replay: %s", note)
	}
	// The writers, created in the output by open (below).
	var (
		w          *estimates.Writer
		wClosed    bool
		ow         *obsWriters
		fullCurves *fullCurves
	)
	workers := opt.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	meta := &Meta{
		Tool: "revisit", Version: opt.Version, Dataset: opt.Dataset,
		Methods: methods, Seed: opt.Seed, H: opt.H, XMax: opt.XMax, Top: opt.Top, Sample: opt.Sample, SampleIntervals: opt.SampleIntervals,
		MinUpdates: opt.MinUpdates, Grid: map[string]float64{}, Skipped: map[string]int64{},
		Recover: opt.Recover, Derivative: opt.RecoverOpt.WithDefaults(),
	}
	seeds := opt.seeds()
	perPage := len(smp) * seeds // jobs of one page
	if seeds > 1 {
		meta.Seeds = seeds
	}
	maxVisits, maxPairs := opt.limits()
	meta.MaxVisits, meta.MaxPairs = maxVisits, maxPairs
	choice := Choice{XMax: opt.XMax, H: opt.H}
	for _, s := range smp {
		meta.Samplers = append(meta.Samplers, s.Spec)
		if opt.fixedStep(s) {
			meta.Grid[s.Spec] = s.Step(opt.H)
		}
		for _, m := range methods {
			if !estimator.Applicable(m, s) {
				meta.NotApplicable = append(meta.NotApplicable, m+" on "+s.Spec+" (needs constant delays)")
			}
		}
	}
	curves := estimates.CurvesFull
	if opt.Curves != "" {
		curves, _ = estimates.ParseCurves(string(opt.Curves))
	}
	meta.Curves = string(curves)
	if curves == estimates.CurvesCompact {
		meta.FullCurves = opt.FullCurves
	}
	choices := newChoices(choice, meta.Samplers, len(opt.Samplers) > 0)
	openOut := func(tmp string) error {
		var err error
		if w, err = estimates.NewWriter(filepath.Join(tmp, estimates.File)); err != nil {
			return fmt.Errorf("replay output %s: %w", opt.Out, err)
		}
		if ow, err = newObservationWriters(tmp, opt.WriteObservations, smp); err != nil {
			return fmt.Errorf("replay output %s: %w", opt.Out, err)
		}
		// A shard reading only its own parts keeps the whole curves of its
		// own busiest pages, among which are all of its pages that are the
		// dataset's busiest; Merge compacts the others.
		fullCurves, err = chooseFullCurves(src, curves, opt.FullCurves, (opt.Top > 0 || opt.Sample > 0) && !opt.Shard.Sharded(), opt.MinUpdates,
			sampleSpec{n: opt.Sample, intervals: opt.SampleIntervals, seed: opt.Seed})
		if err != nil {
			return err // the dataset's error names it; the command names replay
		}
		logf("replay: x_max %s; h %s; samplers %s", choices.XMaxRule, choices.HRule, choices.SamplerRule)
		return nil
	}
	cfg := estimator.Config{Methods: methods, Recover: opt.Recover, RecoverOpt: opt.RecoverOpt}

	unit := unit0
	var unitOnce sync.Once
	setUnit := func(p *series.Page) {
		unitOnce.Do(func() {
			if unit == 0 {
				unit = transform.DefaultUnit(p)
			}
		})
	}

	// work replays one page × sampler job; a job left out by a limit is a
	// result (skip), not an error.
	work := func(ctx context.Context, j job) (jobResult, error) {
		s := j.smp
		cfg := cfg // this page's x_max and h, in the run's unit
		cfg.XMax, cfg.H, cfg.UnitName = j.pd.XMax, j.pd.H, transform.UnitName(unit)
		t := j.t
		skip := func(le *estimator.LimitError) (jobResult, error) {
			return jobResult{seq: j.seq, skip: le, page: j.page, smp: s.Spec, seed: j.seed}, nil
		}
		// Refuse before crawling what would take too long or
		// tabulate too large a grid.
		if n := cfg.XMax / s.Step(cfg.H); !(n <= estimator.MaxGrid) {
			return skip(&estimator.LimitError{Reason: estimator.SkipMaxGrid, Work: n, Limit: int64(estimator.MaxGrid)})
		}
		if le := estimator.EstimateWork(s, t[len(t)-1], &cfg).Check(maxVisits, maxPairs); le != nil {
			return skip(le)
		}
		r := model.NewRand(opt.Seed, streamOf(j.page.ID, s.Spec, j.seed))
		var (
			est []estimator.Estimate
			obs *series.Observed
			res estimator.PathResult
			err error
		)
		if opt.WriteObservations != "" { // what the crawler saw, as written
			est, obs, err = observePage(ctx, j.page, t, j.u, unit, s, &cfg, r, estimator.NewGuard(ctx, maxVisits, maxPairs), opt.WriteObservations)
		} else {
			res, err = replayPath(&sliceUpdates{t: t}, newVisitGen(s, r), t[len(t)-1], s, &cfg, estimator.NewGuard(ctx, maxVisits, maxPairs))
			// truth from the exact integer intervals (transform.Intervals), not from differences of t
			est = append(res.Est, truthFromIntervals(j.u, estimator.Grid(s.Step(cfg.H), cfg.XMax), s, res.Visits)...)
		}
		if err != nil {
			var le *estimator.LimitError
			if errors.As(err, &le) {
				return skip(le)
			}
			// a failure; after a cancellation the pool reports ctx.Err()
			return jobResult{}, fmt.Errorf("page %d %q with %s%s: %w", j.page.ID, j.page.Title, s.Spec, seedText(j.seed), err)
		}
		for i := range est {
			est[i].PageID, est[i].Title, est[i].Seed = j.page.ID, j.page.Title, j.seed
		}
		// Every row's error at full resolution, before any compaction.
		if err := estimator.StoreErrors(estimator.Registry{}, est, transform.NewAge(j.u).At, j.pd.MeanU); err != nil {
			return jobResult{}, fmt.Errorf("page %d %q with %s%s: %w", j.page.ID, j.page.Title, s.Spec, seedText(j.seed), err)
		}
		return jobResult{seq: j.seq, full: j.full, est: est, obs: obs}, nil
	}

	// producer
	pages := 0
	var total atomic.Int64 // jobs in all, once known; −1 before
	total.Store(-1)
	var pageXMax, pageH, pageMean []float64 // per page, for meta.Choices
	var sent []ShardPage                    // per page sent, for ShardFile
	sharded := opt.Shard.Sharded()
	var owned int64 // pages of this shard read
	sel := opt.Select.Tally()
	produce := func(ctx context.Context, send pool.Send[job]) error {
		seq := 0
		sendPage := func(p *series.Page, pos int64, rank int) error {
			full := fullCurves.keep(p.ID, rank)
			setUnit(p)
			pages++
			u := transform.Intervals(p.Updates, unit)
			t := transform.Times(p.Updates, unit)
			pd := DefaultsOf(u, float64(p.Resolution)/unit, choice) // DefaultsFor on u
			pageXMax, pageH, pageMean = append(pageXMax, pd.XMax), append(pageH, pd.H), append(pageMean, pd.MeanU)
			if sharded {
				sent = append(sent, ShardPage{Pos: pos, ID: p.ID, Updates: len(p.Updates), XMax: exactFloat(pd.XMax), H: exactFloat(pd.H), MeanU: exactFloat(pd.MeanU)})
			}
			for si := range smp {
				sp, err := smp[si].ForMean(pd.MeanU)
				if err != nil {
					return fmt.Errorf("page %d %q: %w", p.ID, p.Title, err)
				}
				for r := range seeds { // jobs of a page: sampler, then seed
					if err := send(job{seq: seq, page: p, si: si, seed: r, pd: pd, smp: sp, t: t, u: u, full: full}, jobTokens(pd.XMax/sp.Step(pd.H)+2, workers)); err != nil {
						return err
					}
					seq++
				}
			}
			return nil
		}
		var keep *transform.TopKeeper
		if opt.Top > 0 {
			keep = transform.NewTopKeeper(opt.Top)
		}
		var sample, sampleAll *sampleKeeper
		if opt.Sample > 0 {
			sample = newSampleKeeper(opt.Sample, opt.Seed)
		}
		// A shard takes the default unit from the page the unsharded
		// replay would send first (the first eligible page, the busiest
		// one with Top, the busiest of the whole sample with Sample), so
		// that every shard agrees.
		var first *transform.TopKeeper
		if sharded && opt.Top > 0 {
			first = transform.NewTopKeeper(1)
		}
		if sharded && opt.Sample > 0 {
			sampleAll = newSampleKeeper(opt.Sample, opt.Seed)
		}
		sampled := func(p *series.Page) bool { return len(p.Updates)-1 >= opt.SampleIntervals }
		err := src.EachPos(func(pos int64, p *series.Page) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if !sel.Keep(p) {
				return nil
			}
			eligible := len(p.Updates) >= opt.MinUpdates && len(p.Updates) >= 2
			if !opt.Shard.Owns(p.ID) {
				if eligible {
					switch {
					case first != nil:
						first.Offer(p)
					case sampleAll != nil:
						if sampled(p) {
							sampleAll.Offer(p)
						}
					case keep == nil && sample == nil:
						setUnit(p)
					}
				}
				return nil
			}
			owned++
			switch {
			case len(p.Updates) < opt.MinUpdates:
				meta.Skipped["min_updates"]++
			case len(p.Updates) < 2:
				meta.Skipped["fewer_than_2_updates"]++
			case keep != nil:
				keep.Offer(p)
				if first != nil {
					first.Offer(p)
				}
			case sample != nil && !sampled(p):
				meta.Skipped[SkipFewIntervals]++
			case sample != nil:
				sample.Offer(p)
				if sampleAll != nil {
					sampleAll.Offer(p)
				}
			default:
				return sendPage(p, pos, -1)
			}
			return nil
		})
		var kept []series.Page
		switch {
		case err != nil:
		case keep != nil:
			kept = keep.Pages()
			if first != nil && len(first.Pages()) > 0 {
				setUnit(&first.Pages()[0])
			}
			meta.Skipped["not_in_top"] = owned - meta.Skipped["min_updates"] - meta.Skipped["fewer_than_2_updates"] - int64(len(kept))
		case sample != nil:
			kept = sample.Pages()
			if all := sampleAll; all != nil && len(all.Pages()) > 0 {
				setUnit(&all.Pages()[0])
			}
			meta.Skipped[SkipNotInSample] = owned - meta.Skipped["min_updates"] - meta.Skipped["fewer_than_2_updates"] - meta.Skipped[SkipFewIntervals] - int64(len(kept))
			meta.SampleEligible = len(kept) + int(meta.Skipped[SkipNotInSample])
		}
		if keep != nil || sample != nil {
			total.Store(int64(len(kept) * perPage))
			for i := range kept {
				if err = sendPage(&kept[i], -1, i); err != nil {
					break
				}
			}
		}
		return err
	}

	// writer: in job order
	sum := newSummary()
	next := 0 // jobs written
	lastLog := time.Now()
	var (
		done, limited int        // jobs crawled, jobs left out by the limits
		pageSkips     int        // left-out jobs of the current page
		emptyPages    int        // pages whose every job was left out
		firstSkip     *jobResult // for the error when every job is left out
		limitSkips    = map[string]int64{}
		jobSkips      = map[int][]string{} // page index → its jobs' limit reasons (ShardFile)
	)
	sink := func(r jobResult) error {
		next++
		if r.seq%perPage == 0 {
			pageSkips = 0
		}
		if r.skip != nil {
			limitSkips[r.skip.Reason]++ // meta.Skipped is the producer's until it is done
			if sharded {
				jobSkips[r.seq/perPage] = append(jobSkips[r.seq/perPage], r.skip.Reason)
			}
			if limited++; limited == 1 {
				firstSkip = &r
			}
			if pageSkips++; pageSkips == perPage {
				emptyPages++
			}
			if limited <= 10 {
				logf("replay: page %d %q with %s%s left out: %v", r.page.ID, r.page.Title, r.smp, seedText(r.seed), r.skip)
			}
			if opt.Progress != nil {
				opt.Progress(next, int(total.Load()))
			}
			return nil
		}
		done++
		est := r.est
		sum.add(est)
		if !r.full {
			estimates.Compact(est, estimates.Knots)
		}
		for i := range est {
			if err := w.Write(&est[i]); err != nil {
				return fmt.Errorf("replay output %s: %w", opt.Out, err)
			}
		}
		if r.obs != nil {
			if err := ow.write(r.seq%perPage, r.obs); err != nil { // one seed: perPage = len(smp)
				return fmt.Errorf("replay output %s: %w", opt.Out, err)
			}
		}
		if opt.Progress != nil {
			opt.Progress(next, int(total.Load()))
		}
		if time.Since(lastLog) > 2*time.Second { // every stage over ~2 s shows progress
			logf("replay: %d page×sampler jobs done (%.0f/s)", next, float64(next)/time.Since(start).Seconds())
			lastLog = time.Now()
		}
		return nil
	}
	finish := func(tmp string) (err error) {
		if done == 0 && limited > 0 && !sharded { // a shard may be all left out; Merge checks the whole
			return &OptionError{Err: fmt.Errorf("every page × sampler exceeds the work limits (%d left out; e.g. page %d %q with %s: %v): raise the limit, lower the sampler's rate or --x-max, or select shorter pages",
				limited, firstSkip.page.ID, firstSkip.page.Title, firstSkip.smp, firstSkip.skip)}
		}
		if limited > 10 {
			logf("replay: %d page × sampler jobs left out by --max-visits/--max-pairs in all", limited)
		}
		wClosed = true
		if err := w.Close(); err != nil {
			return fmt.Errorf("replay output %s: %w", opt.Out, err)
		}
		if meta.Observations, err = ow.finish(); err != nil {
			return fmt.Errorf("replay output %s: %w", opt.Out, err)
		}
		if unit == 0 {
			unit = transform.Hour
		}
		meta.Unit, meta.UnitName = unit, transform.UnitName(unit)
		meta.Pages, meta.Rows = pages-emptyPages, w.Rows()
		for k, v := range limitSkips {
			meta.Skipped[k] += v
		}
		meta.Summary = sum.result(smp, methods)
		meta.Selection = sel.Summary()
		choices.MeanU, choices.XMax, choices.H = SpreadOf(pageMean), SpreadOf(pageXMax), SpreadOf(pageH)
		meta.Choices = &choices
		logf("replay: %s", choices.Describe(meta.UnitName))
		meta.Created = time.Now().UTC()
		meta.ElapsedS = time.Since(start).Seconds()
		if err := writeMeta(tmp, meta); err != nil {
			return fmt.Errorf("replay output %s: %w", opt.Out, err)
		}
		if sharded {
			for i, reasons := range jobSkips {
				sent[i].Skips = reasons
			}
			st := src.Stats()
			info := &ShardInfo{Record: opt.Shard.Record(), Read: owned, Pages: sent, DatasetID: dsID,
				DatasetFiles: baseNames(st.Files), DatasetBytes: st.Bytes}
			if err := estimates.WriteJSON(tmp, ShardFile, info, false); err != nil {
				return fmt.Errorf("replay output %s: %w", opt.Out, err)
			}
		}
		return nil
	}
	// The reorder buffer: 4 tokens per worker (jobTokens).
	err = stage.Run(ctx, stage.Output{Dir: opt.Out, Marker: MetaFile, What: "replay output"}, stage.Stage[job, jobResult]{
		Pool: pool.Options{Workers: workers, Window: 4 * workers},
		Open: openOut, Produce: produce, Work: work, Sink: sink, Finish: finish,
		Abort: func() {
			if w != nil && !wClosed {
				w.Abort()
			}
			if ow != nil {
				ow.close()
			}
		},
	})
	if err != nil {
		return nil, err
	}
	logf("replay: %d pages × %d samplers%s, %d rows in %.1fs → %s", pages, len(smp), seedsText(seeds), meta.Rows, meta.ElapsedS, opt.Out)
	return meta, nil
}

// baseNames is the file names of paths.
func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}

// seedText names seed index r in messages: "" for seed 0 (the only one
// without --seeds).
func seedText(r int) string {
	if r == 0 {
		return ""
	}
	return fmt.Sprintf(" (seed %d)", r)
}

// seedsText is " × R seeds" for R > 1, else "".
func seedsText(r int) string {
	if r <= 1 {
		return ""
	}
	return fmt.Sprintf(" × %d seeds", r)
}
