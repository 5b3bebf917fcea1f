package estimates

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/revisit-dev/revisit/estimator"
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

// appendOlderRow appends to b, a builder of an earlier schema, the
// columns every schema has had (page 1 "p", sampler, an M2 estimate of
// one point, through visits); the caller appends the later columns its
// schema has.
func appendOlderRow(b *array.RecordBuilder, sampler string) {
	b.Field(ecPage).(*array.Int64Builder).Append(1)
	b.Field(ecTitle).(*array.StringBuilder).Append("p")
	b.Field(ecSampler).(*array.StringBuilder).Append(sampler)
	b.Field(ecMethod).(*array.StringBuilder).Append(estimator.MethodM2)
	b.Field(ecKind).(*array.StringBuilder).Append(estimator.KindG)
	for _, c := range []int{ecX, ecP} {
		lb := b.Field(c).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Float64Builder).AppendValues([]float64{0}, nil)
	}
	b.Field(ecSamples).(*array.Int64Builder).Append(1)
	b.Field(ecRate).(*array.Float64Builder).Append(math.NaN())
	b.Field(ecH).(*array.Float64Builder).Append(0)
	b.Field(ecNote).(*array.StringBuilder).Append("")
	b.Field(ecVisits).(*array.Int64Builder).Append(1)
}

// A file without the constant column tells constant samplers from their
// labels, read as the sampler parser reads them: replay's specs and
// estimate's observed labels; a label that no longer parses falls back
// to its name.
func TestLegacyConstant(t *testing.T) {
	for label, want := range map[string]bool{
		"const:0.5": true, "const:0.05x": true, "dist:const:2": true, "exp:2": false, "uniform:1": false,
		"observed const:3600": true, "observed irregular": false, "const:soon": true, "observed const:?": true,
	} {
		if got := legacyConstant(label); got != want {
			t.Errorf("legacyConstant(%q) = %v, want %v", label, got, want)
		}
	}
}
