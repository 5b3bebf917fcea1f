package dataset

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/series"
)

// CreateParts writes page p to part SplitMix64(p) mod n, in write order
// within a part; the dataset reads back as every page once, part after
// part, and a missing part file is an error.
func TestParts(t *testing.T) {
	pages := samplePages(500)
	for _, n := range []int{1, 3, 7} {
		dir := filepath.Join(t.TempDir(), "ds")
		w, err := CreateParts(dir, n)
		if err != nil {
			t.Fatal(err)
		}
		for i := range pages {
			if err := w.Write(&pages[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(nil); err != nil {
			t.Fatal(err)
		}
		// The expected order, computed without the writer.
		var want []series.Page
		for part := range n {
			for _, p := range pages {
				if int(shard.Hash(p.ID)%uint64(n)) == part {
					want = append(want, p)
				}
			}
		}
		r, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if r.Manifest.Parts != n || len(r.Files) != n {
			t.Fatalf("n = %d: manifest parts %d, files %v", n, r.Manifest.Parts, r.Files)
		}
		got, err := r.All()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("n = %d: pages read back differ from the pages in part order (%d vs %d pages)", n, len(got), len(want))
		}
		for i := range n { // each file holds only its part's pages
			err := r.eachInFile(filepath.Join(dir, PartFile(i, n)), func(p *series.Page) error {
				if shard.Of(p.ID, n) != i {
					t.Errorf("page %d in part %d of %d", p.ID, i, n)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if n == 3 {
			if err := os.Remove(filepath.Join(dir, PartFile(1, 3))); err != nil {
				t.Fatal(err)
			}
			if _, err := Open(dir); err == nil {
				t.Error("a dataset with a missing part file opened")
			}
		}
	}
	if _, err := CreateParts(filepath.Join(t.TempDir(), "x"), -1); err == nil {
		t.Error("CreateParts(-1) succeeded")
	}
}
