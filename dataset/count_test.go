package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/series"
)

type countRow struct {
	pos, id int64
	title   string
	n       int64
}

// EachHead gives every page's position, id, title and number of updates exactly
// as EachPos reads them, for the whole dataset and for the readers of
// shards' own parts, reading a fraction of the bytes (the updates column is
// not read).
func TestEachHeadMatchesEachPos(t *testing.T) {
	pages := samplePages(3000)
	dir := writePartsOf(t, pages, 6)
	whole := mustOpen(t, dir)
	readers := map[string]*Reader{"whole": whole}
	for i := range 3 {
		sub, why := whole.ForShard(shard.Spec{I: i, N: 3})
		if sub == nil {
			t.Fatalf("ForShard %d/3: %s", i, why)
		}
		readers["shard "+string(rune('0'+i))] = sub
	}
	for name, r := range readers {
		var want, got []countRow
		if err := r.EachPos(func(pos int64, p *series.Page) error {
			want = append(want, countRow{pos, p.ID, p.Title, int64(len(p.Updates))})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if err := r.EachHead(func(h PageHead) error {
			got = append(got, countRow{h.Pos, h.ID, h.Title, h.Updates})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d heads, %d pages", name, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: row %d: EachHead %+v, EachPos %+v", name, i, got[i], want[i])
			}
		}
	}
	all, counts := mustOpen(t, dir), mustOpen(t, dir)
	if err := all.Each(func(*series.Page) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := counts.EachHead(func(PageHead) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if a, c := all.Stats().Bytes, counts.Stats().Bytes; c >= a {
		t.Errorf("EachHead read %d bytes, Each %d: the updates column was read", c, a)
	}
}

// A pages.parquet whose n_updates disagrees with its updates (edited by
// hand or by another tool) is refused by Each, naming the page, so that a
// pass over the counts and a pass over the pages never see two datasets.
func TestNUpdatesMismatchRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	pages := samplePages(3)
	writeDS(t, dir, pages, 0, nil)
	// Rewrite pages.parquet with page 2's n_updates one too many.
	n := make([]int64, len(pages))
	for i, p := range pages {
		n[i] = int64(len(p.Updates))
	}
	n[1]++
	writePagesFile(t, filepath.Join(dir, PagesFile), Schema, pages, n)
	err := mustOpen(t, dir).Each(func(*series.Page) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "page 2") || !strings.Contains(err.Error(), "n_updates 3") {
		t.Fatalf("Each: %v, want the mismatch of page 2 named", err)
	}
}

// writePagesFile writes pages to name as one record batch of schema
// (Schema, or a prefix of it: an older dataset's) with the given
// n_updates, bypassing the Writer.
func writePagesFile(t *testing.T, name string, schema *arrow.Schema, pages []series.Page, nUpdates []int64) {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i, p := range pages {
		b.Field(colPageID).(*array.Int64Builder).Append(p.ID)
		b.Field(colSource).(*array.StringBuilder).Append(p.Source)
		b.Field(colTitle).(*array.StringBuilder).Append(p.Title)
		b.Field(colNamespace).(*array.Int32Builder).Append(p.Namespace)
		b.Field(colGroup).(*array.StringBuilder).Append(p.Group)
		b.Field(colNUpdates).(*array.Int64Builder).Append(nUpdates[i])
		b.Field(colNCollapsed).(*array.Int64Builder).Append(p.Collapsed)
		b.Field(colFirst).(*array.TimestampBuilder).Append(arrow.Timestamp(p.Updates[0]))
		b.Field(colLast).(*array.TimestampBuilder).Append(arrow.Timestamp(p.Updates[len(p.Updates)-1]))
		b.Field(colResolution).(*array.Int32Builder).Append(p.Resolution)
		lb := b.Field(colUpdates).(*array.ListBuilder)
		lb.Append(true)
		for _, u := range p.Updates {
			lb.ValueBuilder().(*array.TimestampBuilder).Append(arrow.Timestamp(u))
		}
		if schema.NumFields() > colSourceID {
			b.Field(colSourceID).(*array.StringBuilder).Append(p.SourceID)
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
