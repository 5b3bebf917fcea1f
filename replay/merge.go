package replay

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stage"
)

// ShardFile is written beside estimates.parquet by a replay of one shard
// (Options.Shard): what Merge needs to put the shards' pages back in the
// order, selection and counts of one unsharded replay.
const ShardFile = "shard.json"

// ShardInfo is ShardFile.
type ShardInfo struct {
	shard.Record
	Read  int64       `json:"read"`  // pages of this shard read from the dataset
	Pages []ShardPage `json:"pages"` // pages replayed, in the order of estimates.parquet
	// DatasetID is the dataset's dataset.Reader.Identity: shards of one
	// replay read the same dataset, not only the same path.
	DatasetID string `json:"dataset_id,omitempty"`
	// DatasetFiles are the dataset's Parquet files the shard opened (only
	// its own parts of a dataset in a multiple of N parts) and
	// DatasetBytes the bytes it read from them.
	DatasetFiles []string `json:"dataset_files,omitempty"`
	DatasetBytes int64    `json:"dataset_bytes_read,omitempty"`
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

// exactFloat is a float64 in JSON that round-trips exactly
// (shard.ExactFloat).
type exactFloat = shard.ExactFloat

// ReadShardInfo reads dir/shard.json.
func ReadShardInfo(dir string) (*ShardInfo, error) {
	return estimates.ReadJSON[ShardInfo](dir, ShardFile, "replay output", "not the replay of a shard (run replay with --shard i/N)")
}

// MergeError is a set of shard outputs that do not form one replay (bad
// usage: missing or repeated shards, different options).
type MergeError = shard.MergeError

// Merge combines the replay outputs of shards 0…N−1 of one replay (same
// dataset and options, Options.Shard = i/N) into out, with the same
// estimates.parquet, byte for byte, and the same replay.json (but
// "created" and "elapsed_s", here the sum over the shards) as the replay
// of every page in one process:
//   - pages come in dataset order (the row position recorded by each
//     shard), or with Top the Top pages with the most updates (ties: the
//     smaller page id) among the shards' own top pages, busiest first, or
//     with Sample the Sample pages of smallest SampleKey among the shards'
//     own samples, busiest first;
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
		return nil, &MergeError{Err: errors.New("merge: no replay outputs")}
	}
	if err := shard.OutNotShard(dirs, out); err != nil {
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
			return nil, &MergeError{Err: err}
		}
	}
	m0 := metas[0]
	ids := make([]shard.Record, len(infos))
	for k, info := range infos {
		ids[k] = info.Record
	}
	if _, err := shard.Order(dirs, ids, "replay", func(k int) error { return sameReplay(m0, metas[k]) }); err != nil {
		return nil, err
	}
	for k, info := range infos {
		if err := shard.SameDataset("replayed", "replay", m0.Dataset, infos[0].Shard, dirs[0], infos[0].DatasetID, info.Shard, dirs[k], info.DatasetID); err != nil {
			return nil, err
		}
	}
	if f := obsFormat(m0); f != "" {
		// replay.json would name logs the merge does not write
		return nil, &MergeError{Err: fmt.Errorf("merge: the shards wrote observation logs (--write-observations %s), which merge does not combine: estimate them together with 'revisit estimate %s/%s/* …', or replay without --shard", f, dirs[0], ObservationsDir)}
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
				return nil, &MergeError{Err: fmt.Errorf("merge: page %d replayed by both %s and %s", p.ID, d, dirs[k])}
			}
			seen[p.ID] = dirs[k]
			all = append(all, ref{k, p})
		}
	}
	busiest := func(a, b ref) int { return busiestFirst(a.page, b.page) }
	switch {
	case m0.Top > 0:
		slices.SortFunc(all, busiest)
		all = all[:min(len(all), m0.Top)]
	case m0.Sample > 0: // the smallest sampling keys of the shards' samples, busiest first
		slices.SortFunc(all, func(a, b ref) int {
			return cmp.Compare(SampleKey(m0.Seed, a.page.ID), SampleKey(m0.Seed, b.page.ID))
		})
		all = all[:min(len(all), m0.Sample)]
		slices.SortFunc(all, busiest)
	default:
		slices.SortFunc(all, func(a, b ref) int { return cmp.Compare(a.page.Pos, b.page.Pos) })
	}
	merged := make([]*ShardPage, len(all))
	for i, r := range all {
		merged[i] = r.page
	}
	full := fullCurvesOf(m0, merged)
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
		for _, reason := range []string{"min_updates", "fewer_than_2_updates", SkipFewIntervals} {
			if v, ok := mk.Skipped[reason]; ok {
				meta.Skipped[reason] += v
			}
		}
		meta.ElapsedS += mk.ElapsedS
	}
	meta.ElapsedS -= m0.ElapsedS
	switch {
	case m0.Top > 0:
		meta.Skipped["not_in_top"] = read - meta.Skipped["min_updates"] - meta.Skipped["fewer_than_2_updates"] - int64(len(all))
	case m0.Sample > 0:
		meta.Skipped[SkipNotInSample] = read - meta.Skipped["min_updates"] - meta.Skipped["fewer_than_2_updates"] - meta.Skipped[SkipFewIntervals] - int64(len(all))
		meta.SampleEligible = len(all) + int(meta.Skipped[SkipNotInSample])
	}
	smpN := len(m0.Samplers) * max(m0.Seeds, 1) // jobs of a page: sampler × seed
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
		return nil, &OptionError{Err: fmt.Errorf("every page × sampler exceeds the work limits (%d left out): raise the limit, lower the sampler's rate or --x-max, or select shorter pages", limited)}
	}
	if m0.Choices != nil {
		ch := *m0.Choices
		ch.MeanU, ch.XMax, ch.H = SpreadOf(pageMean), SpreadOf(pageXMax), SpreadOf(pageH)
		meta.Choices = &ch
	}
	meta.Pages = len(all) - empty

	// Rows: each shard's file holds its pages in its ShardInfo order, of
	// which the merged order takes a subsequence.
	sum := newSummary()
	rows := func(_ string, w *estimates.Writer, streams []*estimates.RowStream) error {
		var group []estimator.Estimate
		flushGroup := func() {
			if len(group) > 0 {
				sum.add(group)
				group = group[:0]
			}
		}
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
				e, ok, err := s.Peek()
				if err != nil {
					return err
				}
				if !ok || e.PageID == r.page.ID {
					break
				}
				if keep[r.shard][e.PageID] {
					return fmt.Errorf("replay output %s: page %d is out of the order of %s", dirs[r.shard], e.PageID, ShardFile)
				}
				s.Next()
			}
			for {
				e, ok, err := s.Peek()
				if err != nil {
					return err
				}
				if !ok || e.PageID != r.page.ID {
					break
				}
				s.Next()
				if full != nil && !full[e.PageID] && !e.Compact {
					one := []estimator.Estimate{*e}
					estimates.Compact(one, estimates.Knots)
					e = &one[0]
				}
				if len(group) > 0 && (group[0].Sampler != e.Sampler || group[0].Seed != e.Seed) {
					flushGroup()
				}
				group = append(group, *e)
				if err := w.Write(e); err != nil {
					return fmt.Errorf("replay output %s: %w", out, err)
				}
			}
			flushGroup()
		}
		return nil
	}
	finish := func(tmp string, w *estimates.Writer) error {
		smp := make([]estimator.Sampler, len(m0.Samplers))
		for i, spec := range m0.Samplers {
			smp[i] = estimator.Sampler{Spec: spec}
		}
		meta.Summary = sum.result(smp, m0.Methods)
		meta.Rows = w.Rows()
		meta.Created = time.Now().UTC()
		meta.ElapsedS += time.Since(start).Seconds()
		if err := writeMeta(tmp, &meta); err != nil {
			return fmt.Errorf("replay output %s: %w", out, err)
		}
		return nil
	}
	if err := estimates.Merge(ctx, stage.Output{Dir: out, Marker: MetaFile, What: "replay output"}, dirs, rows, finish); err != nil {
		return nil, err
	}
	return &meta, nil
}

// fullCurvesOf is, for a replay with compact curves, the pages of the
// merged pages (in merged order) that keep their whole curves: the
// FullCurves busiest (most updates, then the smaller id), as Run chooses
// them (chooseFullCurves, or the first of its own ranking with Top); nil
// when every curve is whole. A shard that read only its own parts kept
// its own busiest pages whole, a superset of its pages among these: a
// page busier than all but fewer than FullCurves pages of the dataset is
// so among its shard's pages, and among the merged pages, which are every
// page eligible (or, with Top, every shard's own Top busiest; with Sample,
// the whole sample, of which each shard kept a superset whole). The pages
// Run kept whole are among these even with a page selection, where Run
// ranks the dataset's pages and the shards read every part.
func fullCurvesOf(m *Meta, pages []*ShardPage) map[int64]bool {
	if m.Curves != string(estimates.CurvesCompact) {
		return nil
	}
	ranked := slices.Clone(pages)
	slices.SortFunc(ranked, busiestFirst)
	full := map[int64]bool{}
	for _, p := range ranked[:min(len(ranked), m.FullCurves)] {
		full[p.ID] = true
	}
	return full
}

// busiestFirst orders pages as transform.TopKeeper ranks them: most
// updates first, then the smaller id.
func busiestFirst(a, b *ShardPage) int {
	if a.Updates != b.Updates {
		return b.Updates - a.Updates
	}
	return cmp.Compare(a.ID, b.ID)
}

// obsFormat is the format of a replay's observation logs ("" for none).
func obsFormat(m *Meta) string {
	if m.Observations == nil {
		return ""
	}
	return m.Observations.Format
}

// sameReplay checks that two shards were replayed with the same options.
// selectionSpec is the criteria of m's page selection (zero: none); the
// pages each shard selected over the whole dataset are then the same.
func selectionSpec(m *Meta) dataset.SelectionSpec {
	if m.Selection == nil {
		return dataset.SelectionSpec{}
	}
	return m.Selection.SelectionSpec
}

func sameReplay(a, b *Meta) error {
	for _, c := range []struct {
		name string
		x, y any
	}{
		{"dataset", a.Dataset, b.Dataset}, {"unit", a.Unit, b.Unit}, {"samplers", a.Samplers, b.Samplers},
		{"methods", a.Methods, b.Methods}, {"seed", a.Seed, b.Seed}, {"seeds", a.Seeds, b.Seeds}, {"h", a.H, b.H}, {"x_max", a.XMax, b.XMax},
		{"top", a.Top, b.Top}, {"sample", a.Sample, b.Sample}, {"sample_intervals", a.SampleIntervals, b.SampleIntervals},
		{"min_updates", a.MinUpdates, b.MinUpdates}, {"grid", a.Grid, b.Grid},
		{"max_visits", a.MaxVisits, b.MaxVisits}, {"max_pairs", a.MaxPairs, b.MaxPairs},
		{"recover", a.Recover, b.Recover}, {"derivative", a.Derivative, b.Derivative},
		{"not_applicable", a.NotApplicable, b.NotApplicable}, {"version", a.Version, b.Version},
		{"curves", a.Curves, b.Curves}, {"full_curves", a.FullCurves, b.FullCurves},
		{"page selection", selectionSpec(a), selectionSpec(b)},
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
