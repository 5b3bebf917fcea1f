package dataset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

func writeDS(t *testing.T, dir string, pages []series.Page, parts int, m *Manifest) {
	t.Helper()
	w, err := CreateParts(dir, parts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pages {
		if err := w.Write(&pages[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(m); err != nil {
		t.Fatal(err)
	}
}

// Combine: the pages of the datasets in the order given (each dataset in
// its own read order), counts added, inputs in order; a page in two
// datasets and different filters are refused with nothing written, and
// the datasets given are left as they were.
func TestCombine(t *testing.T) {
	tmp := t.TempDir()
	all := samplePages(300)
	a, b, c := all[:100], all[100:250], all[250:]
	mk := func(name string, pages []series.Page, parts int, minUpd int) string {
		d := filepath.Join(tmp, name)
		writeDS(t, d, pages, parts, &Manifest{Inputs: []Input{{Name: name + ".xml.gz"}}, Filters: Filters{MinUpdates: minUpd},
			Counts: Counts{PagesRead: int64(len(pages)) + 1, PagesKept: int64(len(pages)), Skipped: map[string]int64{"namespace": 1}}})
		return d
	}
	da, db, dc := mk("a", a, 0, 0), mk("b", b, 3, 0), mk("c", c, 0, 0)
	before, err := os.ReadFile(filepath.Join(db, PartFile(1, 3)))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	m, err := Combine(context.Background(), []string{da, db, dc}, out)
	if err != nil {
		t.Fatal(err)
	}
	var want []series.Page
	for _, d := range []string{da, db, dc} {
		r, err := Open(d)
		if err != nil {
			t.Fatal(err)
		}
		p, err := r.All()
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, p...)
	}
	r, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 300 || !reflect.DeepEqual(got, want) {
		t.Fatalf("combined dataset: %d pages, want the 300 of a, b, c in order", len(got))
	}
	if m.Counts.PagesKept != 300 || m.Counts.PagesRead != 303 || m.Counts.Skipped["namespace"] != 3 || len(m.Inputs) != 3 || m.Inputs[1].Name != "b.xml.gz" {
		t.Errorf("manifest counts %+v, inputs %+v", m.Counts, m.Inputs)
	}
	if after, _ := os.ReadFile(filepath.Join(db, PartFile(1, 3))); !reflect.DeepEqual(after, before) {
		t.Error("an input dataset changed")
	}
	// a page in two datasets
	dup := mk("dup", all[240:260], 0, 0)
	_, err = Combine(context.Background(), []string{da, db, dup}, filepath.Join(tmp, "x"))
	var ce *CombineError
	if !errors.As(err, &ce) {
		t.Errorf("overlapping datasets: %v, want a CombineError", err)
	}
	// the duplicate check in several passes (7 ids per pass: 50 passes)
	rs := make([]*Reader, 0, 3)
	for _, d := range []string{da, db, dup} {
		r, err := Open(d)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	if err := checkDisjoint(context.Background(), []string{da, db, dup}, rs, 350, 7); !errors.As(err, &ce) {
		t.Errorf("duplicate check in passes: %v, want a CombineError", err)
	}
	if err := checkDisjoint(context.Background(), []string{da, db}, rs[:2], 250, 7); err != nil {
		t.Errorf("duplicate check in passes of disjoint datasets: %v", err)
	}
	// different filters
	other := mk("other", all[300-1:], 0, 5)
	if _, err := Combine(context.Background(), []string{da, other}, filepath.Join(tmp, "x")); !errors.As(err, &ce) {
		t.Errorf("different filters: %v, want a CombineError", err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "x")); !os.IsNotExist(err) {
		t.Error("a refused combine left an output")
	}
}
