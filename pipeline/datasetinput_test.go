package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/internal/tables"
)

// sameTree fails unless dir holds exactly the files of want, byte for byte.
func sameTree(t *testing.T, what, dir string, want map[string][]byte) {
	t.Helper()
	got := stagetest.ReadTree(t, dir)
	if len(got) != len(want) {
		t.Errorf("%s: %d files, want %d", what, len(got), len(want))
	}
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s: %s changed", what, name)
		}
	}
}

func ingestRows(t *testing.T, out string) [][]any {
	t.Helper()
	b, err := tables.Read(filepath.Join(out, "ingest"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range b.Tables {
		if tb.ID == "ingest_counts" {
			return tb.Rows
		}
	}
	t.Fatalf("%s: no ingest_counts", out)
	return nil
}

// run given a dataset directory skips ingest and reads the
// dataset where it is: it is not copied (no OUT/dataset) nor modified,
// the analysis equals that of the run which ingested it, and the report's
// ingest counts are the manifest's. Given OUT/dataset of an earlier run it
// keeps that dataset; given another dataset, the earlier run's dataset/ is
// removed with the other stages. A dataset among other inputs, an OUT
// inside the dataset, or a dataset inside OUT's stages are refused before
// anything is written.
func TestRunDatasetInput(t *testing.T) {
	dir := t.TempDir()
	in := writeLog(t, dir, 25, 40)
	outA := filepath.Join(dir, "a")
	if _, err := Run(context.Background(), testConfig(in, outA)); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(outA, "dataset")
	before := stagetest.ReadTree(t, ds)

	outB := filepath.Join(dir, "b")
	c := testConfig(ds, outB)
	var stages []int
	c.OnStage = func(n int) { stages = append(stages, n) }
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 2, 3, 4, 5, 6, 7}; !slices.Equal(stages, want) {
		t.Errorf("stages %v, want %v", stages, want)
	}
	if _, err := os.Stat(filepath.Join(outB, "dataset")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OUT/dataset written for a dataset input: %v", err)
	}
	for _, sub := range stageDirs {
		if _, err := os.Stat(filepath.Join(outB, sub, stageMarker(sub))); err != nil {
			t.Errorf("%s: %v", sub, err)
		}
	}
	sameTree(t, "the input dataset", ds, before)
	for _, f := range []string{"analysis/page_stats.parquet", "analysis/page_stats.csv"} {
		a, _ := os.ReadFile(filepath.Join(outA, f))
		b, err := os.ReadFile(filepath.Join(outB, f))
		if err != nil || len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs from the run that ingested the dataset (%v)", f, err)
		}
	}
	if a, b := ingestRows(t, outA), ingestRows(t, outB); !reflect.DeepEqual(a, b) {
		t.Errorf("ingest counts %v, want the ingest run's %v", b, a)
	}

	// OUT/dataset of an earlier run as the input: kept as it is.
	if _, err := Run(context.Background(), testConfig(ds, outA)); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "OUT/dataset given back to run", ds, before)

	// Another dataset into a run directory that holds one: the earlier
	// dataset goes with the earlier results.
	outD := filepath.Join(dir, "d")
	if _, err := Run(context.Background(), testConfig(writeLog(t, t.TempDir(), 21, 30), outD)); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), testConfig(ds, outD)); err != nil {
		t.Fatal(err)
	}
	if ents, err := os.ReadDir(filepath.Join(outD, "dataset")); err == nil && len(ents) > 0 {
		t.Errorf("the earlier run's dataset (%d entries) survived next to results of another dataset", len(ents))
	}
	sameTree(t, "the input dataset", ds, before)

	// Refusals, before OUT is made.
	for _, bad := range []Config{
		testConfig(ds, filepath.Join(dir, "e")),
		testConfig(ds, filepath.Join(ds, "out")),
		testConfig(filepath.Join(outB, "analysis"), filepath.Join(dir, "f")), // not a dataset: ingest refuses a directory
	} {
		if bad.Out == filepath.Join(dir, "e") {
			bad.Inputs = []string{ds, in}
		}
		_, err := Run(context.Background(), bad)
		var ue *UsageError
		if bad.Out != filepath.Join(dir, "f") && !errors.As(err, &ue) {
			t.Errorf("inputs %v, -o %s: %v, want a usage error", bad.Inputs, bad.Out, err)
		}
		if err == nil {
			t.Errorf("inputs %v, -o %s: no error", bad.Inputs, bad.Out)
		}
		if _, err := os.Stat(bad.Out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("-o %s made by a refused run", bad.Out)
		}
	}
	sameTree(t, "the input dataset", ds, before)
	// A dataset inside a stage directory of OUT (which run replaces).
	inner := filepath.Join(outB, "report", "ds")
	if err := checkDatasetOutside(inner, outB); err == nil {
		t.Error("a dataset inside OUT/report: not refused")
	}
	if err := checkDatasetOutside(ds, outA); err != nil {
		t.Errorf("OUT/dataset: %v", err)
	}
}
