// Package gentest writes small generated datasets for the tests of the
// stages that read them (replay, analysis). It is imported by tests only;
// it is not part of internal/stagetest because transform's tests use that
// package and generate imports transform.
package gentest

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/generate"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// Dataset is a `revisit generate --format parquet` corpus of 30 pages
// over 10 days from 2015-01-01 (a quarter in Talk), of the models given
// (generate's syntax, hourly unit) and seed, written under t's temporary
// directory, and its pages as read back.
func Dataset(t testing.TB, models []string, seed uint64) (string, []series.Page) {
	t.Helper()
	ms, err := generate.ParseModels(models, 3600)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "ds")
	opt := generate.Options{Config: generate.Config{Pages: 30, Models: ms, Start: time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC),
		Span: 10 * units.Day, UnitName: "h", Unit: 3600, Seed: seed, TalkFraction: 0.25}, Format: generate.FormatParquet, Out: dir, Version: "test"}
	if _, err := generate.Run(opt); err != nil {
		t.Fatal(err)
	}
	r, err := dataset.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := r.All()
	if err != nil {
		t.Fatal(err)
	}
	return dir, pages
}
