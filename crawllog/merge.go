package crawllog

import (
	"context"
	"errors"
	"fmt"
	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stage"
	"io"
	"maps"
	"reflect"
	"slices"
	"time"
)

// MergeError is a set of estimate shard outputs that do not form one
// estimate (bad usage: missing or repeated shards, different inputs or
// options): replay.MergeError, one type for both merges.
type MergeError = shard.MergeError

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
// Memory: bounded, not per URL (the URLs' lines are streamed from the
// shards in order), but for 8 bytes per URL when the shards of a trace
// read by byte range found its ids out of order (noTwice).
func MergeEstimates(ctx context.Context, dirs []string, out string) (*EstimateMeta, error) {
	start := time.Now()
	if len(dirs) == 0 {
		return nil, &MergeError{Err: errors.New("merge: no estimate outputs")}
	}
	if err := shard.OutNotShard(dirs, out); err != nil {
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
	ids := make([]shard.Record, len(infos))
	for k, info := range infos {
		ids[k] = info.Record
		if schemeOf(info) != schemeOf(i0) {
			return nil, &MergeError{Err: fmt.Errorf("merge: %s chose its URLs by %s, %s by %s: not shards of one estimate (give every shard the same inputs and --shard-by)", dirs[0], schemeOf(i0), dirs[k], schemeOf(info))}
		}
	}
	ranged := schemeOf(i0) == ShardByRange
	byIndex, err := shard.Order(dirs, ids, "estimate", func(k int) error { return sameEstimate(m0, i0, metas[k], infos[k], ranged) })
	if err != nil {
		return nil, err
	}
	// By byte range, shard i's URLs come after those of shards < i: their
	// places are offset by the URLs those read (seqOff), and what the
	// reader counted is summed.
	seqOff := make([]int64, len(dirs))
	ordered := true
	if ranged {
		if ordered, err = checkRanges(dirs, infos, byIndex); err != nil {
			return nil, err
		}
		var off int64
		for _, k := range byIndex {
			seqOff[k] = off
			off += infos[k].Read
		}
	}

	for k, info := range infos {
		for i := range info.Drawn {
			info.Drawn[i].Seq += seqOff[k]
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
			bad := mk.Bad
			for i, in := range mk.Inputs {
				if isCompanion(in) && k > 0 {
					// every shard reads a companion file whole: counted once
					for _, c := range in.Bad {
						bad -= c
					}
					continue
				}
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
			meta.Bad += bad
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
	var listed int64
	for _, info := range infos {
		listed += info.URLs
	}
	if int64(meta.Estimated) != listed {
		return nil, &MergeError{Err: fmt.Errorf("merge: the shards' %s count %d URLs estimated, their %s files %d", EstimateMetaFile, meta.Estimated, EstimateShardFile, listed)}
	}
	if meta.Estimated == 0 { // as EstimateLogs
		return nil, noURLError(len(meta.Inputs), &meta)
	}

	if ranged && !ordered {
		if err := noTwice(dirs, infos); err != nil {
			return nil, err
		}
	}

	// The URLs in the order one process reads them, streamed from the
	// shards' lines with their rows; the table's and the figures' URLs are
	// chosen on the way as EstimateLogs chooses them.
	var (
		uw         *urlsWriter
		urlsClosed bool
		tops       []URLSummary
		drawn      []topURL
	)
	// closeURLs closes the URL list after a failure, inside the output
	// being removed.
	closeURLs := func() {
		if uw != nil && !urlsClosed {
			uw.f.Close()
			urlsClosed = true
		}
	}
	top := i0.Options.Top
	rows := func(tmp string, w *estimates.Writer, streams []*estimates.RowStream) (err error) {
		defer func() {
			if err != nil {
				closeURLs()
			}
		}()
		if uw, err = newURLsWriter(tmp); err != nil {
			return fmt.Errorf("estimate output %s: %w", out, err)
		}
		urls, err := newMergedURLs(dirs, infos, byIndex, seqOff, ranged)
		if err != nil {
			return err
		}
		defer urls.close()
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			k, u, err := urls.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			s := streams[k]
			for range u.Rows {
				e, ok, err := s.Peek()
				if err != nil {
					return err
				}
				if !ok || e.PageID != u.PageID || e.Title != u.URL {
					return fmt.Errorf("estimate output %s: the rows of %s are not in the order of %s", dirs[k], u.URL, EstimateShardURLsFile)
				}
				s.Next()
				if err := w.Write(e); err != nil {
					return fmt.Errorf("estimate output %s: %w", out, err)
				}
			}
			sum := u.summary()
			uw.add(&sum)
			tops = keepTop(tops, sum, top)
			drawn = keepDrawn(drawn, topURL{sum: sum, seq: u.Seq})
		}
		for k, s := range streams {
			if _, ok, err := s.Peek(); err != nil || ok {
				if err == nil {
					err = fmt.Errorf("estimate output %s: more rows than its %s lists", dirs[k], EstimateShardURLsFile)
				}
				return err
			}
		}
		return nil
	}
	finish := func(tmp string, w *estimates.Writer) error {
		defer closeURLs()
		// The rows of the URLs drawn, as their shards recorded them
		// (estimates.parquet holds the raw rows only).
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
				return fmt.Errorf("merge: no shard's %s has the curves of %s, drawn in the figures", EstimateShardFile, drawn[i].sum.URL)
			}
		}
		meta.Rows = w.Rows()
		meta.EmptyShare = emptyShare(meta.Bins, meta.EmptyBins)
		urlsClosed = true
		if err := uw.close(); err != nil {
			return fmt.Errorf("estimate output %s: %w", out, err)
		}
		b := estimateBundleOf(&meta, tops, drawn)
		if err := b.Write(tmp); err != nil {
			return fmt.Errorf("estimate output %s: %w", out, err)
		}
		meta.Created = time.Now().UTC()
		meta.ElapsedS += time.Since(start).Seconds()
		if err := estimates.WriteJSON(tmp, EstimateMetaFile, &meta, true); err != nil {
			return fmt.Errorf("estimate output %s: %w", out, err)
		}
		return nil
	}
	// stage.Write cleans the path out (atomicdir.CreateContext)
	if err := estimates.Merge(ctx, stage.Output{Dir: out, Marker: EstimateMetaFile, What: "estimate output"}, dirs, rows, finish); err != nil {
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
// ids increase from one shard to the next (each shard refused one out of
// order, or twice, in its own range). ordered is false when a trace's ids
// did not come in increasing order: then only all the ids tell whether
// one was read by two shards (noTwice). An index's keys out of order are
// an error.
func checkRanges(dirs []string, infos []*EstimateShardInfo, byIndex []int) (ordered bool, err error) {
	var end int64
	var last *logs.RangeInfo // of the last shard with a URL id
	lastDir := ""
	ordered = true
	for i, k := range byIndex {
		g := infos[k].Range
		if g == nil {
			return false, &MergeError{Err: fmt.Errorf("merge: %s: a shard by byte range without its range", dirs[k])}
		}
		if g.Start != end || g.End < g.Start || g.Total != infos[byIndex[0]].Range.Total || g.Order != infos[byIndex[0]].Range.Order {
			return false, &MergeError{Err: fmt.Errorf("merge: %s reads bytes %d…%d of %d, after bytes up to %d: the shards' ranges do not tile the inputs", dirs[k], g.Start, g.End, g.Total, end)}
		}
		end = g.End
		if i == len(byIndex)-1 && end != g.Total {
			return false, &MergeError{Err: fmt.Errorf("merge: the shards' ranges end at byte %d of %d", end, g.Total)}
		}
		if g.IDs == 0 {
			continue
		}
		if !g.Ordered || last != nil && !logs.Before(g.Order, last.Last, g.First) {
			if g.Order == logs.OrderLengthBytes { // a trace need not be in order
				ordered = false
				continue
			}
			return false, &MergeError{Err: fmt.Errorf("merge: %s ends with URL %q, %s begins with %q: the index is not sorted by urlkey (estimate without --sorted, or sort it)", lastDir, last.Last, dirs[k], g.First)}
		}
		last, lastDir = g, dirs[k]
	}
	return ordered, nil
}

// noTwice checks that no trace id was read by two shards of byte ranges:
// every id the shards read (their URLs' and Others) is hashed (8 bytes
// each in memory), the hashes sorted, and the ids of equal hashes compared
// in a second pass.
func noTwice(dirs []string, infos []*EstimateShardInfo) error {
	each := func(fn func(k int, id string) error) error {
		for k := range infos {
			l, err := openShardLines(dirs[k], EstimateShardURLsFile)
			if err != nil {
				return err
			}
			for {
				u, err := l.url()
				if err == io.EOF {
					break
				}
				if err == nil {
					err = fn(k, u.LogID())
				}
				if err != nil {
					l.close()
					return err
				}
			}
			l.close()
			if infos[k].Others == 0 {
				continue
			}
			if l, err = openShardLines(dirs[k], EstimateShardOthersFile); err != nil {
				return err
			}
			for {
				b, err := l.next()
				if err == io.EOF {
					break
				}
				if err == nil {
					err = fn(k, string(b))
				}
				if err != nil {
					l.close()
					return err
				}
			}
			l.close()
		}
		return nil
	}
	var hs []uint64
	if err := each(func(_ int, id string) error { hs = append(hs, fnv64a(id)); return nil }); err != nil {
		return err
	}
	slices.Sort(hs)
	twice := map[uint64]bool{}
	for i := 1; i < len(hs); i++ {
		if hs[i] == hs[i-1] {
			twice[hs[i]] = true
		}
	}
	hs = nil
	if len(twice) == 0 {
		return nil
	}
	seen := map[string]int{} // the ids of a hash seen twice → their shard
	return each(func(k int, id string) error {
		if !twice[fnv64a(id)] {
			return nil
		}
		if j, ok := seen[id]; ok {
			return &MergeError{Err: fmt.Errorf("merge: trace id %q was read by %s and by %s: a trace id given twice (estimate unsharded or with --shard-by hash to have it named by file and line, or counted and skipped with --skip-bad)", id, dirs[j], dirs[k])}
		}
		seen[id] = k
		return nil
	})
}

// fnv64a is FNV-1a 64 of s.
func fnv64a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// mergedURLs yields the shards' URLs in the order one process reads them:
// by byte range, shard after shard; by hash, by their places (Seq), the
// smallest of the shards' next URLs first. It checks each shard's lines:
// places in 0…Read−1, increasing, as many as the shard counts.
type mergedURLs struct {
	dirs   []string
	infos  []*EstimateShardInfo
	ls     []*shardLines
	head   []*ShardURL
	off    []int64
	order  []int // byte range: the shards in order
	at     int
	ranged bool
	h      seqHeap // by hash: the shards with a next URL
}

func newMergedURLs(dirs []string, infos []*EstimateShardInfo, byIndex []int, seqOff []int64, ranged bool) (*mergedURLs, error) {
	m := &mergedURLs{dirs: dirs, infos: infos, ls: make([]*shardLines, len(dirs)), head: make([]*ShardURL, len(dirs)), off: seqOff, order: byIndex, ranged: ranged}
	for k := range dirs {
		l, err := openShardLines(dirs[k], EstimateShardURLsFile)
		if err != nil {
			m.close()
			return nil, err
		}
		m.ls[k] = l
		if !ranged {
			if err := m.advance(k); err != nil {
				m.close()
				return nil, err
			}
			if m.head[k] != nil {
				m.h.push(seqAt{m.head[k].Seq, k})
			}
		}
	}
	return m, nil
}

// advance reads shard k's next URL into head[k] (nil at its end).
func (m *mergedURLs) advance(k int) error {
	prev := m.head[k]
	u, err := m.ls[k].url()
	info := m.infos[k]
	if err == io.EOF {
		m.head[k] = nil
		if m.ls[k].n != info.URLs {
			return fmt.Errorf("estimate output %s: %s holds %d URLs, %s counts %d", m.dirs[k], EstimateShardURLsFile, m.ls[k].n, EstimateShardFile, info.URLs)
		}
		return nil
	}
	if err != nil {
		return err
	}
	if u.Seq < 0 || u.Seq >= info.Read || u.Rows < 0 || prev != nil && u.Seq+m.off[k] <= prev.Seq {
		return fmt.Errorf("estimate output %s: %s: URL %s at place %d out of order or out of 0…%d", m.dirs[k], EstimateShardURLsFile, u.URL, u.Seq, info.Read-1)
	}
	u.Seq += m.off[k]
	m.head[k] = u
	return nil
}

// next is the next URL and the position in dirs of its shard; io.EOF
// after the last.
func (m *mergedURLs) next() (int, *ShardURL, error) {
	if m.ranged {
		for m.at < len(m.order) {
			k := m.order[m.at]
			if err := m.advance(k); err != nil {
				return 0, nil, err
			}
			if m.head[k] != nil {
				return k, m.head[k], nil
			}
			m.at++
		}
		return 0, nil, io.EOF
	}
	if len(m.h) == 0 {
		return 0, nil, io.EOF
	}
	top := m.h.pop()
	k, u := top.k, m.head[top.k]
	if len(m.h) > 0 && m.h[0].seq == u.Seq {
		return 0, nil, &MergeError{Err: fmt.Errorf("merge: URL %s estimated by both %s and %s", u.URL, m.dirs[m.h[0].k], m.dirs[k])}
	}
	if err := m.advance(k); err != nil {
		return 0, nil, err
	}
	if m.head[k] != nil {
		m.h.push(seqAt{m.head[k].Seq, k})
	}
	return k, u, nil
}

func (m *mergedURLs) close() {
	for _, l := range m.ls {
		l.close()
	}
}

// seqAt is a shard's next URL place; seqHeap a min-heap of them.
type seqAt struct {
	seq int64
	k   int
}

type seqHeap []seqAt

func (h *seqHeap) push(x seqAt) {
	*h = append(*h, x)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if a[p].seq <= a[i].seq {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *seqHeap) pop() seqAt {
	a := *h
	top := a[0]
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && a[l].seq < a[m].seq {
			m = l
		}
		if r < n && a[r].seq < a[m].seq {
			m = r
		}
		if m == i {
			break
		}
		a[m], a[i] = a[i], a[m]
		i = m
	}
	*h = a
	return top
}

// isCompanion: in is a companion file of the Bing trace, which a shard of
// byte ranges reads whole.
func isCompanion(in logs.InputStats) bool {
	return in.Format == logs.Importance || in.Format == logs.URLs
}

// sameEstimate checks that two shards estimated the same inputs with the
// same options (by byte range, what the reader counted differs).
func sameEstimate(a *EstimateMeta, ai *EstimateShardInfo, b *EstimateMeta, bi *EstimateShardInfo, ranged bool) error {
	if d := inputsDiffer(a, ai, b, bi, ranged); d != "" {
		return errors.New(d)
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

// inputsDiffer describes the first input that differs between shards a
// and b ("" when none does): other paths, another size or content
// (their fingerprints, logs.Print), another format, or other counts
// where both read the whole input (by hash, and a companion file of a
// trace, which every shard reads whole; a byte range counts its own).
func inputsDiffer(a *EstimateMeta, ai *EstimateShardInfo, b *EstimateMeta, bi *EstimateShardInfo, ranged bool) string {
	an, bn := "shard "+ai.Shard, "shard "+bi.Shard
	if !slices.Equal(inputNames(a), inputNames(b)) {
		return fmt.Sprintf("inputs differ (%q in %s, %q in %s: give every shard the same paths)", inputNames(a), an, inputNames(b), bn)
	}
	if len(ai.Prints) == len(bi.Prints) { // shards written before fingerprints have none
		for i := range ai.Prints {
			p, q := &ai.Prints[i], &bi.Prints[i]
			if p.Name != q.Name {
				return fmt.Sprintf("inputs read in another order (%s in %s, %s in %s)", p.Name, an, q.Name, bn)
			}
			if d := p.Differ(q, an, bn); d != "" {
				return fmt.Sprintf("input %s differs: %s (the file changed between the shards' runs, or they read different files of that name)", p.Name, d)
			}
		}
	}
	for i := range a.Inputs {
		x, y := &a.Inputs[i], &b.Inputs[i]
		switch {
		case x.Size != y.Size:
			return fmt.Sprintf("input %s differs: %d bytes in %s, %d in %s", x.Name, x.Size, an, y.Size, bn)
		case x.Format != y.Format:
			return fmt.Sprintf("input %s read as %s in %s, as %s in %s", x.Name, x.Format, an, y.Format, bn)
		case (!ranged || isCompanion(*x)) && (x.Records != y.Records || !maps.Equal(x.Bad, y.Bad)):
			return fmt.Sprintf("input %s differs: %d records (bad: %v) in %s, %d (bad: %v) in %s", x.Name, x.Records, x.Bad, an, y.Records, y.Bad, bn)
		}
	}
	return ""
}

func inputNames(m *EstimateMeta) []string {
	var names []string
	for _, in := range m.Inputs {
		names = append(names, in.Name)
	}
	return names
}
