package dataset

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/pq"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/usage"
)

// CombineError is a set of datasets that cannot form one: bad usage
// (usage.Error: different filters, or a page in two of them).
type CombineError = usage.Error

// combineIDsPerPass bounds the page ids held at once by Combine's
// duplicate check (12 bytes each).
const combineIDsPerPass = 1 << 22

// CombinedFile is the name of file j of dataset k in a combined dataset;
// the names sort in the combined order.
func CombinedFile(k, j int) string { return fmt.Sprintf("pages-%05d-%05d.parquet", k, j) }

// Combine makes one dataset at out from datasets ingested separately
// (one ingest per dump file, run as parallel processes or jobs: see
// docs/scale-out.md), without decoding a page: their Parquet files are
// hard-linked (copied across file systems) into out in the order given
// (their content hashes taken from the inputs' entry lists where the
// files are untouched: atomicdir.Dir.Link), and the manifests are combined (inputs in order, counts added). The
// datasets must have been ingested with the same filters, and no page id
// may be in two of them (the check reads the page_id columns only, in
// passes of at most 2²² ids, hashed into buckets: memory ≈ 50 MB whatever
// the size). The datasets given are never modified.
func Combine(ctx context.Context, dirs []string, out string) (*Manifest, error) {
	if len(dirs) == 0 {
		return nil, &CombineError{Err: errors.New("no datasets to combine")}
	}
	rs := make([]*Reader, len(dirs))
	var total int64
	for k, d := range dirs {
		r, err := Open(d)
		if err != nil {
			return nil, err
		}
		n, err := r.NumPages()
		if err != nil {
			return nil, err
		}
		total += n
		rs[k] = r
	}
	m := &Manifest{Tool: "revisit", Version: rs[0].Manifest.Version, Filters: rs[0].Manifest.Filters}
	m.Counts.Skipped = map[string]int64{}
	var extras []map[string]any
	for k, r := range rs {
		rm := r.Manifest
		if !reflect.DeepEqual(rm.Filters, m.Filters) {
			return nil, &CombineError{Err: fmt.Errorf("datasets %s and %s were ingested with different filters (%+v vs %+v)", dirs[0], dirs[k], m.Filters, rm.Filters)}
		}
		m.Inputs = append(m.Inputs, rm.Inputs...)
		c := rm.Counts
		m.Counts.PagesRead += c.PagesRead
		m.Counts.PagesKept += c.PagesKept
		m.Counts.RevisionsRead += c.RevisionsRead
		m.Counts.RevisionsKept += c.RevisionsKept
		m.Counts.Updates += c.Updates
		m.Counts.Collapsed += c.Collapsed
		m.Counts.PagesDaily += c.PagesDaily
		m.Counts.CollapsedSameDay += c.CollapsedSameDay
		for key, v := range c.Skipped {
			m.Counts.Skipped[key] += v
		}
		extras = append(extras, rm.Extra)
	}
	if len(m.Counts.Skipped) == 0 {
		m.Counts.Skipped = nil
	}
	m.Extra = map[string]any{"combined_from": dirs, "combined_extra": extras}
	if err := checkDisjoint(ctx, dirs, rs, total, combineIDsPerPass); err != nil {
		return nil, err
	}

	o, err := atomicdir.CreateContext(ctx, out, ManifestFile, "dataset")
	if err != nil {
		return nil, err
	}
	defer o.Abort()
	for k, r := range rs {
		for j, f := range r.Files {
			if err := o.Link(f, CombinedFile(k, j)); err != nil {
				return nil, fmt.Errorf("dataset %s: %w", out, err)
			}
		}
	}
	m.Created = time.Now().UTC()
	if err := writeManifest(o.Path(), m); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", out, err)
	}
	if err := o.Commit(); err != nil {
		return nil, err
	}
	return m, nil
}

// checkDisjoint fails when a page id is in two of the datasets (or twice
// in one).
func checkDisjoint(ctx context.Context, dirs []string, rs []*Reader, total, perPass int64) error {
	passes := max(1, int((total+perPass-1)/perPass))
	type idAt struct {
		id int64
		ds int32
	}
	var ids []idAt
	for b := range passes {
		ids = ids[:0]
		for k, r := range rs {
			for _, f := range r.Files {
				if err := ctx.Err(); err != nil {
					return err
				}
				err := eachPageID(f, func(id int64) {
					if passes == 1 || int(shard.Hash(id)%uint64(passes)) == b {
						ids = append(ids, idAt{id, int32(k)})
					}
				})
				if err != nil {
					return fmt.Errorf("dataset %s: %w", f, err)
				}
			}
		}
		slices.SortFunc(ids, func(a, b idAt) int { return cmp.Or(cmp.Compare(a.id, b.id), cmp.Compare(a.ds, b.ds)) })
		for i := 1; i < len(ids); i++ {
			if ids[i].id == ids[i-1].id {
				return &CombineError{Err: fmt.Errorf("page id %d is in %s and in %s (overlapping inputs?)", ids[i].id, dirs[ids[i-1].ds], dirs[ids[i].ds])}
			}
		}
	}
	return nil
}

// eachPageID calls fn with every page id of a dataset file, reading that
// column only.
func eachPageID(name string, fn func(int64)) error {
	return pq.EachRecordOf(name, 1<<16, []int{colPageID}, func(rec arrow.RecordBatch) error {
		col, ok := rec.Column(0).(*array.Int64)
		if !ok || rec.Schema().Field(0).Name != "page_id" {
			return fmt.Errorf("column %d is %s, want page_id int64", colPageID, rec.Schema().Field(0).Name)
		}
		for _, v := range col.Int64Values() {
			fn(v)
		}
		return nil
	})
}
