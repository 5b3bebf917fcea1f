package estimates

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// writeOlderFile writes rec, built with the schema of an earlier
// estimates.parquet (fewer columns), as File in a new directory, for the
// tests that read files written before a column was added.
func writeOlderFile(t *testing.T, schema *arrow.Schema, rec arrow.RecordBatch) string {
	t.Helper()
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	fw, err := pqarrow.NewFileWriter(schema, f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}
