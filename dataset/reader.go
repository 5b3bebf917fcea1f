package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/revisit-dev/revisit/internal/pq"
	"github.com/revisit-dev/revisit/series"
)

// Reader reads a dataset directory: pages.parquet, or the part files
// pages-*.parquet that together form one dataset.
type Reader struct {
	Dir      string
	Manifest *Manifest
	Files    []string // Parquet files in read order
}

// Open opens the dataset at dir and reads its manifest.
func Open(dir string) (*Reader, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	// The part files by name, not filepath.Glob(dir/pages-*.parquet): a
	// directory name holding [ or * is not a pattern.
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	var files []string
	for _, e := range ents {
		if ok, _ := filepath.Match("pages-*.parquet", e.Name()); ok {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(files)
	if p := filepath.Join(dir, PagesFile); fileExists(p) {
		files = append([]string{p}, files...)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("dataset %s: no %s", dir, PagesFile)
	}
	if n := m.Parts; n > 0 {
		for i := range n {
			if !fileExists(filepath.Join(dir, PartFile(i, n))) {
				return nil, fmt.Errorf("dataset %s: part file %s of %d is missing", dir, PartFile(i, n), n)
			}
		}
	}
	return &Reader{Dir: dir, Manifest: m, Files: files}, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Each calls fn for every page in file order, streaming one record batch
// at a time. The page passed to fn is fresh: fn may keep it. Returning an
// error from fn stops the iteration and Each returns that error.
func (r *Reader) Each(fn func(*series.Page) error) error {
	for _, name := range r.Files {
		if err := eachInFile(name, fn); err != nil {
			return err
		}
	}
	return nil
}

// All reads every page into memory.
func (r *Reader) All() ([]series.Page, error) {
	var out []series.Page
	err := r.Each(func(p *series.Page) error {
		out = append(out, *p)
		return nil
	})
	return out, err
}

// NumPages is the number of pages, from the Parquet footers alone.
func (r *Reader) NumPages() (int64, error) {
	var n int64
	for _, name := range r.Files {
		pf, err := file.OpenParquetFile(name, false)
		if err != nil {
			return 0, fmt.Errorf("dataset %s: %w", name, err)
		}
		n += pf.NumRows()
		pf.Close()
	}
	return n, nil
}

func eachInFile(name string, fn func(*series.Page) error) error {
	var fnErr error
	err := pq.EachRecord(name, 4096, func(rec arrow.RecordBatch) error {
		fnErr = eachInRecord(name, rec, fn)
		return fnErr
	})
	if err != nil && err != fnErr {
		return fmt.Errorf("dataset %s: %w", name, err)
	}
	return err
}

func eachInRecord(name string, rec arrow.RecordBatch, fn func(*series.Page) error) error {
	if err := checkSchema(rec.Schema()); err != nil {
		return fmt.Errorf("dataset %s: %w", name, err)
	}
	ids := rec.Column(colPageID).(*array.Int64)
	src := rec.Column(colSource).(*array.String)
	title := rec.Column(colTitle).(*array.String)
	ns := rec.Column(colNamespace).(*array.Int32)
	grp := rec.Column(colGroup).(*array.String)
	coll := rec.Column(colNCollapsed).(*array.Int64)
	res := rec.Column(colResolution).(*array.Int32)
	ups := rec.Column(colUpdates).(*array.List)
	vals := ups.ListValues().(*array.Timestamp)
	// Parquet has no second unit: timestamp[s] is stored (and read back) as
	// milliseconds, other writers may use micro- or nanoseconds.
	div := perSecond(vals.DataType().(*arrow.TimestampType).Unit)
	offs := ups.Offsets()
	for i := 0; i < int(rec.NumRows()); i++ {
		lo, hi := offs[i], offs[i+1]
		u := make([]int64, hi-lo)
		for j := range u {
			u[j] = int64(vals.Value(int(lo)+j)) / div
		}
		p := &series.Page{
			ID:         ids.Value(i),
			Source:     src.Value(i),
			Title:      title.Value(i),
			Namespace:  ns.Value(i),
			Group:      grp.Value(i),
			Collapsed:  coll.Value(i),
			Resolution: res.Value(i),
			Updates:    u,
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

func perSecond(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Millisecond:
		return 1_000
	case arrow.Microsecond:
		return 1_000_000
	case arrow.Nanosecond:
		return 1_000_000_000
	}
	return 1
}

// checkSchema accepts Schema up to the unit of the timestamps.
func checkSchema(s *arrow.Schema) error {
	if s.NumFields() != Schema.NumFields() {
		return fmt.Errorf("%d columns, want %d (%v)", s.NumFields(), Schema.NumFields(), Schema)
	}
	for i, want := range Schema.Fields() {
		got := s.Field(i)
		if got.Name != want.Name || got.Type.ID() != want.Type.ID() {
			return fmt.Errorf("column %d is %s %s, want %s %s", i, got.Name, got.Type, want.Name, want.Type)
		}
	}
	lt := s.Field(colUpdates).Type.(*arrow.ListType)
	if lt.Elem().ID() != arrow.TIMESTAMP {
		return fmt.Errorf("column updates holds %s, want timestamps", lt.Elem())
	}
	return nil
}
