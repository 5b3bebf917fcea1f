package replay

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/revisit-dev/revisit/internal/atomicdir"
)

// ShardFile is written beside estimates.parquet by a replay of one shard
// (Options.Shard): what Merge needs to put the shards' pages back in the
// order, selection and counts of one unsharded replay.
const ShardFile = "shard.json"

// ShardInfo is ShardFile.
type ShardInfo struct {
	Tool  string      `json:"tool"`  // "revisit"
	Shard string      `json:"shard"` // "i/N"
	I     int         `json:"i"`
	N     int         `json:"n"`
	Read  int64       `json:"read"`  // pages of this shard read from the dataset
	Pages []ShardPage `json:"pages"` // pages replayed, in the order of estimates.parquet
	// DatasetID is the dataset's dataset.Reader.Identity: shards of one
	// replay read the same dataset, not only the same path.
	DatasetID string `json:"dataset_id,omitempty"`
}

// ShardPage is one page a shard replayed.
type ShardPage struct {
	Pos     int64      `json:"pos"` // row of the page in the dataset (0-based, over all parts); −1 with Top
	ID      int64      `json:"id"`
	Updates int        `json:"n"` // updates: the --top ranking
	XMax    exactFloat `json:"x_max"`
	H       exactFloat `json:"h"`
	MeanU   exactFloat `json:"mean_u"`
	Skips   []string   `json:"skips,omitempty"` // limit reasons of the jobs left out
}

// exactFloat is a float64 in JSON that round-trips exactly, NaN and ±Inf
// included (as strings).
type exactFloat float64

func (f exactFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte(strconv.Quote(strconv.FormatFloat(v, 'g', -1, 64))), nil
	}
	return []byte(strconv.FormatFloat(v, 'g', -1, 64)), nil
}

func (f *exactFloat) UnmarshalJSON(b []byte) error {
	s := string(b)
	if u, err := strconv.Unquote(s); err == nil {
		s = u
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	*f = exactFloat(v)
	return nil
}

// ReadShardInfo reads dir/shard.json.
func ReadShardInfo(dir string) (*ShardInfo, error) {
	return readJSON[ShardInfo](dir, ShardFile, "replay output", "not the replay of a shard (run replay with --shard i/N)")
}

// MergeError is a set of shard outputs that do not form one replay (bad
// usage: missing or repeated shards, different options).
type MergeError struct{ Err error }

func (e *MergeError) Error() string { return e.Err.Error() }
func (e *MergeError) Unwrap() error { return e.Err }

// Merge combines the replay outputs of shards 0…N−1 of one replay (same
// dataset and options, Options.Shard = i/N) into out, with the same
// estimates.parquet, byte for byte, and the same replay.json (but
// "created" and "elapsed_s", here the sum over the shards) as the replay
// of every page in one process:
//   - pages come in dataset order (the row position recorded by each
//     shard), or with Top the Top pages with the most updates (ties: the
//     smaller page id) among the shards' own top pages, busiest first;
//   - counts add up; pages a shard replayed but that are not among the
//     Top overall are dropped with their rows and limit skips;
//   - the mean WMRD/KS summary and the choices' spreads are recomputed
//     from the merged rows and pages, in that order, as Run computes them.
//
// Memory: the shards' page lists and one page's rows at a time, plus the
// per-page errors of the summary (as in Run).
func Merge(ctx context.Context, dirs []string, out string) (*Meta, error) {
	start := time.Now()
	if len(dirs) == 0 {
		return nil, &MergeError{errors.New("merge: no replay outputs")}
	}
	if err := outNotShard(dirs, out); err != nil {
		return nil, err
	}
	metas := make([]*Meta, len(dirs))
	infos := make([]*ShardInfo, len(dirs))
	for k, d := range dirs {
		var err error
		if metas[k], err = ReadMeta(d); err != nil {
			return nil, err
		}
		if infos[k], err = ReadShardInfo(d); err != nil {
			return nil, &MergeError{err}
		}
	}
	m0 := metas[0]
	ids := make([]shardID, len(infos))
	for k, info := range infos {
		ids[k] = shardID{info.Shard, info.I, info.N}
	}
	if _, err := shardOrder(dirs, ids, "replay", func(k int) error { return sameReplay(m0, metas[k]) }); err != nil {
		return nil, err
	}
	for k, info := range infos {
		if info.DatasetID != infos[0].DatasetID {
			return nil, &MergeError{fmt.Errorf("merge: shard %s (%s) and shard %s (%s) were replayed from different datasets at %s (identity %.12s… ≠ %.12s…: the dataset was written again between them): replay every shard from the same dataset",
				infos[0].Shard, dirs[0], info.Shard, dirs[k], m0.Dataset, infos[0].DatasetID, info.DatasetID)}
		}
	}
	if f := obsFormat(m0); f != "" {
		// replay.json would name logs the merge does not write
		return nil, &MergeError{fmt.Errorf("merge: the shards wrote observation logs (--write-observations %s), which merge does not combine: estimate them together with 'revisit estimate %s/%s/* …', or replay without --shard", f, dirs[0], ObservationsDir)}
	}

	// The pages of the merged replay, in its order.
	type ref struct {
		shard int // position in dirs
		page  *ShardPage
	}
	var all []ref
	seen := map[int64]string{}
	for k, info := range infos {
		for i := range info.Pages {
			p := &info.Pages[i]
			if d, ok := seen[p.ID]; ok {
				return nil, &MergeError{fmt.Errorf("merge: page %d replayed by both %s and %s", p.ID, d, dirs[k])}
			}
			seen[p.ID] = dirs[k]
			all = append(all, ref{k, p})
		}
	}
	if m0.Top > 0 {
		slices.SortFunc(all, func(a, b ref) int { // transform.TopKeeper's ranking
			if a.page.Updates != b.page.Updates {
				return b.page.Updates - a.page.Updates
			}
			return cmpInt64(a.page.ID, b.page.ID)
		})
		all = all[:min(len(all), m0.Top)]
	} else {
		slices.SortFunc(all, func(a, b ref) int { return cmpInt64(a.page.Pos, b.page.Pos) })
	}
	keep := make([]map[int64]bool, len(dirs))
	for k := range keep {
		keep[k] = map[int64]bool{}
	}
	for _, r := range all {
		keep[r.shard][r.page.ID] = true
	}

	meta := *m0
	meta.Skipped = map[string]int64{}
	var read int64
	for k, mk := range metas {
		read += infos[k].Read
		for _, reason := range []string{"min_updates", "fewer_than_2_updates"} {
			if v, ok := mk.Skipped[reason]; ok {
				meta.Skipped[reason] += v
			}
		}
		meta.ElapsedS += mk.ElapsedS
	}
	meta.ElapsedS -= m0.ElapsedS
	if m0.Top > 0 {
		meta.Skipped["not_in_top"] = read - meta.Skipped["min_updates"] - meta.Skipped["fewer_than_2_updates"] - int64(len(all))
	}
	smpN := len(m0.Samplers)
	empty, limited := 0, 0
	var pageXMax, pageH, pageMean []float64
	for _, r := range all {
		for _, reason := range r.page.Skips {
			meta.Skipped[reason]++
		}
		limited += len(r.page.Skips)
		if len(r.page.Skips) >= smpN {
			empty++
		}
		pageXMax, pageH, pageMean = append(pageXMax, float64(r.page.XMax)), append(pageH, float64(r.page.H)), append(pageMean, float64(r.page.MeanU))
	}
	if len(all)*smpN == limited && limited > 0 {
		return nil, &OptionError{fmt.Errorf("every page × sampler exceeds the work limits (%d left out): raise the limit, lower the sampler's rate or --x-max, or select shorter pages", limited)}
	}
	if m0.Choices != nil {
		ch := *m0.Choices
		ch.MeanU, ch.XMax, ch.H = spreadOf(pageMean), spreadOf(pageXMax), spreadOf(pageH)
		meta.Choices = &ch
	}
	meta.Pages = len(all) - empty

	// Rows: each shard's file holds its pages in its ShardInfo order, of
	// which the merged order takes a subsequence.
	mo, err := openMergeOutput(out, MetaFile, "replay output", dirs)
	if err != nil {
		return nil, err
	}
	defer mo.close()
	o, tmp, w, streams := mo.dir, mo.dir.Path(), mo.w, mo.streams
	sum := newSummary()
	var group []Estimate
	flushGroup := func() {
		if len(group) > 0 {
			sum.add(group)
			group = group[:0]
		}
	}
	werr := func() error {
		for _, r := range all {
			if err := ctx.Err(); err != nil {
				return err
			}
			if len(r.page.Skips) >= smpN {
				continue // every job left out: no rows
			}
			s := streams[r.shard]
			// Drop the rows of the shard's pages that are not kept.
			for {
				e, ok, err := s.peek()
				if err != nil {
					return err
				}
				if !ok || e.PageID == r.page.ID {
					break
				}
				if keep[r.shard][e.PageID] {
					return fmt.Errorf("replay output %s: page %d is out of the order of %s", dirs[r.shard], e.PageID, ShardFile)
				}
				s.next()
			}
			for {
				e, ok, err := s.peek()
				if err != nil {
					return err
				}
				if !ok || e.PageID != r.page.ID {
					break
				}
				s.next()
				if len(group) > 0 && group[0].Sampler != e.Sampler {
					flushGroup()
				}
				group = append(group, *e)
				if err := w.write(e); err != nil {
					return fmt.Errorf("replay output %s: %w", out, err)
				}
			}
			flushGroup()
		}
		return nil
	}()
	if err := mo.finishRows(werr); err != nil {
		return nil, err
	}
	smp := make([]Sampler, len(m0.Samplers))
	for i, spec := range m0.Samplers {
		smp[i] = Sampler{Spec: spec}
	}
	meta.Summary = sum.result(smp, m0.Methods)
	meta.Rows = w.rows
	meta.Created = time.Now().UTC()
	meta.ElapsedS += time.Since(start).Seconds()
	if err := writeMeta(tmp, &meta); err != nil {
		return nil, fmt.Errorf("replay output %s: %w", out, err)
	}
	if err := o.Commit(); err != nil {
		return nil, err
	}
	return &meta, nil
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// obsFormat is the format of a replay's observation logs ("" for none).
func obsFormat(m *Meta) string {
	if m.Observations == nil {
		return ""
	}
	return m.Observations.Format
}

// sameReplay checks that two shards were replayed with the same options.
func sameReplay(a, b *Meta) error {
	for _, c := range []struct {
		name string
		x, y any
	}{
		{"dataset", a.Dataset, b.Dataset}, {"unit", a.Unit, b.Unit}, {"samplers", a.Samplers, b.Samplers},
		{"methods", a.Methods, b.Methods}, {"seed", a.Seed, b.Seed}, {"h", a.H, b.H}, {"x_max", a.XMax, b.XMax},
		{"top", a.Top, b.Top}, {"min_updates", a.MinUpdates, b.MinUpdates}, {"grid", a.Grid, b.Grid},
		{"max_visits", a.MaxVisits, b.MaxVisits}, {"max_pairs", a.MaxPairs, b.MaxPairs},
		{"recover", a.Recover, b.Recover}, {"derivative", a.Derivative, b.Derivative},
		{"not_applicable", a.NotApplicable, b.NotApplicable}, {"version", a.Version, b.Version},
	} {
		if !reflect.DeepEqual(c.x, c.y) {
			return fmt.Errorf("%s %v ≠ %v", c.name, c.x, c.y)
		}
	}
	if fa, fb := obsFormat(a), obsFormat(b); fa != fb {
		return fmt.Errorf("--write-observations %q ≠ %q (estimates from whole-second observations or not)", fa, fb)
	}
	ca, cb := a.Choices, b.Choices
	if (ca == nil) != (cb == nil) || ca != nil && (ca.XMaxRule != cb.XMaxRule || ca.HRule != cb.HRule || ca.SamplerRule != cb.SamplerRule) {
		return errors.New("choices differ")
	}
	return nil
}

// outNotShard refuses an output that is one of the shards read: the
// merge would replace that input.
func outNotShard(dirs []string, out string) error {
	for _, d := range dirs {
		if filepath.Clean(d) == filepath.Clean(out) {
			return &MergeError{fmt.Errorf("merge: the output %s is one of the shards", out)}
		}
	}
	return nil
}

// mergeOutput is a merge's output while it is written: the directory
// (committed by the caller), its estimates.parquet writer and one row
// stream per shard read.
type mergeOutput struct {
	out, what string
	dir       *atomicdir.Dir
	w         *estimateWriter
	streams   []*rowStream
}

// openMergeOutput creates out (marker and what as atomicdir.Create takes
// them) with its estimates writer, and opens a row stream on each of dirs.
// close releases it all.
func openMergeOutput(out, marker, what string, dirs []string) (*mergeOutput, error) {
	o, err := atomicdir.Create(out, marker, what)
	if err != nil {
		return nil, err
	}
	w, err := newEstimateWriter(filepath.Join(o.Path(), EstimatesFile))
	if err != nil {
		o.Abort()
		return nil, fmt.Errorf("%s %s: %w", what, out, err)
	}
	m := &mergeOutput{out: out, what: what, dir: o, w: w, streams: make([]*rowStream, len(dirs))}
	for k, d := range dirs {
		m.streams[k] = newRowStream(d)
	}
	return m, nil
}

// finishRows ends estimates.parquet after the rows were written: abandoned
// when writing failed (werr, returned), closed otherwise.
func (m *mergeOutput) finishRows(werr error) error {
	if werr != nil {
		m.w.abort()
		return werr
	}
	if err := m.w.close(); err != nil {
		return fmt.Errorf("%s %s: %w", m.what, m.out, err)
	}
	return nil
}

// close stops the row streams and removes the output unless it was
// committed.
func (m *mergeOutput) close() {
	for _, s := range m.streams {
		s.stop()
	}
	m.dir.Abort()
}

// rowStream reads one estimates.parquet row by row, with one row of
// look-ahead.
type rowStream struct {
	next0 func() (*Estimate, bool)
	stop  func()
	err   error
	head  *Estimate
	done  bool
}

func newRowStream(dir string) *rowStream {
	s := &rowStream{}
	seq := iter.Seq[*Estimate](func(yield func(*Estimate) bool) {
		stop := errors.New("stop")
		err := EachEstimate(dir, func(e *Estimate) error {
			if !yield(e) {
				return stop
			}
			return nil
		})
		if err != nil && err != stop {
			s.err = err
		}
	})
	s.next0, s.stop = iter.Pull(seq)
	return s
}

func (s *rowStream) peek() (*Estimate, bool, error) {
	if s.head == nil && !s.done {
		e, ok := s.next0()
		if !ok {
			s.done = true
		} else {
			s.head = e
		}
	}
	if s.done && s.err != nil {
		return nil, false, s.err
	}
	return s.head, s.head != nil, nil
}

func (s *rowStream) next() { s.head = nil }

// shardID is one shard of a split, as a shard output records it.
type shardID struct {
	spec string // "i/N"
	i, n int
}

// shardOrder checks that ids (ids[k] read from dirs[k]) are the shards
// 0…N−1 of one split, each given once, and that same(k) accepts dirs[k] as
// a shard of the same run (a `what`: replay, estimate) as dirs[0]; it
// returns the position in dirs of shard i for i = 0…N−1. Every error is a
// *MergeError (bad usage).
func shardOrder(dirs []string, ids []shardID, what string, same func(k int) error) ([]int, error) {
	n := ids[0].n
	if n < 1 {
		return nil, &MergeError{fmt.Errorf("merge: %s: shard %q: N must be ≥ 1", dirs[0], ids[0].spec)}
	}
	byIndex := make([]int, n) // shard index → position in dirs
	for i := range byIndex {
		byIndex[i] = -1
	}
	for k, id := range ids {
		if id.n != n || id.i < 0 || id.i >= n {
			return nil, &MergeError{fmt.Errorf("merge: %s is shard %s, %s is shard %s: not shards of one split", dirs[0], ids[0].spec, dirs[k], id.spec)}
		}
		if j := byIndex[id.i]; j >= 0 {
			return nil, &MergeError{fmt.Errorf("merge: shard %s given twice (%s and %s)", id.spec, dirs[j], dirs[k])}
		}
		byIndex[id.i] = k
		if err := same(k); err != nil {
			return nil, &MergeError{fmt.Errorf("merge: %s and %s are not shards of one %s: %v", dirs[0], dirs[k], what, err)}
		}
	}
	for i, k := range byIndex {
		if k < 0 {
			return nil, &MergeError{fmt.Errorf("merge: shard %d/%d is missing (%d of %d given)", i, n, len(dirs), n)}
		}
	}
	return byIndex, nil
}
