package pq

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// The layout is what Options say: zstd, dictionaries only on the named
// columns, row groups of at most MaxRowGroupLength rows, and the same rows
// give the same bytes.
func TestWriterLayout(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "t", Type: arrow.BinaryTypes.String},
	}, nil)
	write := func() []byte {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, schema, Options{Level: 3, MaxRowGroupLength: 4, Dictionary: []string{"s"}})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 10 {
			w.Builder().Field(0).(*array.Int64Builder).Append(int64(i))
			w.Builder().Field(1).(*array.StringBuilder).Append("same")
			w.Builder().Field(2).(*array.StringBuilder).Append("same")
			if i == 5 {
				if w.Pending() != 6 {
					t.Fatalf("pending %d, want 6", w.Pending())
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	a, b := write(), write()
	if !bytes.Equal(a, b) {
		t.Fatal("the same rows gave different bytes")
	}
	pf, err := file.NewParquetReader(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	// Flushed after 6 rows, then 4: groups of 4, 2 (the cap splits the
	// first batch) and 4.
	var rows []int64
	for g := 0; g < pf.NumRowGroups(); g++ {
		rg := pf.MetaData().RowGroup(g)
		rows = append(rows, rg.NumRows())
		for c, name := range []string{"id", "s", "t"} {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			if cc.Compression() != compress.Codecs.Zstd {
				t.Errorf("group %d column %s: codec %v, want zstd", g, name, cc.Compression())
			}
			if dict := cc.HasDictionaryPage(); dict != (name == "s") {
				t.Errorf("group %d column %s: dictionary %v, want %v", g, name, dict, name == "s")
			}
		}
	}
	if len(rows) != 3 || rows[0] != 4 || rows[1] != 2 || rows[2] != 4 {
		t.Errorf("row groups %v, want [4 2 4]", rows)
	}
	if pf.NumRows() != 10 {
		t.Errorf("%d rows, want 10", pf.NumRows())
	}
}
