package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/series"
)

// Row-group limits: a row group is flushed when either is reached (before
// a page that would take it past MaxGroupUpdates), so the writer's memory
// is bounded by about max(MaxGroupUpdates, the largest page's updates)·20
// bytes (Arrow builder, conversion to milliseconds, list levels) however
// large the input is.
const (
	MaxGroupPages   = 1 << 16
	MaxGroupUpdates = 1 << 22
)

// Writer streams pages into a new dataset directory. Use Create, then Write
// for each page, then Close with the manifest; Abort (or a failed Close)
// removes everything written.
type Writer struct {
	dir     string
	out     *atomicdir.Dir
	f       *os.File
	fw      *pqarrow.FileWriter
	b       *array.RecordBuilder
	pages   int
	updates int
	total   int64
	closed  bool
}

// Create starts a dataset that will appear at dir when Close succeeds. An
// existing dataset at dir (a directory holding manifest.json) or an empty
// directory is replaced on Close; any other existing path is an error, so a
// typo cannot destroy unrelated files.
func Create(dir string) (*Writer, error) {
	out, err := atomicdir.Create(dir, ManifestFile, "dataset")
	if err != nil {
		return nil, err
	}
	tmp := out.Path()
	f, err := os.Create(filepath.Join(tmp, PagesFile))
	if err != nil {
		out.Abort()
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithCompressionLevel(3),
		parquet.WithMaxRowGroupLength(MaxGroupPages),
		// Dictionaries only where values repeat: hashing every update
		// time and page id for a dictionary cost ~7 % of ingest CPU.
		parquet.WithDictionaryDefault(false),
		parquet.WithDictionaryFor("source", true),
		parquet.WithDictionaryFor("group", true),
	)
	fw, err := pqarrow.NewFileWriter(Schema, f, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		f.Close()
		out.Abort()
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	return &Writer{dir: dir, out: out, f: f, fw: fw, b: array.NewRecordBuilder(memory.DefaultAllocator, Schema)}, nil
}

// Write appends one page. The page must satisfy series.Page.Validate.
func (w *Writer) Write(p *series.Page) error {
	if w.closed {
		return errors.New("dataset: write after close")
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("dataset %s: %w", w.dir, err)
	}
	if w.pages > 0 && w.updates+len(p.Updates) > MaxGroupUpdates {
		// A large page starts a row group of its own, so that the
		// buffers hold max(MaxGroupUpdates, one page's) updates, not both.
		if err := w.flush(); err != nil {
			return err
		}
	}
	b := w.b
	b.Field(colPageID).(*array.Int64Builder).Append(p.ID)
	b.Field(colSource).(*array.StringBuilder).Append(p.Source)
	b.Field(colTitle).(*array.StringBuilder).Append(p.Title)
	b.Field(colNamespace).(*array.Int32Builder).Append(p.Namespace)
	b.Field(colGroup).(*array.StringBuilder).Append(p.Group)
	b.Field(colNUpdates).(*array.Int64Builder).Append(int64(len(p.Updates)))
	b.Field(colNCollapsed).(*array.Int64Builder).Append(p.Collapsed)
	b.Field(colFirst).(*array.TimestampBuilder).Append(arrow.Timestamp(p.Updates[0]))
	b.Field(colLast).(*array.TimestampBuilder).Append(arrow.Timestamp(p.Updates[len(p.Updates)-1]))
	b.Field(colResolution).(*array.Int32Builder).Append(p.Resolution)
	lb := b.Field(colUpdates).(*array.ListBuilder)
	lb.Append(true)
	vb := lb.ValueBuilder().(*array.TimestampBuilder)
	vb.Reserve(len(p.Updates))
	for _, u := range p.Updates {
		vb.UnsafeAppend(arrow.Timestamp(u))
	}
	w.pages++
	w.updates += len(p.Updates)
	w.total++
	if w.pages >= MaxGroupPages || w.updates >= MaxGroupUpdates {
		return w.flush()
	}
	return nil
}

// Pages is the number of pages written so far.
func (w *Writer) Pages() int64 { return w.total }

func (w *Writer) flush() error {
	if w.pages == 0 {
		return nil
	}
	rec := w.b.NewRecordBatch()
	defer rec.Release()
	w.pages, w.updates = 0, 0
	if err := w.fw.Write(rec); err != nil {
		return fmt.Errorf("dataset %s: writing row group: %w", w.dir, err)
	}
	return nil
}

// Close finishes the Parquet file, writes the manifest and moves the
// dataset to its final path, replacing a previous dataset there. On any
// error nothing is left behind.
func (w *Writer) Close(m *Manifest) (err error) {
	if w.closed {
		return errors.New("dataset: close after close")
	}
	defer func() {
		if err != nil {
			w.Abort()
		}
	}()
	if err := w.flush(); err != nil {
		return err
	}
	w.closed = true
	w.b.Release()
	if err := w.fw.Close(); err != nil { // also closes w.f
		return fmt.Errorf("dataset %s: %w", w.dir, err)
	}
	if m == nil {
		m = &Manifest{}
	}
	if m.Tool == "" {
		m.Tool = "revisit"
	}
	if m.Created.IsZero() {
		m.Created = time.Now().UTC()
	}
	if err := writeManifest(w.out.Path(), m); err != nil {
		return fmt.Errorf("dataset %s: %w", w.dir, err)
	}
	return w.out.Commit()
}

// Abort removes the temporary directory; the destination is untouched.
// It is safe to call after Close.
func (w *Writer) Abort() {
	if !w.closed {
		w.closed = true
		w.b.Release()
		w.fw.Close()
	}
	w.out.Abort()
}
