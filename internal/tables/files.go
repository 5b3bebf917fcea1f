package tables

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/revisit-dev/revisit/internal/csvout"
	"github.com/revisit-dev/revisit/internal/pq"
)

// fileWriterGroup is the number of rows per Parquet row group: the writer
// holds at most this many rows in memory. The arrow builders take about
// 1 KB per page_stats row (25 columns, capacity doubling): 16 Ki rows
// keep that under 20 MB, where 64 Ki rows made page_stats the largest
// part of analyze's memory.
const fileWriterGroup = 1 << 14

// FileWriter streams rows of typed cells to stem.parquet and stem.csv at
// once, so per-page results can be loaded by DuckDB, pandas or a
// spreadsheet without revisit. The schema is derived from the columns:
// String → string, Int/Bytes → int64, Time → timestamp[s] (UTC),
// Float/Percent/Seconds → float64 (NaN stored as null, empty in CSV); the
// CSV is csvout's (text cells guarded against formula evaluation).
// Files are written under temporary names and renamed by Close; Abort
// removes them.
type FileWriter struct {
	cols    []Column
	stem    string
	pqTmp   string
	csvTmp  string
	pqFile  *os.File
	csvFile *os.File
	csv     *csvout.Writer
	pw      *pq.Writer
	rows    int64
	closed  bool
}

func arrowType(k Kind) arrow.DataType {
	switch k {
	case String:
		return arrow.BinaryTypes.String
	case Int, Bytes:
		return arrow.PrimitiveTypes.Int64
	case Time:
		return &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}
	}
	return arrow.PrimitiveTypes.Float64
}

func NewFileWriter(stem string, cols []Column) (*FileWriter, error) {
	if err := os.MkdirAll(filepath.Dir(stem), 0o755); err != nil {
		return nil, err
	}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: arrowType(c.Kind), Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	w := &FileWriter{cols: cols, stem: stem}
	var err error
	if w.pqFile, err = os.CreateTemp(filepath.Dir(stem), "."+filepath.Base(stem)+".parquet.tmp-"); err != nil {
		return nil, err
	}
	w.pqTmp = w.pqFile.Name()
	if w.csvFile, err = os.CreateTemp(filepath.Dir(stem), "."+filepath.Base(stem)+".csv.tmp-"); err != nil {
		w.pqFile.Close()
		os.Remove(w.pqTmp)
		return nil, err
	}
	w.csvTmp = w.csvFile.Name()
	// No dictionaries (pq.Options): the same rows always give the same
	// bytes.
	if w.pw, err = pq.NewWriter(w.pqFile, schema, pq.Options{MaxRowGroupLength: fileWriterGroup}); err != nil {
		w.pqFile.Close()
		w.csvFile.Close()
		os.Remove(w.pqTmp)
		os.Remove(w.csvTmp)
		return nil, err
	}
	w.csv = csvout.NewWriter(w.csvFile)
	header := make([]string, len(cols))
	for i, c := range cols {
		header[i] = c.Name
		if c.Unit != "" {
			header[i] += "_" + c.Unit
		}
	}
	if err := w.csv.Header(header...); err != nil {
		w.Abort()
		return nil, err
	}
	return w, nil
}

// Append writes one row; cells are typed as the columns say (int64 for
// Int/Bytes/Time, float64 for Float/Percent/Seconds, string for String).
func (w *FileWriter) Append(row []any) error {
	if len(row) != len(w.cols) {
		return fmt.Errorf("%s: row has %d cells, want %d", w.stem, len(row), len(w.cols))
	}
	b := w.pw.Builder()
	for i, c := range w.cols {
		fb := b.Field(i)
		switch c.Kind {
		case String:
			s, _ := row[i].(string)
			fb.(*array.StringBuilder).Append(s)
			w.csv.Text(s)
		case Int, Bytes:
			v := toInt64(row[i])
			fb.(*array.Int64Builder).Append(v)
			w.csv.Int(v)
		case Time:
			v := toInt64(row[i])
			fb.(*array.TimestampBuilder).Append(arrow.Timestamp(v))
			w.csv.Value(time.Unix(v, 0).UTC().Format(time.RFC3339))
		default:
			f, ok := row[i].(float64)
			if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
				fb.(*array.Float64Builder).AppendNull()
				w.csv.Value("")
			} else {
				fb.(*array.Float64Builder).Append(f)
				w.csv.Float(f)
			}
		}
	}
	if err := w.csv.End(); err != nil {
		return fmt.Errorf("%s.csv: %w", w.stem, err)
	}
	w.rows++
	if w.pw.Pending() >= fileWriterGroup {
		return w.flush()
	}
	return nil
}

func toInt64(c any) int64 {
	switch v := c.(type) {
	case int64:
		return v
	case int:
		return int64(v)
	case int32:
		return int64(v)
	case float64:
		return int64(v)
	}
	return 0
}

func (w *FileWriter) flush() error {
	if err := w.pw.Flush(); err != nil {
		return fmt.Errorf("%s.parquet: %w", w.stem, err)
	}
	return nil
}

// Close finishes both files and renames them to stem.parquet and stem.csv.
func (w *FileWriter) Close() (err error) {
	defer func() {
		if err != nil {
			w.Abort()
		}
	}()
	if err := w.flush(); err != nil {
		return err
	}
	w.closed = true
	if err := w.pw.Close(); err != nil {
		return fmt.Errorf("%s.parquet: %w", w.stem, err)
	}
	if err := w.csv.Flush(); err != nil {
		return fmt.Errorf("%s.csv: %w", w.stem, err)
	}
	if err := w.csvFile.Close(); err != nil {
		return fmt.Errorf("%s.csv: %w", w.stem, err)
	}
	if err := os.Rename(w.pqTmp, w.stem+".parquet"); err != nil {
		return err
	}
	return os.Rename(w.csvTmp, w.stem+".csv")
}

// Abort removes the temporary files.
func (w *FileWriter) Abort() {
	if !w.closed {
		w.closed = true
		w.pw.Abort()
		w.csvFile.Close()
	}
	os.Remove(w.pqTmp)
	os.Remove(w.csvTmp)
}

// WriteFiles writes a whole table as stem.parquet and stem.csv.
func WriteFiles(stem string, t Table) error {
	w, err := NewFileWriter(stem, t.Columns)
	if err != nil {
		return err
	}
	for _, r := range t.Rows {
		if err := w.Append(r); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}
