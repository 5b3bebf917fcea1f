// Package datasettest holds test helpers for datasets in part files: one
// written from pages, and the same with some parts taken away, as on a
// node that holds only its own shard's parts. It is imported by tests
// only.
package datasettest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/series"
)

// WriteParts writes pages as a dataset of n part files
// (dataset.CreateParts) at dir/name and returns its path.
func WriteParts(tb testing.TB, dir, name string, pages []series.Page, n int) string {
	tb.Helper()
	ds := filepath.Join(dir, name)
	w, err := dataset.CreateParts(ds, n)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range pages {
		if err := w.Write(&pages[i]); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(&dataset.Manifest{}); err != nil {
		tb.Fatal(err)
	}
	return ds
}

// WithoutParts runs fn while the part files j of the n-part dataset ds
// with keep(j) false are moved out of it, as on a node that holds only
// some parts, and puts them back after.
func WithoutParts(tb testing.TB, ds string, n int, keep func(j int) bool, fn func()) {
	tb.Helper()
	away := tb.TempDir()
	var moved []string
	defer func() {
		for _, name := range moved {
			if err := os.Rename(filepath.Join(away, name), filepath.Join(ds, name)); err != nil {
				tb.Fatal(err)
			}
		}
	}()
	for j := range n {
		if !keep(j) {
			name := dataset.PartFile(j, n)
			if err := os.Rename(filepath.Join(ds, name), filepath.Join(away, name)); err != nil {
				tb.Fatal(err)
			}
			moved = append(moved, name)
		}
	}
	fn()
}
