// Package pq holds the few lines of arrow-go plumbing that every Parquet
// reader in revisit repeats: open a file and stream its record batches. It
// knows nothing of any schema.
package pq

import (
	"context"
	"errors"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// EachRecord calls fn for every record batch of the Parquet file name, in
// file order, batch rows at a time; memory holds one batch. The batch is
// released after fn returns. An error from fn stops the iteration and is
// returned as is; errors of the file itself are returned unwrapped for the
// caller to put in context.
func EachRecord(name string, batch int64, fn func(arrow.RecordBatch) error) error {
	return EachRecordOf(name, batch, nil, fn)
}

// Value is the Parquet key-value metadata of file name under key, and
// whether the file has it; only the footer is read.
func Value(name, key string) (string, bool, error) {
	pf, err := file.OpenParquetFile(name, false)
	if err != nil {
		return "", false, err
	}
	defer pf.Close()
	if v := pf.MetaData().KeyValueMetadata().FindValue(key); v != nil {
		return *v, true, nil
	}
	return "", false, nil
}

// EachRecordOf is EachRecord reading only the given leaf columns (by
// index; nil: all), so a pass over one column does not decode the others.
func EachRecordOf(name string, batch int64, cols []int, fn func(arrow.RecordBatch) error) error {
	pf, err := file.OpenParquetFile(name, false)
	if err != nil {
		return err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: batch}, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	rr, err := fr.GetRecordReader(context.Background(), cols, nil)
	if err != nil {
		return err
	}
	defer rr.Release()
	for {
		rec, err := rr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
}
