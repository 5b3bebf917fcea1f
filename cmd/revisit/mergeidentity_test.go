package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Shards replayed (or analyzed) from two different datasets stored one
// after the other at the same path are not one replay: merge refuses them
// with exit 2 and names both shards, instead of merging the pages of two
// corpora. Shards of the one dataset now at the path still merge.
func TestMergeRefusesShardsOfAnotherDatasetAtTheSamePath(t *testing.T) {
	dir := t.TempDir()
	ds := filepath.Join(dir, "ds")
	gen := func(seed int) {
		t.Helper()
		if code, msg := stderrOf(t, "-q", "generate", "--format", "parquet", "--pages", "12", "--span", "60d", "--model", "exp:0.2", "--seed", fmt.Sprint(seed), "-o", ds); code != exitOK {
			t.Fatalf("generate --seed %d: exit %d: %s", seed, code, msg)
		}
	}
	run := func(args ...string) {
		t.Helper()
		if code, msg := stderrOf(t, append([]string{"-q"}, args...)...); code != exitOK {
			t.Fatalf("revisit %s: exit %d: %s", strings.Join(args, " "), code, msg)
		}
	}
	p := func(s string) string { return filepath.Join(dir, s) }
	replayShard := func(i int, out string) {
		run("replay", ds, "--top", "0", "--shard", fmt.Sprintf("%d/3", i), "-o", p(out))
	}
	analyzeShard := func(i int, out string) {
		run("analyze", ds, "--reps", "19", "--screen-updates", "5", "--shard", fmt.Sprintf("%d/3", i), "-o", p(out))
	}

	gen(1) // dataset A
	replayShard(0, "a-r0")
	replayShard(1, "a-r1")
	analyzeShard(0, "a-n0")
	analyzeShard(1, "a-n1")
	gen(2) // dataset B, at the same path
	replayShard(2, "b-r2")
	analyzeShard(2, "b-n2")

	for _, c := range []struct{ kind, s0, s2 string }{{"replay", "a-r0", "b-r2"}, {"analysis", "a-n0", "b-n2"}} {
		s1 := strings.Replace(c.s0, "0", "1", 1)
		code, msg := stderrOf(t, "-q", "merge", c.kind, p(c.s0), p(s1), p(c.s2), "-o", p("merged-"+c.kind))
		if code != exitUsage {
			t.Errorf("merge %s of shards of two datasets: exit %d, want %d; stderr: %s", c.kind, code, exitUsage, msg)
		}
		if !strings.Contains(msg, "different datasets") || !strings.Contains(msg, p(c.s0)) || !strings.Contains(msg, p(c.s2)) {
			t.Errorf("merge %s: the message does not name both shards and the cause: %s", c.kind, msg)
		}
		if names := dirNames(t, dir); strings.Contains(strings.Join(names, " "), "merged-") {
			t.Errorf("merge %s wrote %v", c.kind, names)
		}
	}

	// Shards 0 and 1 of B merge with B's shard 2.
	replayShard(0, "b-r0")
	replayShard(1, "b-r1")
	run("merge", "replay", p("b-r0"), p("b-r1"), p("b-r2"), "-o", p("b-replay"))
	analyzeShard(0, "b-n0")
	analyzeShard(1, "b-n1")
	run("merge", "analysis", p("b-n0"), p("b-n1"), p("b-n2"), "-o", p("b-analysis"))
}
