package series

import "testing"

// Q read by hand from the definitions: with ages, Q_{j−1,j} = 1 iff the
// Last-Modified of visit j is after visit j−1 (an update fell between
// them), whatever the Changed bits say; without ages it is the Changed bit;
// Q_{0,1} is FirstChanged only when a previous visit exists.
func TestObservedQ(t *testing.T) {
	ages := Observed{ID: "a", Ages: true, Visits: []Visit{
		{T: 100, LastMod: 50, Changed: true},  // j = 0: no previous visit
		{T: 200, LastMod: 100},                // modified at the previous visit, not after: 0
		{T: 300, LastMod: 201},                // modified after 200: 1
		{T: 400, LastMod: 201, Changed: true}, // not modified since: 0 (the bit is ignored)
	}}
	for j, want := range []bool{false, false, true, false} {
		if got := ages.Q(j); got != want {
			t.Errorf("ages: Q(%d) = %v, want %v", j, got, want)
		}
	}
	bits := Observed{ID: "b", HasPrev: true, Prev: 10, FirstChanged: true, Visits: []Visit{
		{T: 100}, {T: 200, Changed: true}, {T: 300},
	}}
	for j, want := range []bool{true, true, false} {
		if got := bits.Q(j); got != want {
			t.Errorf("bits: Q(%d) = %v, want %v", j, got, want)
		}
	}
	bits.HasPrev = false
	if bits.Q(0) {
		t.Error("Q(0) without a previous visit: want false (a reference visit)")
	}
}

// Check refuses each inconsistency it names and accepts a consistent URL.
func TestObservedCheck(t *testing.T) {
	ok := Observed{ID: "ok", Ages: true, HasPrev: true, Prev: 5, Visits: []Visit{{T: 10, LastMod: 10}, {T: 20, LastMod: 15}}}
	if err := ok.Check(); err != nil {
		t.Fatalf("consistent: %v", err)
	}
	for name, o := range map[string]Observed{
		"no visit":        {ID: "x"},
		"same second":     {ID: "x", Visits: []Visit{{T: 10}, {T: 10}}},
		"descending":      {ID: "x", Visits: []Visit{{T: 20}, {T: 10}}},
		"lastmod after":   {ID: "x", Ages: true, Visits: []Visit{{T: 10, LastMod: 11}}},
		"prev not before": {ID: "x", HasPrev: true, Prev: 10, Visits: []Visit{{T: 10}}},
	} {
		if err := o.Check(); err == nil {
			t.Errorf("%s: Check accepted it", name)
		}
	}
}
