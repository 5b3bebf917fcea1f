package shard

import "testing"

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		env  map[string]string
		want Spec
		bad  bool
	}{
		{in: "", want: Spec{}},
		{in: "0/1", want: Spec{0, 1}},
		{in: "2/7", want: Spec{2, 7}},
		{in: "7/7", bad: true},
		{in: "-1/7", bad: true},
		{in: "1/0", bad: true},
		{in: "a/3", bad: true},
		{in: "3", bad: true}, // no index in the environment
		{in: "3", env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, want: Spec{2, 3}},
		{in: "3", env: map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, want: Spec{1, 3}},
		{in: "3", env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1"}, want: Spec{2, 3}},
		{in: "3", env: map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "0"}, want: Spec{0, 3}},
		{in: "3", env: map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "3"}, bad: true},
		{in: "3", env: map[string]string{"JOB_COMPLETION_INDEX": "1", "SLURM_ARRAY_TASK_ID": "2"}, bad: true},
		{in: "3", env: map[string]string{"JOB_COMPLETION_INDEX": "1", "SLURM_ARRAY_TASK_ID": "1"}, want: Spec{1, 3}},
		{in: "3", env: map[string]string{"JOB_COMPLETION_INDEX": "x"}, bad: true},
	} {
		got, err := Parse(c.in, env(c.env))
		if c.bad {
			if err == nil {
				t.Errorf("Parse(%q, %v) = %v, want an error", c.in, c.env, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Parse(%q, %v) = %v, %v; want %v", c.in, c.env, got, err, c.want)
		}
	}
}

// Hash must be SplitMix64's output for the state 0 (the first value of
// the reference generator seeded with 0 is 0xe220a8397b1dcdaf), and every
// page must be owned by exactly one shard.
func TestHashOwns(t *testing.T) {
	if h := Hash(0); h != 0xe220a8397b1dcdaf {
		t.Fatalf("Hash(0) = %#x, want SplitMix64's first output 0xe220a8397b1dcdaf", h)
	}
	for _, n := range []int{1, 3, 7} {
		counts := make([]int, n)
		for id := int64(-500); id < 20000; id++ {
			owners := 0
			for i := range n {
				if (Spec{i, n}).Owns(id) {
					owners++
					counts[i]++
				}
			}
			if owners != 1 {
				t.Fatalf("page %d has %d owners among %d shards", id, owners, n)
			}
		}
		for i, c := range counts { // 20,500 pages: each shard within 10 % of its share
			if share := 20500.0 / float64(n); float64(c) < 0.9*share || float64(c) > 1.1*share {
				t.Errorf("N=%d shard %d has %d pages, want about %.0f", n, i, c, share)
			}
		}
	}
	if !(Spec{}).Owns(42) {
		t.Fatal("the zero Spec must own every page")
	}
}
