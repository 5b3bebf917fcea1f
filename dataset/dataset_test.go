package dataset

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

func samplePages(n int) []series.Page {
	var ps []series.Page
	for i := 0; i < n; i++ {
		u := make([]int64, 1+i%7)
		for j := range u {
			u[j] = 1_000_000_000 + int64(i)*1000 + int64(j*j+j)
		}
		ps = append(ps, series.Page{ID: int64(i + 1), Source: "test", Title: "Page " + string(rune('A'+i%26)),
			Namespace: int32(i % 3), Group: "g", Collapsed: int64(i % 2), Resolution: 1, Updates: u})
	}
	return ps
}

func TestRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := samplePages(MaxGroupPages + 10) // forces two row groups
	for i := range want {
		if err := w.Write(&want[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("dataset visible before Close")
	}
	if err := w.Close(&Manifest{Counts: Counts{PagesKept: int64(len(want))}}); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d pages, wrote %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("page %d: got %+v want %+v", i, got[i], want[i])
		}
	}
	if n, _ := r.NumPages(); n != int64(len(want)) {
		t.Fatalf("NumPages %d", n)
	}
	if r.Manifest.Counts.PagesKept != int64(len(want)) || r.Manifest.Tool != "revisit" {
		t.Fatalf("manifest %+v", r.Manifest)
	}
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o755 {
		t.Fatalf("dataset directory mode: %v %v", st.Mode(), err)
	}
	ents, _ := os.ReadDir(filepath.Dir(dir))
	if len(ents) != 1 {
		t.Fatalf("temporary files left: %v", ents)
	}
}

func TestAbortLeavesNothing(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "ds")
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := samplePages(1)[0]
	if err := w.Write(&p); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Fatalf("left behind: %v", ents)
	}
}

func TestRejectsBadPageAndForeignDir(t *testing.T) {
	parent := t.TempDir()
	w, err := Create(filepath.Join(parent, "ds"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if err := w.Write(&series.Page{ID: 1, Updates: []int64{5, 5}}); err == nil {
		t.Fatal("accepted non-increasing updates")
	}
	if err := w.Write(&series.Page{ID: 2}); err == nil {
		t.Fatal("accepted a page without updates")
	}
	foreign := filepath.Join(parent, "foreign")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("x"), 0o644)
	if _, err := Create(foreign); err == nil {
		t.Fatal("agreed to replace a directory that is not a dataset")
	}
}

func TestReplaceExisting(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	for round, n := range []int{3, 5} {
		w, err := Create(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range samplePages(n) {
			if err := w.Write(&p); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(nil); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := r.NumPages(); n != 5 {
		t.Fatalf("got %d pages after replace, want 5", n)
	}
}
