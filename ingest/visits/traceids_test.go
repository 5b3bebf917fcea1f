package visits

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// traceIDs holds the same set as a map, for ids in increasing numeric
// order (packed), out of order from some point on (a map after), and
// strings of any length and bytes.
func TestTraceIDsAsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	for k := range 60 {
		var s traceIDs
		want := map[string]bool{}
		n := r.IntN(3000)
		next := int64(0)
		for i := range n {
			var id string
			switch {
			case k%3 == 0 || i < n/2: // increasing numbers: 9 < 10 < 11 …
				next += 1 + r.Int64N(20)
				id = strconv.FormatInt(next, 10)
			case k%3 == 1: // numbers in any order
				id = strconv.FormatInt(r.Int64N(2*next+1), 10)
			default: // any bytes
				b := make([]byte, r.IntN(4))
				for j := range b {
					b[j] = byte(r.IntN(256))
				}
				id = string(b)
			}
			if got := s.has(id); got != want[id] {
				t.Fatalf("case %d, id %d %q: has %v, the map %v", k, i, id, got, want[id])
			}
			if !want[id] {
				s.add(id)
				want[id] = true
			}
		}
		for id := range want {
			if !s.has(id) {
				t.Fatalf("case %d: %q added, not found", k, id)
			}
		}
		if k%3 == 0 && s.more != nil {
			t.Errorf("case %d: increasing ids put in the map", k)
		}
	}
}

// Looking an id up in the packed run copies nothing.
func TestTraceIDsNoAlloc(t *testing.T) {
	var s traceIDs
	for i := range 10000 {
		s.add(strconv.Itoa(i))
	}
	if a := testing.AllocsPerRun(100, func() { s.has("5000"); s.has("x") }); a != 0 {
		t.Errorf("%g allocations per lookup", a)
	}
}
