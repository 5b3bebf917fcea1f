package pq

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Options say how a Parquet file is laid out. Every file revisit writes
// is zstd-compressed and stores its Arrow schema; the zero value of each
// field means arrow-go's default.
type Options struct {
	// Level is the zstd level; 0: arrow-go's default level.
	Level int
	// MaxRowGroupLength caps the rows of a row group; 0: arrow-go's
	// default (64 Mi rows).
	MaxRowGroupLength int64
	// Dictionary names the columns that are dictionary-encoded; every
	// other column is plain. Dictionaries only for a few repeated
	// strings: one that outgrows its page falls back to plain pages, and
	// arrow-go then lists the chunk's encodings in map order, so the same
	// rows would not always give the same bytes.
	Dictionary []string
}

// properties are the Parquet writer properties of o.
func (o Options) properties() *parquet.WriterProperties {
	opts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithDictionaryDefault(false),
	}
	if o.Level != 0 {
		opts = append(opts, parquet.WithCompressionLevel(o.Level))
	}
	if o.MaxRowGroupLength > 0 {
		opts = append(opts, parquet.WithMaxRowGroupLength(o.MaxRowGroupLength))
	}
	for _, c := range o.Dictionary {
		opts = append(opts, parquet.WithDictionaryFor(c, true))
	}
	return parquet.NewWriterProperties(opts...)
}

// Writer streams rows of one schema into a Parquet file, as arrow-go's
// pqarrow.FileWriter with a record builder: the schema is data, rows are
// appended to Builder's fields and Flush writes the rows held as a
// record batch (a row group, or several when MaxRowGroupLength is
// smaller).
type Writer struct {
	fw *pqarrow.FileWriter
	b  *array.RecordBuilder
}

// NewWriter starts a Parquet file of schema on w. Close (or Abort)
// closes w when it is an io.Closer.
func NewWriter(w io.Writer, schema *arrow.Schema, o Options) (*Writer, error) {
	fw, err := pqarrow.NewFileWriter(schema, w, o.properties(), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, err
	}
	return &Writer{fw: fw, b: array.NewRecordBuilder(memory.DefaultAllocator, schema)}, nil
}

// Builder holds the rows not yet flushed: append to its fields.
func (w *Writer) Builder() *array.RecordBuilder { return w.b }

// Pending is the number of rows held (appended to the first field).
func (w *Writer) Pending() int { return w.b.Field(0).Len() }

// Flush writes the rows held, if any.
func (w *Writer) Flush() error {
	if w.Pending() == 0 {
		return nil
	}
	rec := w.b.NewRecordBatch()
	defer rec.Release()
	return w.fw.Write(rec)
}

// Close flushes and finishes the file.
func (w *Writer) Close() error {
	err := w.Flush()
	w.b.Release()
	if cerr := w.fw.Close(); err == nil {
		err = cerr
	}
	return err
}

// Abort drops the rows held and closes the file, unfinished.
func (w *Writer) Abort() {
	w.b.Release()
	w.fw.Close()
}
