package crawllog

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/pool"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stage"
	"github.com/revisit-dev/revisit/internal/usage"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// EstimateMetaFile is the record of an estimate output (and its marker).
const EstimateMetaFile = "estimate.json"

// PoissonVerdictKS is the KS distance between a URL's consistent estimate
// of G_U and the exponential of its poisson-mle rate above which the
// verdict is "not Poisson" (docs/methods.md#poisson-verdict).
const PoissonVerdictKS = 0.1

// DefaultMinChanges is K, the fewest detected changes on which a URL
// gets a Poisson verdict (EstimateOptions.MinChanges): below it the
// verdict is "undecided (n changes, need K)". An estimate of G_U from n
// update cycles is off by about c(α)/√n in KS distance by chance alone,
// c(0.05) = √(ln(2/0.05)/2) ≈ 1.358 the asymptotic one-sample KS critical
// value at level 5 %; to tell a distance of PoissonVerdictKS from 0 needs
// c(0.05)/√n ≤ PoissonVerdictKS, n ≥ ⌈(1.358/0.1)²⌉ = 185
// (docs/methods.md#poisson-verdict).
const DefaultMinChanges = 185

// Verdicts of a URL (EstimateMeta.Verdicts' keys).
const (
	VerdictPoisson    = "Poisson"
	VerdictNotPoisson = "not Poisson"
	VerdictUndecided  = "undecided"
)

// Schemes of EstimateOptions.ShardBy and EstimateShardInfo.Scheme.
const (
	ShardByAuto  = "auto"
	ShardByHash  = "hash"  // every shard reads every input; a URL belongs to shard.Of(its page id)
	ShardByRange = "range" // a shard reads its byte range of the inputs (logs.Options.Range)
)

// SkipNoMethod counts the URLs none of whose selected methods their
// observations allow (estimate.json's skipped).
const SkipNoMethod = "no_applicable_method"

// OptionError is an invalid option of EstimateLogs: bad usage
// (usage.Error) rather than bad input.
type OptionError = usage.Error

// EstimateOptions configure EstimateLogs.
type EstimateOptions struct {
	Inputs []string // visit logs ("-": standard input)
	Out    string
	Read   logs.Options
	// Unit is seconds per unit (0: hours); H and XMax in units, 0 per URL
	// (ObservedDefaults).
	Unit       float64
	H, XMax    float64
	Methods    []string
	ConstTol   int64 // seconds (0: DefaultConstTolerance)
	Recover    bool
	RecoverOpt estimator.RecoverOptions
	Top        int // URLs in the tables and figures (0: 10)
	// MinChanges is K, the fewest changes seen on which a URL gets a
	// Poisson verdict (0: DefaultMinChanges; at least 1).
	MinChanges int
	// Curves is what curve each row keeps (estimates.CurvesFull or
	// CurvesCompact; "" is full, the command line's default is compact):
	// compact rows keep estimates.Knots points of their grid. The URL
	// summaries (median age, KS to the Poisson fit, the verdict) and the
	// drawn URLs' projected curves are computed from the whole curves
	// first.
	Curves  estimates.Curves
	Version string
	Log     func(format string, a ...any)

	// Shard estimates only the URLs of one shard (shard.Spec.Owns of
	// generic.PageID(url)) and writes EstimateShardFile beside the
	// estimates, for MergeEstimates; the zero Spec estimates every URL.
	Shard shard.Spec
	// ShardBy is how a shard chooses its URLs: ShardByAuto ("" too) reads
	// only the shard's byte range of the inputs when they allow it
	// (logs.PlanRanges: uncompressed traces, CDX and CDXJ with --sorted)
	// and otherwise every input, keeping the URLs whose id hashes to the
	// shard; ShardByHash always does the latter.
	ShardBy string

	// Workers estimate the URLs in parallel (0: runtime.GOMAXPROCS(0));
	// the output is the same for any number.
	Workers int
}

// URLSummary is one URL's line of the estimate report.
type URLSummary struct {
	URL        string  `json:"url"`
	PageID     int64   `json:"page_id"`
	Visits     int     `json:"visits"`
	Detections int     `json:"detections"`
	Delays     string  `json:"delays"` // "constant" or "irregular"
	Delta      float64 `json:"delta,omitempty"`
	Span       float64 `json:"span"`
	Rate       float64 `json:"poisson_mle_rate"` // per unit
	Reference  string  `json:"reference"`        // M2, M4 or M6 ("" when not among the methods)
	MedianAge  float64 `json:"median_age"`       // smallest x with Ĝ_U(x) ≥ 1/2 (NaN beyond x_max)
	KS         float64 `json:"ks"`               // between the reference and the exponential of Rate
	Verdict    string  `json:"verdict"`
	// VerdictNote says why a URL is undecided: "3 changes, need 185"
	// (fewer than MinChanges changes seen), "M6 not among --methods" (the
	// reference, or poisson-mle, was not asked for), "no estimate" (G_U
	// or λ̂ undefined).
	VerdictNote string `json:"verdict_note,omitempty"`
	// The grid (in units): h, x_max, its bins y_1 … y_N and those without
	// a pair of visits (estimator.ObservedInfo).
	H         float64 `json:"h"`
	XMax      float64 `json:"x_max"`
	Bins      int     `json:"bins"`
	EmptyBins int     `json:"empty_bins"`
	// What the reader knew of the URL (series.Observed): its id in the
	// log when a companion file named it (Source), its importance score
	// (NaN: none; the Bing trace's urlid_imp.txt) and the original URLs
	// its SURT key grouped when more than one (Originals, else 0).
	Source     string  `json:"source,omitempty"`
	Importance float64 `json:"importance"`
	Originals  int     `json:"originals,omitempty"`
}

// VerdictText is the verdict with its note: "undecided (3 changes, need 185)".
func (s *URLSummary) VerdictText() string {
	if s.VerdictNote == "" {
		return s.Verdict
	}
	return s.Verdict + " (" + s.VerdictNote + ")"
}

// EstimateMeta is estimate.json.
type EstimateMeta struct {
	Tool      string            `json:"tool"`
	Version   string            `json:"version"`
	Created   time.Time         `json:"created"`
	Inputs    []logs.InputStats `json:"inputs"`
	Unit      float64           `json:"unit"`
	UnitName  string            `json:"unit_name"`
	H         float64           `json:"h"`     // 0: per URL
	XMax      float64           `json:"x_max"` // 0: per URL
	ConstTol  int64             `json:"const_tolerance_s"`
	Methods   []string          `json:"methods"`
	Captures  int64             `json:"captures"`
	URLs      int64             `json:"urls"`      // URLs with a capture with content
	Estimated int               `json:"estimated"` // URLs estimated
	Constant  int               `json:"constant"`  // of which with constant delays
	Rows      int64             `json:"rows"`
	Skipped   map[string]int64  `json:"skipped,omitempty"`
	Bad       int64             `json:"bad"`
	Verdicts  map[string]int    `json:"verdicts"`
	Threshold float64           `json:"verdict_ks_threshold"`
	// MinChanges is K: URLs with fewer changes seen are undecided, and
	// FewChanges counts them (of Verdicts["undecided"]).
	// What the reader counted beyond Skipped (logs.Stats): revisit
	// records resolved, SURT keys that grouped several original URLs and
	// those URLs.
	RevisitsResolved int64 `json:"revisits_resolved"`
	MergedKeys       int64 `json:"merged_keys"`
	MergedOriginals  int64 `json:"merged_originals"`
	MinChanges       int   `json:"min_changes"`
	// Bins and EmptyBins total the bins of the URLs' grids and those
	// without a pair of visits (M6's W(y_n) = 0; per URL in urls.csv),
	// EmptyShare = EmptyBins/Bins (docs/methods.md#observed-grid).
	Bins       int64   `json:"bins"`
	EmptyBins  int64   `json:"empty_bins"`
	EmptyShare float64 `json:"empty_bin_share"`
	FewChanges int     `json:"undecided_few_changes"`
	ElapsedS   float64 `json:"elapsed_s"`
	Shard      string  `json:"shard,omitempty"`  // "i/N" in the output of one shard (Shard)
	Curves     string  `json:"curves,omitempty"` // "compact" or "full" (EstimateOptions.Curves); absent: full
}

// drawnURLs is the number of URLs whose G_U and F_U are drawn.
const drawnURLs = 3

// topURL is a URL drawn in the figures: the most visits, the earliest
// read among equals.
type topURL struct {
	sum URLSummary
	est []estimator.Estimate // the drawn rows, projected (estimator.Monotone)
	seq int64                // place among the URLs read (MergeEstimates)
}

// EstimateLogs reads visit logs, estimates every URL with every applicable
// method (EstimateObserved) and writes opt.Out atomically:
// estimates.parquet (replay's schema, no truth rows), estimate.json, and
// tables/ and figures/ for `revisit report` (the top URLs by visits,
// their estimated G_U and F_U, the Poisson verdict).
func EstimateLogs(ctx context.Context, opt EstimateOptions) (*EstimateMeta, error) {
	start := time.Now()
	logf := opt.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	unit := opt.Unit
	if unit == 0 {
		unit = transform.Hour
	}
	top := opt.Top
	if top <= 0 {
		top = 10
	}
	methods := estimator.AllMethods
	if len(opt.Methods) > 0 {
		var err error
		if methods, err = estimator.ParseMethods(opt.Methods); err != nil {
			return nil, &OptionError{Err: err}
		}
	}
	for _, v := range []float64{opt.H, opt.XMax} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, &OptionError{Err: fmt.Errorf("--h and --x-max must be > 0 (or 0: per URL), got %g", v)}
		}
	}
	if opt.H > 0 && opt.XMax > 0 && opt.H > opt.XMax {
		return nil, &OptionError{Err: fmt.Errorf("bin width --h %g is larger than --x-max %g", opt.H, opt.XMax)}
	}
	if opt.Recover {
		if err := opt.RecoverOpt.Check(); err != nil {
			return nil, &OptionError{Err: err}
		}
	}
	minChanges := opt.MinChanges
	switch {
	case minChanges == 0:
		minChanges = DefaultMinChanges
	case minChanges < 0:
		return nil, &OptionError{Err: fmt.Errorf("--min-changes must be ≥ 1, got %d", minChanges)}
	}
	if opt.Workers < 0 {
		return nil, &OptionError{Err: fmt.Errorf("--workers must be ≥ 0, got %d", opt.Workers)}
	}
	if opt.Out == "" {
		return nil, &OptionError{Err: errors.New("no output directory (-o)")}
	}
	switch opt.ShardBy {
	case "", ShardByAuto, ShardByHash:
	default:
		return nil, &OptionError{Err: fmt.Errorf("--shard-by %q: want %s or %s", opt.ShardBy, ShardByAuto, ShardByHash)}
	}
	scheme := ""
	if opt.Shard.Sharded() {
		switch opt.ShardBy {
		case "", ShardByAuto:
			why, err := logs.PlanRanges(opt.Inputs, opt.Read)
			if err != nil {
				return nil, err
			}
			if why == "" {
				scheme = ShardByRange
				logf("estimate: shard %s reads only its byte range of the inputs", opt.Shard)
			} else {
				scheme = ShardByHash
				logf("estimate: shard %s reads every input (%s; byte ranges need uncompressed traces, or CDX or CDXJ with --sorted) and keeps the URLs whose id hashes to it", opt.Shard, why)
			}
		case ShardByHash:
			scheme = ShardByHash
		}
	}
	curves := estimates.CurvesFull
	if opt.Curves != "" {
		var err error
		if curves, err = estimates.ParseCurves(string(opt.Curves)); err != nil {
			return nil, &OptionError{Err: err}
		}
	}
	compact := curves == estimates.CurvesCompact
	// The writers, created in the output by openOut (below) and released
	// by abort unless finish closed them.
	var (
		w          *estimates.Writer
		written    bool
		uw         *urlsWriter
		urlsClosed bool
		sh         *estimateShard // nil unless sharded
		shardDone  bool
	)
	meta := &EstimateMeta{Tool: "revisit", Version: opt.Version, Unit: unit, UnitName: transform.UnitName(unit),
		H: opt.H, XMax: opt.XMax, ConstTol: opt.ConstTol, Methods: methods, Skipped: map[string]int64{},
		Verdicts: map[string]int{}, Threshold: PoissonVerdictKS, MinChanges: minChanges, Curves: string(curves)}
	switch {
	case meta.ConstTol == 0:
		meta.ConstTol = estimator.DefaultConstTolerance
	case meta.ConstTol < 0:
		meta.ConstTol = 0 // exact equality
	}
	cfg := estimator.ObservedConfig{Config: estimator.Config{Methods: methods, H: opt.H, XMax: opt.XMax, Recover: opt.Recover, RecoverOpt: opt.RecoverOpt, UnitName: meta.UnitName},
		Unit: unit, ConstTol: opt.ConstTol, CountEmpty: true}
	openOut := func(tmp string) error {
		var err error
		if w, err = estimates.NewWriter(filepath.Join(tmp, estimates.File)); err != nil {
			return fmt.Errorf("estimate output %s: %w", opt.Out, err)
		}
		if err := cfg.Prepare(); err != nil {
			return &OptionError{Err: err}
		}
		if uw, err = newURLsWriter(tmp); err != nil {
			return fmt.Errorf("estimate output %s: %w", opt.Out, err)
		}
		if sh, err = newEstimateShard(opt, top, scheme, tmp); err != nil {
			return fmt.Errorf("estimate output %s: %w", opt.Out, err)
		}
		return nil
	}
	abort := func() {
		if w != nil && !written {
			w.Abort()
		}
		if uw != nil && !urlsClosed {
			uw.f.Close()
		}
		if !shardDone {
			sh.abort()
		}
	}
	var (
		tops  []URLSummary // the URLs of the report's table (keepTop)
		drawn []topURL
		last  = time.Now()
		count int // URLs read
		done  int // URLs sunk
		stats *logs.Stats
	)
	// The URLs are estimated on opt.Workers goroutines in batches
	// (batchURLs, batchVisits) and their rows written in read order
	// (pool.Ordered): the same bytes for any number of workers. A batch
	// costs a token per batchVisits visits begun, so that a URL of many
	// visits is estimated alone (its cost clamped to the whole window).
	produce := func(ctx context.Context, send pool.Send[[]urlJob]) error {
		var b []urlJob
		visitsHeld := 0
		var err error
		ropt := opt.Read
		if ropt.Log == nil {
			ropt.Log = logf
		}
		own := opt.Shard.Owns
		if scheme == ShardByRange {
			ropt.Range = opt.Shard
			own = func(int64) bool { return true } // the range read is the shard's
		}
		stats, err = logs.Read(ctx, opt.Inputs, ropt, func(o *series.Observed) error {
			count++
			seq := int64(count - 1) // the URL's place among all URLs read (in a byte range: among its URLs)
			id := generic.PageID(o.ID)
			if !own(id) {
				return nil
			}
			b = append(b, urlJob{o: o, id: id, seq: seq})
			visitsHeld += len(o.Visits)
			if len(b) < batchURLs && visitsHeld < batchVisits {
				return nil
			}
			err := send(b, 1+visitsHeld/batchVisits)
			b, visitsHeld = nil, 0
			return err
		})
		if err == nil && len(b) > 0 {
			err = send(b, 1+visitsHeld/batchVisits)
		}
		return err
	}
	work := func(ctx context.Context, b []urlJob) ([]urlResult, error) {
		out := make([]urlResult, len(b))
		for i := range b {
			out[i] = estimateURL(ctx, b[i], cfg, minChanges, compact)
		}
		return out, nil
	}
	sink := func(rs []urlResult) error {
		for i := range rs {
			r := &rs[i]
			done++
			if time.Since(last) > 5*time.Second {
				logf("estimate: %d URLs", done)
				last = time.Now()
			}
			o, est, s := r.job.o, r.est, r.sum
			var le *estimator.LimitError
			switch err := r.err; {
			case errors.Is(err, estimator.ErrFewVisits):
				meta.Skipped["fewer_than_2_visits"]++
				sh.other(o)
				continue
			case errors.As(err, &le):
				meta.Skipped[le.Reason]++
				logf("estimate: %s left out: %v", o.ID, le)
				sh.other(o)
				continue
			case err != nil:
				return fmt.Errorf("URL %s: %w", o.ID, err)
			case len(est) == 0: // none of the methods applies (ages, constant delays)
				meta.Skipped[SkipNoMethod]++
				sh.other(o)
				continue
			}
			for i := range est {
				if err := w.Write(&est[i]); err != nil {
					return fmt.Errorf("estimate output %s: %w", opt.Out, err)
				}
			}
			meta.Estimated++
			if r.info.Constant {
				meta.Constant++
			}
			meta.Verdicts[s.Verdict]++
			if s.Detections < minChanges {
				meta.FewChanges++
			}
			uw.add(&s)
			tops = keepTop(tops, s, top)
			meta.Bins += int64(s.Bins)
			meta.EmptyBins += int64(s.EmptyBins)
			sh.add(r.job.seq, s, len(est))
			if !(len(drawn) >= drawnURLs && drawn[drawnURLs-1].sum.Visits >= s.Visits) { // else keepDrawn would leave it out
				drawn = keepDrawn(drawn, topURL{s, estimator.Monotone(r.draw, opt.RecoverOpt, cfg.UnitName), r.job.seq})
			}
		}
		return nil
	}
	finish := func(tmp string) error {
		if g := stats.Range; g != nil {
			logf("estimate: shard %s read bytes %d…%d of the inputs' %d (%s): %d URLs", opt.Shard, g.Start, g.End, g.Total, pct(float64(g.End-g.Start)/float64(max(g.Total, 1))), count)
		}
		sh.done(count, meta.Skipped, stats, drawn)
		meta.Inputs, meta.Captures, meta.URLs, meta.Bad = stats.Inputs, stats.Captures, stats.URLs, stats.Bad
		meta.RevisitsResolved, meta.MergedKeys, meta.MergedOriginals = stats.RevisitsResolved, stats.MergedKeys, stats.MergedOriginals
		for k, v := range stats.Skipped {
			meta.Skipped[k] += v
		}
		if meta.Estimated == 0 && sh == nil { // a shard may own no URL: the merge checks
			return noURLError(len(opt.Inputs), meta)
		}
		if err := w.Close(); err != nil {
			written = true
			return fmt.Errorf("estimate output %s: %w", opt.Out, err)
		}
		written = true
		meta.Rows = w.Rows()
		meta.EmptyShare = emptyShare(meta.Bins, meta.EmptyBins)
		urlsClosed = true
		if err := uw.close(); err != nil {
			return fmt.Errorf("estimate output %s: %w", opt.Out, err)
		}
		b := estimateBundleOf(meta, tops, drawn)
		if err := b.Write(tmp); err != nil {
			return fmt.Errorf("estimate output %s: %w", opt.Out, err)
		}
		meta.Created = time.Now().UTC()
		meta.ElapsedS = time.Since(start).Seconds()
		meta.Shard = opt.Shard.String()
		shardDone = true
		if err := sh.write(tmp); err != nil {
			return fmt.Errorf("estimate output %s: %w", opt.Out, err)
		}
		if err := estimates.WriteJSON(tmp, EstimateMetaFile, meta, true); err != nil {
			return fmt.Errorf("estimate output %s: %w", opt.Out, err)
		}
		return nil
	}
	err := stage.Run(ctx, stage.Output{Dir: filepath.Clean(opt.Out), Marker: EstimateMetaFile, What: "estimate output"}, stage.Stage[[]urlJob, []urlResult]{
		Pool: pool.Options{Workers: opt.Workers},
		Open: openOut, Produce: produce, Work: work, Sink: sink, Finish: finish, Abort: abort,
	})
	if err != nil {
		return nil, err
	}
	logf("estimate: %s estimated (%s with constant delays), %s in %.1fs → %s", human.Count(int64(meta.Estimated), "URL", "URLs"), human.Comma(int64(meta.Constant)), human.Count(meta.Rows, "row", "rows"), meta.ElapsedS, opt.Out)
	return meta, nil
}

// A batch of URLs is estimated by one worker: at most batchURLs URLs, or
// fewer of batchVisits visits in all.
const (
	batchURLs   = 64
	batchVisits = 1 << 16
)

// urlJob is one URL read, owned by the shard.
type urlJob struct {
	o   *series.Observed
	id  int64 // generic.PageID(o.ID)
	seq int64 // its place among all URLs read
}

// urlResult is a URL estimated (estimateURL): its rows as they are
// written, the whole raw rows its figures would draw (projected only when
// the URL is drawn), its report line, or the error that left it out.
type urlResult struct {
	job  urlJob
	est  []estimator.Estimate
	draw []estimator.Estimate
	info estimator.ObservedInfo
	err  error
	sum  URLSummary
}

// estimateURL estimates one URL with every applicable method
// (EstimateObserved), its report line and verdict (summarize, on the
// projections of the rows it needs), the rows its figures would draw,
// whole, and the rows as written to estimates.parquet: raw, compacted
// when compact. It only reads cfg.
func estimateURL(ctx context.Context, j urlJob, cfg estimator.ObservedConfig, minChanges int, compact bool) urlResult {
	r := urlResult{job: j}
	r.est, r.info, r.err = estimator.EstimateObserved(ctx, j.o, cfg)
	if r.err != nil || len(r.est) == 0 {
		return r
	}
	r.sum = summarize(j.o, j.id, r.info, r.est, minChanges)
	r.draw = drawRows(r.sum, r.est) // copies of the rows: Compact gives est new curves, these keep the whole ones
	if compact {
		estimates.Compact(r.est, estimates.Knots)
	}
	for i := range r.est {
		r.est[i].PageID, r.est[i].Title = j.id, j.o.ID
	}
	return r
}

// findRow is the row of method and kind in est (nil if absent).
func findRow(est []estimator.Estimate, method, kind string) *estimator.Estimate {
	for i := range est {
		if est[i].Method == method && est[i].Kind == kind {
			return &est[i]
		}
	}
	return nil
}

// summarize is a URL's report line with its Poisson verdict, from its raw
// rows est: the median age on the monotone projection of the reference
// estimate of G_U, and the KS distance, on the URL's grid, between that
// projection and the exponential 1 − e^{−λ̂x} of the poisson-mle rate;
// "Poisson" when it is at most PoissonVerdictKS, "not Poisson" above,
// "undecided" when either is undefined or fewer than minChanges changes
// were seen. Only what is shown is computed: the reference's projection
// when it is among the rows, and the distance only when a verdict can be
// given (minChanges changes or more).
func summarize(o *series.Observed, id int64, info estimator.ObservedInfo, est []estimator.Estimate, minChanges int) URLSummary {
	s := URLSummary{URL: o.ID, PageID: id, Visits: info.Visits, Detections: info.Detections, Delays: "irregular",
		Span: info.Span, Rate: math.NaN(), MedianAge: math.NaN(), KS: math.NaN(), Verdict: VerdictUndecided,
		H: info.H, XMax: info.XMax, Bins: info.Bins, EmptyBins: info.EmptyBins, Source: o.Source, Importance: math.NaN(), Originals: o.Originals}
	if o.HasImportance {
		s.Importance = o.Importance
	}
	if info.Constant {
		s.Delays, s.Delta = "constant", info.Delta
	}
	want := estimator.ReferenceMethod(info.Ages, info.Constant, false)
	ref := findRow(est, want, estimator.KindG)
	if ref != nil { // else not among the methods
		s.Reference = want
	}
	pm := findRow(est, estimator.MethodPoissonMLE, estimator.KindG)
	if pm != nil {
		s.Rate = pm.Rate
	}
	if ref != nil {
		g := estimator.MonotoneCDF(ref.CDF, ref.Evidence)
		for i, p := range g.P {
			if p >= 0.5 {
				s.MedianAge = g.X[i]
				break
			}
		}
		if pm != nil && s.Detections >= minChanges {
			s.KS = series.KS(g.P, estimator.MonotoneCDF(pm.CDF, pm.Evidence).P)
		}
	}
	switch {
	case s.Detections < minChanges:
		s.VerdictNote = fmt.Sprintf("%s, need %d", human.Count(int64(s.Detections), "change", "changes"), minChanges)
	case ref == nil:
		s.VerdictNote = want + " not among --methods"
	case pm == nil:
		s.VerdictNote = estimator.MethodPoissonMLE + " not among --methods"
	case math.IsNaN(s.KS):
		s.VerdictNote = "no estimate"
	case s.KS <= PoissonVerdictKS:
		s.Verdict = VerdictPoisson
	default:
		s.Verdict = VerdictNotPoisson
	}
	return s
}

// drawRows are the rows of a URL's figures: G_U and F_U of its
// reference method, G-M4 and poisson-mle (copies of the rows of est).
func drawRows(s URLSummary, est []estimator.Estimate) []estimator.Estimate {
	var rows []estimator.Estimate
	for _, meth := range []string{s.Reference, estimator.MethodGM4, estimator.MethodPoissonMLE} {
		for _, kind := range []string{estimator.KindG, estimator.KindF} {
			if r := findRow(est, meth, kind); r != nil {
				rows = append(rows, *r)
			}
		}
	}
	return rows
}

// keepDrawn adds t, read after every URL of drawn, to the URLs drawn:
// at most drawnURLs, the most visits first, the earliest read among
// equals. The order is total, so the URLs drawn among all are among those
// drawn in their shards, which record their rows (MergeEstimates).
func keepDrawn(drawn []topURL, t topURL) []topURL {
	i := len(drawn)
	for i > 0 && drawn[i-1].sum.Visits < t.sum.Visits {
		i--
	}
	if i >= drawnURLs {
		return drawn
	}
	drawn = slices.Insert(drawn, i, t)
	return drawn[:min(len(drawn), drawnURLs)]
}

// keepTop adds s, read after every URL of tops, to the URLs of the
// report's table: at most n, the most visits first, the earliest read
// among equals — the first n of all the URLs sorted stably by visits.
func keepTop(tops []URLSummary, s URLSummary, n int) []URLSummary {
	i := len(tops)
	for i > 0 && tops[i-1].Visits < s.Visits {
		i--
	}
	if i >= n {
		return tops
	}
	tops = slices.Insert(tops, i, s)
	return tops[:min(len(tops), n)]
}

// skippedText lists skip counts for people ("; skipped: 3 fewer than 2
// visits, 1 no applicable method"), in a stable order; "" when none.
// noURLError is the error of an estimate of inputs inputs that estimated
// no URL (m.Estimated = 0), from its counts (EstimateLogs, MergeEstimates).
func noURLError(inputs int, m *EstimateMeta) error {
	why := "a URL needs at least 2 visits with content"
	if m.Skipped[SkipNoMethod] > 0 {
		var ages []string // from the registry, as ConstantOnly
		for _, r := range (estimator.Registry{}).Methods() {
			if r.Observes == estimator.Age {
				ages = append(ages, r.Name)
			}
		}
		why += fmt.Sprintf(", and one of --methods %v that its observations allow (%s need Last-Modified; %s constant delays)",
			m.Methods, strings.Join(ages, ", "), strings.Join(estimator.Registry{}.ConstantOnly(), ", "))
	}
	return fmt.Errorf("no URL to estimate in %s (%s, %s%s): %s", human.Count(int64(inputs), "input", "inputs"),
		human.Count(m.Captures, "capture", "captures"), human.Count(m.URLs, "URL", "URLs"), skippedText(m.Skipped), why)
}

func skippedText(m map[string]int64) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if m[k] > 0 {
			parts = append(parts, human.Comma(m[k])+" "+strings.ReplaceAll(k, "_", " "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; skipped: " + strings.Join(parts, ", ")
}
