package estimates

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/pq"
	"github.com/revisit-dev/revisit/series"
)

// A file Writer writes records its generation in the Parquet key-value
// metadata, where any Parquet reader finds it.
func TestSchemaVersionWritten(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, File)
	w, err := NewWriter(name)
	if err != nil {
		t.Fatal(err)
	}
	row := estimator.Estimate{PageID: 1, Sampler: "exp:2", Method: estimator.MethodM6, Kind: estimator.KindG, CDF: series.CDF{X: []float64{0}, P: []float64{0}}}
	if err := errors.Join(w.Write(&row), w.Close()); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := pq.Value(name, SchemaKey); err != nil || !ok || v != "4" {
		t.Fatalf("key-value metadata %s = %q (present %v, %v), want 4", SchemaKey, v, ok, err)
	}
	if len(generationColumns) != SchemaVersion || generationColumns[SchemaVersion-1] != estimateSchema.NumFields() {
		t.Fatalf("generation %d has %d columns, the schema %d", SchemaVersion, generationColumns[SchemaVersion-1], estimateSchema.NumFields())
	}
}

// versionedFile writes one row of the current columns, labelled as
// generation version (the metadata a writer of that generation would
// set), and returns its directory.
func versionedFile(t *testing.T, version string) string {
	t.Helper()
	md := arrow.NewMetadata([]string{SchemaKey}, []string{version})
	schema := arrow.NewSchema(estimateSchema.Fields(), &md)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	appendOlderRow(b, "exp:2")
	b.Field(ecConstant).(*array.BooleanBuilder).Append(false)
	for _, c := range []int{ecWMRD, ecKS, ecErrXMax, ecWMRDMean, ecKSMean, ecErrXMaxMean} {
		b.Field(c).(*array.Float64Builder).Append(0.5)
	}
	b.Field(ecErrPoints).(*array.Int64Builder).Append(3)
	b.Field(ecCompact).(*array.BooleanBuilder).Append(true)
	b.Field(ecSeed).(*array.Int64Builder).Append(7)
	rec := b.NewRecordBatch()
	defer rec.Release()
	return writeOlderFile(t, schema, rec)
}

// The recorded version, not the count of columns, says what is read: a
// file labelled generation 3 reads as one (no seed, no second-range
// error) even with later columns after its own; versions this build
// does not know are refused by name.
func TestSchemaVersionRead(t *testing.T) {
	read := func(dir string) ([]estimator.Estimate, error) {
		var got []estimator.Estimate
		err := Each(dir, func(e *estimator.Estimate) error { got = append(got, *e); return nil })
		return got, err
	}
	got, err := read(versionedFile(t, "4"))
	if err != nil || len(got) != 1 || got[0].Seed != 7 || got[0].ErrMean == nil {
		t.Fatalf("generation 4: %+v, %v", got, err)
	}
	got, err = read(versionedFile(t, "3"))
	if err != nil || len(got) != 1 || got[0].Seed != 0 || got[0].ErrMean != nil || got[0].Err == nil || !got[0].Compact {
		t.Fatalf("generation 3: %+v, %v", got, err)
	}
	for v, want := range map[string]string{"5": "newer revisit", "x": "not a generation", "0": "not a generation"} {
		if _, err := read(versionedFile(t, v)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("version %q: error %v, want one saying %q", v, err, want)
		}
	}
}
