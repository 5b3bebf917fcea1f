package analysis

import (
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// Files of an analysis shard's output (RunShard).
const (
	PartialFile   = "partial.gob"    // the Partial
	ShardStatFile = "page_stats.gob" // the shard's page statistics with their dataset positions
	ShardKind     = "analysis-shard" // its results kind (marker .revisit-analysis-shard)
)

// Partial is what one pass over the pages of a shard leaves for the
// tables: every per-page result with the page's dataset position (so that
// the shards' results go back into dataset order), sums and extremes,
// and for the selections (top pages, closest to Poisson, busiest pages
// for NHPP and staleness, the aggregate sample) the shard's own best
// candidates, from which the merge selects with the same rule. Merging
// the Partials of shards 0…N−1 (MergePartials) gives exactly the Partial
// of one pass over all pages, so the tables are identical.
type Partial struct {
	Tool   string // "revisit"
	Format int    // PartialFormat
	Shard  string // "i/N"; "" for a whole dataset
	I, N   int
	Opt    PartialOptions
	Unit   float64

	Pages              int
	Updates, Intervals int64
	First, Last        int64 // Unix seconds; First 0: no update yet
	Screened, InBand   int
	CoVCounts          []int64        // screened pages per CoV histogram bin (covBin; covBins of them)
	Candidates         []PosCandidate // pages in the band with their checks, dataset order
	Closest            []Near         // the Closest smallest |v − 1|, ties in dataset order
	Top                []series.Page  // the Top pages with the most updates (transform.TopKeeper)
	Keep               []series.Page  // the busiest pages for NHPP and staleness (busiestKeeper)
	KeepTop            []PageRank     // the SelectMax busiest pages, kept or not
	KeepOver           bool           // their bytes exceed the budget: Keep is the run (busiestKeeper)
	KeepBar            *PageRank      // the busiest page cut from Keep for the byte budget; nil: none
	Agg                []HashedValue  // the AggregateMax intervals with the smallest keys, by key
	Bins               survBins       // intervals per survival bin
	PageErrors         []PosPageError // errors of the shard's estimates, by replay row
	ReplaySource       string
	Selection          *dataset.SelectionSummary // over the whole dataset: the same in every shard
	// DatasetID is the dataset's dataset.Reader.Identity: shards of one
	// analysis read the same dataset, not only the same path.
	DatasetID string
	// DatasetFiles are the dataset's Parquet files the shard opened (only
	// its own parts of a dataset in a multiple of N parts) and
	// DatasetBytes the bytes it read from them.
	DatasetFiles []string
	DatasetBytes int64
}

// PartialFormat is the version of Partial's layout: a shard written with
// another layout (an older revisit's: per-page CoVs and full candidate
// checks; before format 3, no KeepTop, KeepOver and KeepBar of the byte-bounded
// busiest pages; before format 4, the survival bins as a gob map) would
// decode into empty fields, so ReadPartial refuses it.
const PartialFormat = 4

// survBins counts intervals per survival bin (survBinsPerDecade bins per
// decade of x). It is written in key order: gob writes a map in Go's
// random iteration order, which made two runs of one shard write
// different files.
type survBins map[int]int64

// GobEncode writes the bins as varint pairs (key, count) in key order.
func (b survBins) GobEncode() ([]byte, error) {
	buf := make([]byte, 0, 8*len(b))
	for _, k := range slices.Sorted(maps.Keys(b)) {
		buf = binary.AppendVarint(buf, int64(k))
		buf = binary.AppendVarint(buf, b[k])
	}
	return buf, nil
}

// GobDecode reads what GobEncode wrote.
func (b *survBins) GobDecode(data []byte) error {
	m := survBins{}
	for len(data) > 0 {
		k, n := binary.Varint(data)
		if n <= 0 {
			return errors.New("survival bins: bad key")
		}
		data = data[n:]
		v, n := binary.Varint(data)
		if n <= 0 {
			return errors.New("survival bins: bad count")
		}
		data = data[n:]
		m[int(k)] = v
	}
	*b = m
	return nil
}

// PartialOptions are the options a Partial was computed with; shards of
// one analysis must agree on them.
type PartialOptions struct {
	Dataset, Replay    string
	Unit               float64
	Top, MinUpdates    int
	Band               float64
	MaxLag, Closest    int
	XMax               float64
	Extra              int
	Seed               uint64
	Reps, AggregateMax int
	Localized          LocalizedOptions
	Select             dataset.SelectionSpec // Options.Select's criteria
}

func partialOptionsOf(o *Options) PartialOptions {
	return PartialOptions{Dataset: o.Dataset, Replay: o.Replay, Unit: o.Unit, Top: o.Top, MinUpdates: o.MinUpdates,
		Band: o.Band, MaxLag: o.MaxLag, Closest: o.Closest, XMax: o.XMax, Extra: o.Extra, Seed: o.Seed,
		Reps: o.Reps, AggregateMax: o.AggregateMax, Localized: o.Localized, Select: o.Select.Spec()}
}

func (p PartialOptions) options() Options {
	return Options{Dataset: p.Dataset, Replay: p.Replay, Unit: p.Unit, Top: p.Top, MinUpdates: p.MinUpdates,
		Band: p.Band, MaxLag: p.MaxLag, Closest: p.Closest, XMax: p.XMax, Extra: p.Extra, Seed: p.Seed,
		Reps: p.Reps, AggregateMax: p.AggregateMax, Localized: p.Localized}
}

// PosCandidate is a page in the band at dataset row Pos.
type PosCandidate struct {
	Pos int64
	CandidateRow
}

// Near is a page close to Poisson: its statistics and intervals.
type Near struct {
	Pos   int64
	Stats PageStats
	U     []float64
}

// PosPageError is a page error with the index of its row in the replay
// output.
type PosPageError struct {
	Row int
	PageError
}

// HashedValue is an interval of the aggregate sample with its key.
type HashedValue struct {
	Key  uint64
	Page int64
	I    int
	V    float64
}

func (a HashedValue) cmp(b HashedValue) int {
	return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.Page, b.Page), cmp.Compare(a.I, b.I))
}

// bottomK keeps the k intervals with the smallest key
// SplitMix64(SplitMix64(page ⊕ SplitMix64(seed)) + i) (shard.Hash), i the
// interval's index in its page: a uniform sample without replacement of
// all intervals (each interval's key is an independent-looking uniform
// draw), which depends neither on the order pages are read in nor on how
// they are split among shards: the bottom k of the union of the shards'
// bottom k is the bottom k of all. Memory: up to 2k values; time O(1)
// per interval (amortized; see offerKey).
type bottomK struct {
	k    int
	seed uint64
	// buf holds every offered interval not yet known to be outside the k
	// smallest: after a compaction its first k are the k smallest so far
	// and thr (valid when full) the largest of them; later offers above
	// thr cannot enter.
	buf  []HashedValue
	thr  HashedValue
	full bool
}

func newBottomK(k int, seed uint64) *bottomK {
	return &bottomK{k: k, seed: shard.Hash(int64(seed))}
}

func (b *bottomK) offer(page int64, i int, v float64) {
	b.offerKey(aggKey(b.seed, page, i), page, i, v)
}

// aggKey is the key of interval i of page under the hashed seed
// shard.Hash(seed) (bottomK).
func aggKey(seedHash uint64, page int64, i int) uint64 {
	return shard.Hash(int64(shard.Hash(int64(uint64(page)^seedHash)) + uint64(i)))
}

// offerKey is offer with the interval's key (aggKey) already computed.
// An interval below the threshold is appended to buf; when buf holds 2k,
// it is cut to its k smallest (selectSmallest, O(k)) and the threshold
// lowered: O(1) amortized per interval that enters, where a heap of k
// takes O(log k), a cost that shows over millions of intervals.
func (b *bottomK) offerKey(key uint64, page int64, i int, v float64) {
	if b.k <= 0 {
		return
	}
	hv := HashedValue{Key: key, Page: page, I: i, V: v}
	if b.full && (key > b.thr.Key || key == b.thr.Key && hv.cmp(b.thr) > 0) {
		return
	}
	b.buf = append(b.buf, hv)
	if len(b.buf) >= 2*b.k {
		b.compact()
	}
}

// compact cuts buf to its k smallest and sets the threshold.
func (b *bottomK) compact() {
	selectSmallest(b.buf, b.k)
	b.buf = b.buf[:b.k]
	b.thr, b.full = b.buf[b.k-1], true
}

// sorted returns the sample by key.
func (b *bottomK) sorted() []HashedValue {
	out := slices.Clone(b.buf)
	slices.SortFunc(out, HashedValue.cmp)
	return out[:min(len(out), b.k)]
}

// selectSmallest reorders x so that x[k−1] is its k-th smallest value (by
// HashedValue.cmp; the values are distinct), with the smaller ones before
// it and the larger ones after: Wirth's (Hoare's) selection, O(len(x))
// expected for keys that look random, as hashes do. 1 ≤ k ≤ len(x).
func selectSmallest(x []HashedValue, k int) {
	t := k - 1
	lo, hi := 0, len(x)-1
	for lo < hi {
		p := x[t]
		i, j := lo, hi
		for i <= j {
			for x[i].cmp(p) < 0 {
				i++
			}
			for p.cmp(x[j]) < 0 {
				j--
			}
			if i <= j {
				x[i], x[j] = x[j], x[i]
				i++
				j--
			}
		}
		if j < t {
			lo = i
		}
		if t < i {
			hi = j
		}
	}
}

// MergePartials combines the Partials of shards 0…N−1 (each exactly once,
// with the same options and unit) into the Partial of all pages.
func MergePartials(parts []*Partial) (*Partial, error) {
	if len(parts) == 0 {
		return nil, errors.New("merge: no analysis shards")
	}
	var mg partialMerger
	for k, p := range parts {
		if err := mg.add(fmt.Sprintf("part %d", k), p); err != nil {
			return nil, err
		}
	}
	return mg.finish()
}

// partialMerger folds the Partials of shards 0…N−1 in one at a time
// (MergePartials), so a merge holds one shard's Partial and the running
// selections, never all the shards' at once: the aggregate sample as a
// running bottom k (bottomK: the bottom k of the union of the shards'
// bottom k is the bottom k of all), the top and busiest pages in their
// keepers (transform.TopKeeper and busiestKeeper: most updates, then the
// smaller ID, a total order, so the order shards come in does not
// matter; the busiest also bounded in bytes, with each shard's bar) and the Closest
// pages cut back to Closest after each shard (by |v − 1| then dataset
// position, again a total order). Memory: one shard's Partial, 2·AggregateMax
// sample values, Top + SelectMax pages, Closest pages, and the sums, the
// candidates in the band and the page errors (as in one pass over all
// pages).
type partialMerger struct {
	p0   *Partial // the first shard's (options, unit, replay); its selections are not kept
	m    *Partial
	set  shard.Set
	top  *transform.TopKeeper
	keep *busiestKeeper
	agg  *bottomK
}

// add checks that p, read from dir, belongs to the same split and
// options as the first shard added and folds it in. p is not kept, but
// the merge keeps the series of its pages that enter the top or busiest
// selection.
func (mg *partialMerger) add(dir string, p *Partial) error {
	if mg.m == nil {
		if p.N < 1 {
			return errors.New("merge: not the analysis of a shard (analyze --shard i/N)")
		}
		o := p.Opt
		mg.p0 = &Partial{Shard: p.Shard, N: p.N, Opt: p.Opt, Unit: p.Unit, ReplaySource: p.ReplaySource}
		mg.m = &Partial{Tool: "revisit", Format: PartialFormat, Opt: o, Unit: p.Unit, ReplaySource: p.ReplaySource, Selection: p.Selection, Bins: survBins{}}
		mg.top = transform.NewTopKeeper(o.Top)
		oo := o.options()
		mg.keep = newLocalizedKeeper(&oo)
		mg.agg = newBottomK(o.AggregateMax, o.Seed)
	}
	p0 := mg.p0
	if err := mg.set.Add(dir, shard.Record{Tool: p.Tool, Shard: p.Shard, I: p.I, N: p.N}); err != nil {
		return err
	}
	if !reflect.DeepEqual(p.Opt, p0.Opt) {
		return fmt.Errorf("merge: shards %s and %s were analyzed with different options (%+v vs %+v)", p0.Shard, p.Shard, p0.Opt, p.Opt)
	}
	if p.Unit != p0.Unit || p.ReplaySource != p0.ReplaySource {
		return fmt.Errorf("merge: shards %s and %s differ in unit or replay (%g %q vs %g %q)", p0.Shard, p.Shard, p0.Unit, p0.ReplaySource, p.Unit, p.ReplaySource)
	}
	m, o := mg.m, p0.Opt
	m.Pages += p.Pages
	m.Updates += p.Updates
	m.Intervals += p.Intervals
	if p.First != 0 && (m.First == 0 || p.First < m.First) {
		m.First = p.First
	}
	m.Last = max(m.Last, p.Last)
	m.Screened += p.Screened
	m.InBand += p.InBand
	if len(p.CoVCounts) > len(m.CoVCounts) {
		m.CoVCounts = append(m.CoVCounts, make([]int64, len(p.CoVCounts)-len(m.CoVCounts))...)
	}
	for i, c := range p.CoVCounts {
		m.CoVCounts[i] += c
	}
	m.Candidates = append(m.Candidates, p.Candidates...)
	m.Closest = append(m.Closest, p.Closest...)
	slices.SortStableFunc(m.Closest, func(a, b Near) int {
		return cmp.Or(cmp.Compare(math.Abs(a.Stats.CoV-1), math.Abs(b.Stats.CoV-1)), cmp.Compare(a.Pos, b.Pos))
	})
	m.Closest = slices.Clip(m.Closest[:min(len(m.Closest), o.Closest)])
	for i := range p.Top {
		mg.top.Offer(&p.Top[i])
	}
	if mg.keep != nil {
		mg.keep.offerPartial(p)
	}
	for _, a := range p.Agg {
		mg.agg.offerKey(a.Key, a.Page, a.I, a.V)
	}
	for k, v := range p.Bins {
		m.Bins[k] += v
	}
	m.PageErrors = append(m.PageErrors, p.PageErrors...)
	return nil
}

// finish checks that every shard was added and returns the merged
// Partial.
func (mg *partialMerger) finish() (*Partial, error) {
	if mg.m == nil {
		return nil, errors.New("merge: no analysis shards")
	}
	if _, err := mg.set.Finish(); err != nil {
		return nil, err
	}
	m := mg.m
	slices.SortStableFunc(m.Candidates, func(a, b PosCandidate) int { return cmp.Compare(a.Pos, b.Pos) })
	m.Top = mg.top.Pages()
	if mg.keep != nil {
		mg.keep.fill(m)
	}
	m.Agg = mg.agg.sorted()
	slices.SortStableFunc(m.PageErrors, func(a, b PosPageError) int { return cmp.Compare(a.Row, b.Row) })
	return m, nil
}

// RunShard is Run on the pages of shard sp only: it writes, atomically,
// an analysis shard (results kind ShardKind) holding the shard's Partial
// and its page statistics, for MergeShards. Every shard reads the whole
// replay output (give the merged replay) and, of the dataset, its own
// parts when the dataset is in a multiple of N parts
// (dataset.Reader.ShardSource), else every page (skipping the work of the
// pages it does not own).
func RunShard(ctx context.Context, opt Options, sp shard.Spec) error {
	opt.defaults()
	if opt.Out == "" {
		return errorf("no output directory")
	}
	if sp.N < 1 {
		return errorf("RunShard needs a shard i/N")
	}
	r, err := dataset.OpenPartial(opt.Dataset) // a node may hold only the shard's own parts
	if err != nil {
		return err
	}
	dsID, err := r.Identity()
	if err != nil {
		return err
	}
	// Only the shard's own parts of a dataset in a multiple of N parts.
	src, unit, note := r.ShardSource(sp, opt.Unit, opt.Select)
	logf(opt.Log, "analyze: %s", note)
	var (
		f   *os.File
		bw  *bufio.Writer
		enc *gob.Encoder
	)
	a := newPass(src.EachPos, opt, sp, unit, NewLillieforsNull(opt.Seed, opt.Reps))
	s := a.stage(func(tmp, _ string) (err error) {
		if f, err = os.Create(filepath.Join(tmp, ShardStatFile)); err != nil {
			return err
		}
		bw = bufio.NewWriterSize(f, 1<<16)
		enc = gob.NewEncoder(bw)
		return nil
	}, func(pos int64, st PageStats, sc *PageScreen) error {
		return enc.Encode(posStats{pos, st, sc})
	}, func(tmp string, p *Partial) error {
		if err := bw.Flush(); err != nil {
			return errorf("%w", err)
		}
		err := f.Close()
		f = nil
		if err != nil {
			return errorf("%w", err)
		}
		p.DatasetID = dsID
		st := src.Stats()
		p.DatasetBytes = st.Bytes
		for _, f := range st.Files {
			p.DatasetFiles = append(p.DatasetFiles, filepath.Base(f))
		}
		return writeGob(filepath.Join(tmp, PartialFile), p)
	}, func() {
		if f != nil {
			f.Close()
		}
	})
	return tables.WriteResults(ctx, opt.Out, ShardKind, s.Fill(ctx))
}

type posStats struct {
	Pos    int64
	Stats  PageStats
	Screen *PageScreen // nil: not screened
}

func writeGob(name string, v any) error {
	f, err := os.Create(name)
	if err != nil {
		return errorf("%w", err)
	}
	bw := bufio.NewWriter(f)
	if err := gob.NewEncoder(bw).Encode(v); err != nil {
		f.Close()
		return errorf("%s: %w", name, err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return errorf("%w", err)
	}
	return f.Close()
}

// ReadPartial reads the Partial of an analysis shard directory.
func ReadPartial(dir string) (*Partial, error) {
	f, err := os.Open(filepath.Join(dir, PartialFile))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("analysis shard %s: no %s: not the output of analyze --shard i/N", dir, PartialFile)
		}
		return nil, err
	}
	defer f.Close()
	var p Partial
	if err := gob.NewDecoder(bufio.NewReader(f)).Decode(&p); err != nil {
		return nil, fmt.Errorf("analysis shard %s: %s: %w", dir, PartialFile, err)
	}
	if p.Format != PartialFormat {
		return nil, fmt.Errorf("analysis shard %s: %s has format %d, this revisit reads format %d: analyze the shards again with this revisit", dir, PartialFile, p.Format, PartialFormat)
	}
	return &p, nil
}

// MergeShards combines analysis shards 0…N−1 (RunShard) into one
// analysis at out, with the same tables and files as Run on the whole
// dataset (page_stats in dataset order, every table and figure). The
// replay rows, if the shards used a replay, are read again through
// estimates, nil being ReadReplay (the figures of the top page need
// them). Memory: one shard's Partial at a time and the running
// selections (partialMerger), the replay rows, and one page-statistics
// row per shard.
func MergeShards(ctx context.Context, dirs []string, out string, estimates func(string) ([]EstimateRow, string, error), log io.Writer) (*Result, error) {
	if len(dirs) == 0 {
		return nil, &MergeError{Err: errors.New("merge: no analysis shards")}
	}
	m, err := mergePartialDirs(ctx, dirs, ReadPartial)
	if err != nil {
		return nil, err
	}
	opt := m.Opt.options()
	if estimates == nil {
		estimates = ReadReplay
	}
	opt.Out, opt.Estimates, opt.Log = out, estimates, log
	var rows []EstimateRow
	if opt.Replay != "" {
		if rows, _, err = estimates(opt.Replay); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	var res *Result
	err = tables.WriteResults(ctx, out, "analysis", func(tmp string) error {
		if err := mergeStats(ctx, dirs, m.Unit, filepath.Join(tmp, "page_stats")); err != nil {
			return err
		}
		var err error
		res, err = finishTables(ctx, m, rows, opt, NewLillieforsNull(opt.Seed, opt.Reps), tmp)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// mergePartialDirs reads the Partials of the shards at dirs through read,
// one at a time, and folds them (partialMerger): a shard's Partial is
// dropped before the next is read. Shards that do not form one analysis
// give a MergeError.
func mergePartialDirs(ctx context.Context, dirs []string, read func(dir string) (*Partial, error)) (*Partial, error) {
	if len(dirs) == 0 {
		return nil, &MergeError{Err: errors.New("merge: no analysis shards")}
	}
	var mg partialMerger
	var dsID string
	for i, d := range dirs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p, err := read(d)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			dsID = p.DatasetID
		} else if err := shard.SameDataset("analyzed", "analyze", p.Opt.Dataset, mg.p0.Shard, dirs[0], dsID, p.Shard, d, p.DatasetID); err != nil {
			return nil, err
		}
		if err := mg.add(d, p); err != nil {
			return nil, asMergeError(err)
		}
	}
	m, err := mg.finish()
	if err != nil {
		return nil, asMergeError(err)
	}
	return m, nil
}

// MergeError is a set of analysis shards that do not form one analysis
// (bad usage): shard.MergeError, one type for every merge.
type MergeError = shard.MergeError

// asMergeError is err as a *MergeError (the split checks of shard.Set
// already are).
func asMergeError(err error) error {
	var me *MergeError
	if errors.As(err, &me) {
		return err
	}
	return &MergeError{Err: err}
}

// mergeStats writes the shards' page statistics in dataset order.
func mergeStats(ctx context.Context, dirs []string, unit float64, stem string) error {
	w, err := tables.NewFileWriter(stem, pageStatsColumns(transform.UnitName(unit)))
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	defer w.Abort()
	type stream struct {
		dec  *gob.Decoder
		head *posStats
		f    *os.File
	}
	ss := make([]*stream, len(dirs))
	next := func(s *stream, dir string) error {
		var ps posStats
		if err := s.dec.Decode(&ps); err != nil {
			if err == io.EOF {
				s.head = nil
				return nil
			}
			return fmt.Errorf("merge: %s: %w", filepath.Join(dir, ShardStatFile), err)
		}
		s.head = &ps
		return nil
	}
	for i, d := range dirs {
		f, err := os.Open(filepath.Join(d, ShardStatFile))
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		defer f.Close()
		ss[i] = &stream{dec: gob.NewDecoder(bufio.NewReaderSize(f, 1<<16)), f: f}
		if err := next(ss[i], d); err != nil {
			return err
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		best := -1
		for i, s := range ss {
			if s.head != nil && (best < 0 || s.head.Pos < ss[best].head.Pos) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		if err := w.Append(pageStatsRow(ss[best].head.Stats, ss[best].head.Screen)); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		if err := next(ss[best], dirs[best]); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	return nil
}
