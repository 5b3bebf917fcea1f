package series

import (
	"reflect"
	"testing"
)

// NormalizeInPlace gives what Normalize gives (checked here by hand on a
// small page), without allocating: the updates take the revisions' array.
func TestNormalizeInPlace(t *testing.T) {
	mk := func() RawPage {
		return RawPage{ID: 3, Source: "s", Title: "T", Resolution: 1, Revisions: []int64{30, 10, 20, 10, 30, 30, 5}}
	}
	r := mk()
	want := Page{ID: 3, Source: "s", Title: "T", Resolution: 1, Collapsed: 3, Updates: []int64{5, 10, 20, 30}}
	if got := r.Normalize(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Normalize %+v, want %+v", got, want)
	}
	r = mk()
	revs := r.Revisions
	got := r.NormalizeInPlace()
	if !reflect.DeepEqual(got, want) || r.Revisions != nil || &got.Updates[0] != &revs[0] {
		t.Fatalf("NormalizeInPlace %+v (revisions left %v), want %+v sharing the array", got, r.Revisions, want)
	}
	big := make([]int64, 1<<16)
	for i := range big {
		big[i] = int64(len(big) - i/2)
	}
	copied := testing.AllocsPerRun(10, func() {
		r := RawPage{Revisions: big}
		_ = r.Normalize()
	})
	inPlace := testing.AllocsPerRun(10, func() {
		r := RawPage{Revisions: big}
		p := r.NormalizeInPlace()
		_ = p
	})
	if inPlace != 0 || copied < 1 {
		t.Errorf("NormalizeInPlace: %v allocations per page, want 0 (Normalize: %v)", inPlace, copied)
	}
}
