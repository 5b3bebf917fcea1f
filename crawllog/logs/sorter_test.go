package logs

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Sorter gives the records of a stable sort by KeyLess (the reference:
// slices.SortStableFunc in memory), in one run and in many runs merged in
// several rounds; keep drops records and its error stops the merge; no
// temporary file is left.
func TestSorter(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	rng := rand.New(rand.NewPCG(3, 5))
	var recs []Record
	for i := range 3000 {
		k := fmt.Sprint(rng.IntN(800))
		if i%7 == 0 {
			k = "https://h.example/" + k
		}
		recs = append(recs, Record{Key: k, Val: fmt.Sprint(i), Num: float64(i) / 3, Line: int64(i + 1)})
	}
	want := slices.Clone(recs)
	slices.SortStableFunc(want, func(a, b Record) int {
		switch {
		case KeyLess(a.Key, b.Key):
			return -1
		case KeyLess(b.Key, a.Key):
			return 1
		}
		return 0
	})
	for _, c := range []struct{ chunkMem, fanIn int }{{0, 0}, {900, 2}, {5000, 3}} {
		s := NewSorter("test records")
		if c.chunkMem > 0 {
			s.chunkMem, s.fanIn = c.chunkMem, c.fanIn
		}
		for _, r := range recs {
			if err := s.Add(r.Key, r.Val, r.Num, r.Line); err != nil {
				t.Fatal(err)
			}
		}
		kept := 0
		out, err := s.Sorted(context.Background(), func(r *Record) (bool, error) {
			kept++
			return r.Line%2 == 0, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		var got []Record
		for {
			r, err := out.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, r)
		}
		out.Close()
		var even []Record
		for _, r := range want {
			if r.Line%2 == 0 {
				even = append(even, r)
			}
		}
		if kept != len(recs) || !slices.Equal(got, even) {
			t.Errorf("chunk %d, fan-in %d: %d records seen, %d kept; want %d, %d in order", c.chunkMem, c.fanIn, kept, len(got), len(recs), len(even))
		}
		// an error of keep stops the merge and is returned
		s = NewSorter("test records")
		s.Add("a", "", 0, 1)
		stop := fmt.Errorf("stop")
		if _, err := s.Sorted(context.Background(), func(*Record) (bool, error) { return false, stop }); err != stop {
			t.Errorf("keep's error: %v", err)
		}
		s.Close()
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "revisit-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
