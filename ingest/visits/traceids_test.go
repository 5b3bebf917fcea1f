package visits

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// randomIDs are n ids for case k: increasing numbers (k%3 = 0), then,
// from the middle on, numbers in any order (1) or any bytes (2).
func randomIDs(r *rand.Rand, k, n int) []string {
	ids := make([]string, n)
	next := int64(0)
	for i := range ids {
		switch {
		case k%3 == 0 || i < n/2: // increasing numbers: 9 < 10 < 11 …
			next += 1 + r.Int64N(20)
			ids[i] = strconv.FormatInt(next, 10)
		case k%3 == 1: // numbers in any order
			ids[i] = strconv.FormatInt(r.Int64N(2*next+1), 10)
		default: // any bytes but a newline (a trace id is part of one line)
			b := make([]byte, r.IntN(4))
			for j := range b {
				b[j] = byte(r.IntN(256))
				if b[j] == '\n' {
					b[j] = 'n'
				}
			}
			ids[i] = string(b)
		}
	}
	return ids
}

// idSet holds the same set as a map, for ids in increasing numeric order,
// out of order from some point on, and strings of any length and bytes;
// it holds 2 captures per id added, whatever the id's length.
func TestIDSetAsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	for k := range 60 {
		var s idSet
		want := map[string]bool{}
		for i, id := range randomIDs(r, k, r.IntN(3000)) {
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
		if s.held() != idMapCost*int64(len(want)) {
			t.Errorf("case %d: %d ids held as %d captures, want %d", k, len(want), s.held(), idMapCost*len(want))
		}
	}
}

// traceIDs answers as a map whether the ids come in order or not, with the
// ids written out in memory or to the temporary file (a small spillAt);
// in order it holds no set (only the last id and at most spillAt bytes),
// and the file it writes is gone once created and after close.
func TestTraceIDsAsMap(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	r := rand.New(rand.NewPCG(20, 1))
	for k := range 90 {
		s := traceIDs{spillAt: []int{0, 7, 100}[k/30]}
		fell := 0
		s.fallback = func(string, string) { fell++ }
		want := map[string]bool{}
		for i, id := range randomIDs(r, k, r.IntN(3000)) {
			got, err := s.has(id)
			if err != nil {
				t.Fatal(err)
			}
			if got != want[id] {
				t.Fatalf("case %d, id %d %q: has %v, the map %v", k, i, id, got, want[id])
			}
			if !want[id] {
				if err := s.add(id); err != nil {
					t.Fatal(err)
				}
				want[id] = true
			}
			if s.ordered() && s.spillAt > 0 && len(s.pending) >= s.spillAt {
				t.Fatalf("case %d: %d bytes of ids held, spilling at %d", k, len(s.pending), s.spillAt)
			}
			if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
				t.Fatalf("case %d: %s left in TMPDIR (unlinked at once on this system)", k, ents[0].Name())
			}
		}
		if k%3 == 0 && (!s.ordered() || fell != 0) {
			t.Errorf("case %d: increasing ids held in a set", k)
		}
		if k%3 != 0 && len(want) > 10 && (s.ordered() || fell != 1) {
			t.Errorf("case %d: ids out of order, ordered %v, fallback called %d times", k, s.ordered(), fell)
		}
		// every id looked up again (which loads the set when ordered)
		for id := range want {
			if ok, err := s.has(id); !ok || err != nil {
				t.Fatalf("case %d: %q added, not found (%v)", k, id, err)
			}
		}
		s.close()
	}
}

// Looking an id up copies nothing, among the ids loaded (sorted) or
// added after (the map).
func TestIDSetNoAlloc(t *testing.T) {
	s := traceIDs{}
	for i := range 10000 {
		if err := s.add(strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.load("0"); err != nil {
		t.Fatal(err)
	}
	s.set.add("x")
	if a := testing.AllocsPerRun(100, func() { s.set.has("5000"); s.set.has("x"); s.set.has("y") }); a != 0 {
		t.Errorf("%g allocations per lookup", a)
	}
}

// A trace of ids in increasing order is read holding no id set; a
// duplicate is still refused, named by file, line and id: right after
// itself, and long after (past the ids written out) once the order
// breaks, which the log says; under --skip-bad it is counted, not read.
func TestTraceDuplicatesFarApart(t *testing.T) {
	var b strings.Builder
	n := 200000 // ids 1…n, about 1.3 MB of ids: more than spillMem
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d\t0\t[[1, 0], [1, 1]]\n", i)
	}
	ordered := b.String()
	var logs []string
	logf := func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }
	got, st, err := readAll(t, Options{Log: logf}, writeFile(t, "ok.tsv", []byte(ordered)))
	if err != nil || len(got) != n || st.URLs != int64(n) || len(logs) != 0 {
		t.Fatalf("ordered: %d URLs, %v, logs %q", len(got), err, logs)
	}
	var be *BadRecordError
	for _, c := range []struct {
		tail string
		line int64
		log  bool
	}{
		{fmt.Sprintf("%d\t0\t[[1, 0]]\n", n), int64(n + 1), false}, // the last id again
		{"17\t0\t[[1, 0]]\n", int64(n + 1), true},                  // an early one
		{fmt.Sprintf("%d\t0\t[[1, 0]]\n%d\t0\t[[1, 0]]\n", n+5, 123456), int64(n + 2), true},
	} {
		logs = nil
		p := writeFile(t, "dup.tsv", []byte(ordered+c.tail))
		_, _, err := readAll(t, Options{Log: logf}, p)
		if !errors.As(err, &be) || be.Reason != "duplicate" || be.Line != c.line || be.File != p || !strings.Contains(err.Error(), "given twice") {
			t.Errorf("tail %q: %v, want a duplicate at line %d", c.tail, err, c.line)
		}
		if c.log != (len(logs) == 1) {
			t.Errorf("tail %q: logs %q", c.tail, logs)
		}
		got, st, err := readAll(t, Options{Log: logf, SkipBad: true}, p)
		if err != nil || st.Bad != 1 || st.Inputs[0].Bad["duplicate"] != 1 || int64(len(got)) != st.URLs {
			t.Errorf("tail %q under --skip-bad: %v, %d bad", c.tail, err, st.Bad)
		}
	}
	// a CDX capture of an id a trace gave, in another input
	cdx := writeFile(t, "x.cdx", []byte("17 20200101000000 http://x/ text/html 200 D1 1\n"))
	if _, _, err := readAll(t, Options{}, writeFile(t, "ok.tsv", []byte(ordered)), cdx); !errors.As(err, &be) || be.Reason != "duplicate" || be.File != cdx || be.Line != 1 {
		t.Errorf("a CDX capture of a trace id: %v", err)
	}
}

// longIDsTrace is a trace of n lines whose ids are size bytes long and
// come in no order (a permutation of 0…n−1, zero-padded), two crawls each.
func longIDsTrace(t *testing.T, n, size int, seed uint64) string {
	t.Helper()
	var b strings.Builder
	for _, k := range rand.New(rand.NewPCG(seed, 5)).Perm(n) {
		fmt.Fprintf(&b, "%0*d\t[[1, 0], [1, 1]]\n", size, k)
	}
	return writeFile(t, "long-ids.tsv", []byte(b.String()))
}

// The trace ids held to refuse a duplicate once they come out of order count
// under --max-observations, whatever their length: 3,000 ids of 3,000 bytes (9
// MB of ids) in no order are refused under a cap of 2,000 captures, naming the
// cap, how to raise it and how to hold none (sorting the trace), and read
// under a cap of 7,000 (each id held costs at most 2 captures, not its bytes).
func TestTraceIDsOutOfOrderCapped(t *testing.T) {
	p := longIDsTrace(t, 3000, 3000, 1)
	_, _, err := readAll(t, Options{MaxObservations: 2000}, p)
	if err == nil || !strings.Contains(err.Error(), "--max-observations") || !strings.Contains(err.Error(), "2000") ||
		!strings.Contains(err.Error(), "not in increasing order") || !strings.Contains(err.Error(), "sort") || !strings.Contains(err.Error(), p) {
		t.Errorf("3,000 ids out of order under a cap of 2,000: %v, want the cap's error", err)
	}
	got, st, err := readAll(t, Options{MaxObservations: 7000}, p)
	if err != nil || len(got) != 3000 || st.URLs != 3000 {
		t.Errorf("under a cap of 7,000: %d URLs, %v", len(got), err)
	}
	// 3,000 ids in order, then one out of it: the 3,000 to load are
	// refused before they are held, at the line out of order
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&b, "%d\t[[1, 0]]\n", i)
	}
	b.WriteString("5\t[[1, 0]]\n")
	var be *BadRecordError
	if _, _, err := readAll(t, Options{MaxObservations: 2000}, writeFile(t, "late.tsv", []byte(b.String()))); err == nil || errors.As(err, &be) ||
		!strings.Contains(err.Error(), "line 3001") || !strings.Contains(err.Error(), "3,000 read") || !strings.Contains(err.Error(), "--max-observations 2000") {
		t.Errorf("3,000 ids in order then one out of it, under a cap of 2,000: %v", err)
	}
}
