package shard

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func ids(specs ...string) []Record {
	var out []Record
	for _, s := range specs {
		sp, err := Parse(s, nil)
		if err != nil {
			panic(err)
		}
		out = append(out, sp.Record())
	}
	return out
}

// Order returns, for shard i = 0…N−1, the position in dirs of shard i,
// and refuses every set that is not the shards of one split, each once,
// as a *MergeError naming the directories concerned. The expected
// positions are read off the inputs by hand.
func TestOrder(t *testing.T) {
	ok := func(int) error { return nil }
	for _, c := range []struct {
		name  string
		specs []string
		same  func(int) error
		want  []int
		err   string
	}{
		{"in order", []string{"0/3", "1/3", "2/3"}, ok, []int{0, 1, 2}, ""},
		{"shuffled", []string{"2/3", "0/3", "1/3"}, ok, []int{1, 2, 0}, ""},
		{"one", []string{"0/1"}, ok, []int{0}, ""},
		{"missing", []string{"0/3", "2/3"}, ok, nil, "merge: shard 1/3 is missing (2 of 3 given)"},
		{"twice", []string{"0/2", "1/2", "1/2"}, ok, nil, "merge: shard 1/2 given twice (d1 and d2)"},
		{"two splits", []string{"0/2", "1/3"}, ok, nil, "merge: d0 is shard 0/2, d1 is shard 1/3: not shards of one split"},
		{"not the same run", []string{"0/2", "1/2"}, func(k int) error {
			if k == 1 {
				return errors.New("seed 1 ≠ 2")
			}
			return nil
		}, nil, "merge: d0 and d1 are not shards of one replay: seed 1 ≠ 2"},
	} {
		dirs := make([]string, len(c.specs))
		for k := range dirs {
			dirs[k] = "d" + string(rune('0'+k))
		}
		got, err := Order(dirs, ids(c.specs...), "replay", c.same)
		if c.err == "" {
			if err != nil || !slices.Equal(got, c.want) {
				t.Errorf("%s: Order = %v, %v; want %v", c.name, got, err, c.want)
			}
			continue
		}
		var me *MergeError
		if !errors.As(err, &me) || err.Error() != c.err {
			t.Errorf("%s: Order error %v, want the MergeError %q", c.name, err, c.err)
		}
	}
	if _, err := Order([]string{"d0"}, []Record{{Shard: "0/0"}}, "replay", ok); err == nil || !strings.Contains(err.Error(), "N must be ≥ 1") {
		t.Errorf("N = 0: %v, want N must be ≥ 1", err)
	}
}

// Set, fed one shard at a time, gives what Order gives on the whole list,
// and Finish without any shard is an error, not a panic.
func TestSetOneAtATime(t *testing.T) {
	var s Set
	dirs := []string{"c", "a", "b"}
	for k, id := range ids("2/3", "0/3", "1/3") {
		if err := s.Add(dirs[k], id); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Finish()
	if err != nil || !slices.Equal(got, []int{1, 2, 0}) {
		t.Errorf("Finish = %v, %v; want [1 2 0]", got, err)
	}
	var empty Set
	if _, err := empty.Finish(); err == nil {
		t.Error("Finish of no shards: no error")
	}
}

// SameDataset accepts equal identities and names both shards, both
// directories, the path and what to do otherwise.
func TestSameDataset(t *testing.T) {
	if err := SameDataset("replayed", "replay", "ds", "0/2", "a", "x", "1/2", "b", "x"); err != nil {
		t.Errorf("same identity: %v", err)
	}
	err := SameDataset("analyzed", "analyze", "ds", "0/2", "a", "0123456789abcdef", "1/2", "b", "fedcba9876543210")
	want := "merge: shard 0/2 (a) and shard 1/2 (b) were analyzed from different datasets at ds (identity 0123456789ab… ≠ fedcba987654…: the dataset was written again between them): analyze every shard from the same dataset"
	var me *MergeError
	if !errors.As(err, &me) || err.Error() != want {
		t.Errorf("different identities: %v\nwant the MergeError %q", err, want)
	}
}

// ExactFloat round-trips every float64 bit for bit, NaN and ±Inf
// included.
func TestExactFloat(t *testing.T) {
	for _, v := range []float64{0, math.Copysign(0, -1), 0.1, 1.0 / 3, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN()} {
		b, err := json.Marshal(ExactFloat(v))
		if err != nil {
			t.Fatal(err)
		}
		var got ExactFloat
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if math.Float64bits(float64(got)) != math.Float64bits(v) && !(math.IsNaN(v) && math.IsNaN(float64(got))) {
			t.Errorf("%v → %s → %v", v, b, float64(got))
		}
	}
}

// A Record embedded at the head of a shard output's record writes the
// four fields that record has always begun with, in that order (the
// on-disk form of shard.json and estimate-shard.json), and reads back.
func TestRecordJSON(t *testing.T) {
	type info struct {
		Record
		Read int64 `json:"read"`
	}
	b, err := json.Marshal(info{Record: Spec{I: 1, N: 3}.Record(), Read: 5})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"tool":"revisit","shard":"1/3","i":1,"n":3,"read":5}`; string(b) != want {
		t.Errorf("%s, want %s", b, want)
	}
	var got info
	if err := json.Unmarshal(b, &got); err != nil || got.Record != (Record{"revisit", "1/3", 1, 3}) || got.Read != 5 {
		t.Errorf("read back %+v, %v", got, err)
	}
}
