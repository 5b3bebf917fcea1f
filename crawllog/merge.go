package crawllog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/internal/shardmerge"
	"reflect"
	"slices"
	"time"
)

// MergeError is a set of estimate shard outputs that do not form one
// estimate (bad usage: missing or repeated shards, different inputs or
// options): replay.MergeError, one type for both merges.
type MergeError = shardmerge.Error

// MergeEstimates combines the estimate outputs of shards 0…N−1 of one
// estimate (the same inputs and options, EstimateOptions.Shard = i/N)
// into out, which then holds what one unsharded estimate writes:
// estimates.parquet byte for byte, the same tables/ and figures/, and the
// same estimate.json but for "created" and "elapsed_s" (here the sum over
// the shards and the merge):
//   - URLs come in the order they were read (each shard records a URL's
//     place among all the URLs read, counted before its selection);
//   - counts of URLs estimated, with constant delays, rows, verdicts and
//     the estimate's skips add up; what the reader counted (inputs,
//     captures, URLs, bad lines, its skips) is the same in every shard
//     and taken once;
//   - the top URLs of the tables and figures are chosen over the merged
//     order as EstimateLogs chooses them.
//
// Shards of different splits, a missing or repeated shard, and shards
// made from different inputs or options are a *MergeError.
//
// Memory: every URL's report line (as EstimateLogs holds them).
func MergeEstimates(ctx context.Context, dirs []string, out string) (*EstimateMeta, error) {
	start := time.Now()
	if len(dirs) == 0 {
		return nil, &MergeError{Err: errors.New("merge: no estimate outputs")}
	}
	if err := shardmerge.OutNotShard(dirs, out); err != nil {
		return nil, err
	}
	metas := make([]*EstimateMeta, len(dirs))
	infos := make([]*EstimateShardInfo, len(dirs))
	for k, d := range dirs {
		var err error
		if metas[k], err = ReadEstimateMeta(d); err != nil {
			return nil, &MergeError{Err: err}
		}
		if infos[k], err = ReadEstimateShardInfo(d); err != nil {
			return nil, &MergeError{Err: err}
		}
	}
	m0, i0 := metas[0], infos[0]
	ids := make([]shardmerge.ID, len(infos))
	for k, info := range infos {
		ids[k] = shardmerge.ID{Spec: info.Shard, I: info.I, N: info.N}
	}
	if _, err := shardmerge.Order(dirs, ids, "estimate", func(k int) error { return sameEstimate(m0, i0, metas[k], infos[k]) }); err != nil {
		return nil, err
	}

	// The URLs in the order they were read.
	type ref struct {
		shard int // position in dirs
		url   *ShardURL
	}
	var all []ref
	for k, info := range infos {
		for i := range info.URLs {
			u := &info.URLs[i]
			if u.Seq < 0 || u.Seq >= info.Read || u.Rows < 0 || i > 0 && u.Seq <= info.URLs[i-1].Seq {
				return nil, fmt.Errorf("estimate output %s: %s: URL %s at place %d out of order or out of 0…%d", dirs[k], EstimateShardFile, u.URL, u.Seq, info.Read-1)
			}
			all = append(all, ref{k, u})
		}
	}
	slices.SortFunc(all, func(a, b ref) int { return cmp.Compare(a.url.Seq, b.url.Seq) })
	for i := 1; i < len(all); i++ {
		if all[i].url.Seq == all[i-1].url.Seq {
			return nil, &MergeError{Err: fmt.Errorf("merge: URL %s estimated by both %s and %s", all[i].url.URL, dirs[all[i-1].shard], dirs[all[i].shard])}
		}
	}

	meta := *m0
	meta.Shard = ""
	meta.Estimated, meta.Constant, meta.ElapsedS, meta.FewChanges, meta.Bins, meta.EmptyBins = 0, 0, 0, 0, 0, 0
	meta.Skipped, meta.Verdicts = map[string]int64{}, map[string]int{}
	for k, mk := range metas {
		meta.Estimated += mk.Estimated
		meta.Constant += mk.Constant
		meta.FewChanges += mk.FewChanges
		meta.Bins += mk.Bins
		meta.EmptyBins += mk.EmptyBins
		meta.ElapsedS += mk.ElapsedS
		for v, c := range mk.Verdicts {
			meta.Verdicts[v] += c
		}
		for r, c := range infos[k].Skipped {
			meta.Skipped[r] += c
		}
	}
	for r, c := range i0.ReadSkipped {
		meta.Skipped[r] += c
	}
	if meta.Estimated != len(all) {
		return nil, &MergeError{Err: fmt.Errorf("merge: the shards' %s count %d URLs estimated, their %s files %d", EstimateMetaFile, meta.Estimated, EstimateShardFile, len(all))}
	}
	if meta.Estimated == 0 { // as EstimateLogs
		return nil, noURLError(len(meta.Inputs), &meta)
	}

	// The URLs drawn as EstimateLogs picks them, with the rows their
	// shards recorded (estimates.parquet holds the raw rows only).
	sums := make([]URLSummary, len(all))
	var drawn []topURL
	for i, r := range all {
		sums[i] = r.url.summary()
		drawn = keepDrawn(drawn, topURL{sum: sums[i], seq: r.url.Seq})
	}
	for i := range drawn {
		found := false
		for _, info := range infos {
			for k := range info.Drawn {
				if d := &info.Drawn[k]; d.Seq == drawn[i].seq {
					drawn[i].est, found = d.estimates(), true
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("merge: no shard's %s has the curves of %s, drawn in the figures", EstimateShardFile, drawn[i].sum.URL)
		}
	}

	mo, err := shardmerge.Open(out, EstimateMetaFile, "estimate output", dirs) // atomicdir.Create cleans out
	if err != nil {
		return nil, err
	}
	defer mo.Close()
	o, tmp, w, streams := mo.Dir, mo.Dir.Path(), mo.W, mo.Streams
	werr := func() error {
		for _, r := range all {
			if err := ctx.Err(); err != nil {
				return err
			}
			s := streams[r.shard]
			for range r.url.Rows {
				e, ok, err := s.Peek()
				if err != nil {
					return err
				}
				if !ok || e.PageID != r.url.PageID || e.Title != r.url.URL {
					return fmt.Errorf("estimate output %s: the rows of %s are not in the order of %s", dirs[r.shard], r.url.URL, EstimateShardFile)
				}
				s.Next()
				if err := w.Write(e); err != nil {
					return fmt.Errorf("estimate output %s: %w", out, err)
				}
			}
		}
		for k, s := range streams {
			if _, ok, err := s.Peek(); err != nil || ok {
				if err == nil {
					err = fmt.Errorf("estimate output %s: more rows than its %s lists", dirs[k], EstimateShardFile)
				}
				return err
			}
		}
		return nil
	}()
	if err := mo.FinishRows(werr); err != nil {
		return nil, err
	}
	meta.Rows = w.Rows()
	meta.EmptyShare = emptyShare(meta.Bins, meta.EmptyBins)
	if err := writeURLs(tmp, sums); err != nil {
		return nil, fmt.Errorf("estimate output %s: %w", out, err)
	}
	b := estimateBundle(&meta, sums, i0.Options.Top, drawn)
	if err := b.Write(tmp); err != nil {
		return nil, fmt.Errorf("estimate output %s: %w", out, err)
	}
	meta.Created = time.Now().UTC()
	meta.ElapsedS += time.Since(start).Seconds()
	if err := estimates.WriteJSON(tmp, EstimateMetaFile, &meta, true); err != nil {
		return nil, fmt.Errorf("estimate output %s: %w", out, err)
	}
	if err := o.Commit(); err != nil {
		return nil, err
	}
	return &meta, nil
}

// sameEstimate checks that two shards estimated the same inputs with the
// same options.
func sameEstimate(a *EstimateMeta, ai *EstimateShardInfo, b *EstimateMeta, bi *EstimateShardInfo) error {
	if !sameInputs(a.Inputs, b.Inputs) {
		return fmt.Errorf("inputs differ (%s vs %s: give every shard the same paths)", inputNames(a), inputNames(b))
	}
	for _, c := range []struct {
		name string
		x, y any
	}{
		{"version", a.Version, b.Version}, {"unit", a.Unit, b.Unit}, {"h", a.H, b.H}, {"x_max", a.XMax, b.XMax},
		{"const_tolerance_s", a.ConstTol, b.ConstTol}, {"methods", a.Methods, b.Methods},
		{"verdict_ks_threshold", a.Threshold, b.Threshold}, {"min_changes", a.MinChanges, b.MinChanges}, {"captures", a.Captures, b.Captures}, {"urls", a.URLs, b.URLs},
		{"bad lines", a.Bad, b.Bad}, {"revisits resolved", a.RevisitsResolved, b.RevisitsResolved},
		{"merged keys", a.MergedKeys, b.MergedKeys}, {"merged originals", a.MergedOriginals, b.MergedOriginals}, {"URLs read", ai.Read, bi.Read}, {"options", ai.Options, bi.Options},
		{"captures skipped", ai.ReadSkipped, bi.ReadSkipped}, {"curves", a.Curves, b.Curves},
	} {
		if !reflect.DeepEqual(c.x, c.y) {
			return fmt.Errorf("%s %v ≠ %v", c.name, c.x, c.y)
		}
	}
	return nil
}

func inputNames(m *EstimateMeta) []string {
	var names []string
	for _, in := range m.Inputs {
		names = append(names, in.Name)
	}
	return names
}
