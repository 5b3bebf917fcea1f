package crawllog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/ingest/visits"
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
		if schemeOf(info) != schemeOf(i0) {
			return nil, &MergeError{Err: fmt.Errorf("merge: %s chose its URLs by %s, %s by %s: not shards of one estimate (give every shard the same inputs and --shard-by)", dirs[0], schemeOf(i0), dirs[k], schemeOf(info))}
		}
	}
	ranged := schemeOf(i0) == ShardByRange
	byIndex, err := shardmerge.Order(dirs, ids, "estimate", func(k int) error { return sameEstimate(m0, i0, metas[k], infos[k], ranged) })
	if err != nil {
		return nil, err
	}
	// By byte range, shard i's URLs come after those of shards < i: their
	// places are offset by the URLs those read (seqOff), and what the
	// reader counted is summed.
	seqOff := make([]int64, len(dirs))
	if ranged {
		if err := checkRanges(dirs, infos, byIndex); err != nil {
			return nil, err
		}
		var off int64
		for _, k := range byIndex {
			seqOff[k] = off
			off += infos[k].Read
		}
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
		for i := range info.URLs { // checked above in the shard's own places
			info.URLs[i].Seq += seqOff[k]
		}
		for i := range info.Drawn {
			info.Drawn[i].Seq += seqOff[k]
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
	if ranged { // the reader's counts are the ranges': summed
		meta.Inputs = slices.Clone(m0.Inputs)
		for i := range meta.Inputs {
			meta.Inputs[i].Records, meta.Inputs[i].Bad = 0, nil
		}
		meta.Captures, meta.URLs, meta.Bad, meta.RevisitsResolved, meta.MergedKeys, meta.MergedOriginals = 0, 0, 0, 0, 0, 0
		meta.Skipped = map[string]int64{}
		for k, mk := range metas {
			for i, in := range mk.Inputs {
				meta.Inputs[i].Records += in.Records
				for r, c := range in.Bad {
					if meta.Inputs[i].Bad == nil {
						meta.Inputs[i].Bad = map[string]int64{}
					}
					meta.Inputs[i].Bad[r] += c
				}
			}
			meta.Captures += mk.Captures
			meta.URLs += mk.URLs
			meta.Bad += mk.Bad
			meta.RevisitsResolved += mk.RevisitsResolved
			meta.MergedKeys += mk.MergedKeys
			meta.MergedOriginals += mk.MergedOriginals
			for r, c := range infos[k].Skipped {
				meta.Skipped[r] += c
			}
			for r, c := range infos[k].ReadSkipped {
				meta.Skipped[r] += c
			}
		}
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

// schemeOf is how a shard chose its URLs ("" before byte ranges: hash).
func schemeOf(info *EstimateShardInfo) string {
	if info.Scheme == "" {
		return ShardByHash
	}
	return info.Scheme
}

// checkRanges checks that shards of byte ranges (byIndex[i] the position
// in dirs of shard i) cover the inputs once, in order, and that their URL
// ids increase from one shard to the next: no id is read by two shards
// (each shard refused one out of order, or twice, in its own range).
func checkRanges(dirs []string, infos []*EstimateShardInfo, byIndex []int) error {
	var end int64
	var last *visits.RangeInfo // of the last shard with a URL id
	lastDir := ""
	for i, k := range byIndex {
		g := infos[k].Range
		if g == nil {
			return &MergeError{Err: fmt.Errorf("merge: %s: a shard by byte range without its range", dirs[k])}
		}
		if g.Start != end || g.End < g.Start || g.Total != infos[byIndex[0]].Range.Total || g.Order != infos[byIndex[0]].Range.Order {
			return &MergeError{Err: fmt.Errorf("merge: %s reads bytes %d…%d of %d, after bytes up to %d: the shards' ranges do not tile the inputs", dirs[k], g.Start, g.End, g.Total, end)}
		}
		end = g.End
		if i == len(byIndex)-1 && end != g.Total {
			return &MergeError{Err: fmt.Errorf("merge: the shards' ranges end at byte %d of %d", end, g.Total)}
		}
		if g.IDs == 0 {
			continue
		}
		if !g.Ordered || last != nil && !visits.Before(g.Order, last.Last, g.First) {
			if g.Order == visits.OrderLengthBytes { // a trace need not be in order: every id is checked
				return noTwice(dirs, infos)
			}
			return &MergeError{Err: fmt.Errorf("merge: %s ends with URL %q, %s begins with %q: the index is not sorted by urlkey (estimate without --sorted, or sort it)", lastDir, last.Last, dirs[k], g.First)}
		}
		last, lastDir = g, dirs[k]
	}
	return nil
}

// noTwice checks that no trace id was read by two shards of byte ranges
// (each shard refused one read twice in its own range): it sorts every id
// the shards read (their URLs and Others).
func noTwice(dirs []string, infos []*EstimateShardInfo) error {
	type idAt struct {
		id    string
		shard int
	}
	var all []idAt
	for k, info := range infos {
		for i := range info.URLs {
			all = append(all, idAt{info.URLs[i].LogID(), k})
		}
		for _, id := range info.Others {
			all = append(all, idAt{id, k})
		}
	}
	slices.SortFunc(all, func(a, b idAt) int { return cmp.Compare(a.id, b.id) })
	for i := 1; i < len(all); i++ {
		if all[i].id == all[i-1].id {
			return &MergeError{Err: fmt.Errorf("merge: trace id %q was read by %s and by %s: a trace id given twice (estimate unsharded or with --shard-by hash to have it named by file and line, or counted and skipped with --skip-bad)", all[i].id, dirs[all[i-1].shard], dirs[all[i].shard])}
		}
	}
	return nil
}

// sameInputsFiles is sameInputs but for what a byte range counts.
func sameInputsFiles(a, b []visits.InputStats) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Format != b[i].Format || a[i].Size != b[i].Size {
			return false
		}
	}
	return true
}

// sameEstimate checks that two shards estimated the same inputs with the
// same options (by byte range, what the reader counted differs).
func sameEstimate(a *EstimateMeta, ai *EstimateShardInfo, b *EstimateMeta, bi *EstimateShardInfo, ranged bool) error {
	if ranged && !sameInputsFiles(a.Inputs, b.Inputs) || !ranged && !sameInputs(a.Inputs, b.Inputs) {
		return fmt.Errorf("inputs differ (%s vs %s: give every shard the same paths)", inputNames(a), inputNames(b))
	}
	type check struct {
		name string
		x, y any
	}
	checks := []check{
		{"version", a.Version, b.Version}, {"unit", a.Unit, b.Unit}, {"h", a.H, b.H}, {"x_max", a.XMax, b.XMax},
		{"const_tolerance_s", a.ConstTol, b.ConstTol}, {"methods", a.Methods, b.Methods},
		{"verdict_ks_threshold", a.Threshold, b.Threshold}, {"min_changes", a.MinChanges, b.MinChanges},
		{"options", ai.Options, bi.Options}, {"curves", a.Curves, b.Curves},
	}
	if !ranged {
		checks = append(checks, []check{{"captures", a.Captures, b.Captures}, {"urls", a.URLs, b.URLs},
			{"bad lines", a.Bad, b.Bad}, {"revisits resolved", a.RevisitsResolved, b.RevisitsResolved},
			{"merged keys", a.MergedKeys, b.MergedKeys}, {"merged originals", a.MergedOriginals, b.MergedOriginals}, {"URLs read", ai.Read, bi.Read},
			{"captures skipped", ai.ReadSkipped, bi.ReadSkipped}}...)
	}
	for _, c := range checks {
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
