package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/replay"
)

// TestShardChild is the body of one shard process of
// TestShardsSeparateProcesses: revisit with the arguments in
// REVISIT_SHARD_ARGS.
func TestShardChild(t *testing.T) {
	args := os.Getenv("REVISIT_SHARD_ARGS")
	if args == "" {
		t.Skip("only as a child of TestShardsSeparateProcesses")
	}
	os.Exit(execute(strings.Split(args, "\x1f")))
}

// Replay and analyze run as N = 1, 3 and 7 separate processes, each
// with its shard (from --shard i/N, or from JOB_COMPLETION_INDEX or
// SLURM_ARRAY_TASK_ID with --shard N), and 'revisit merge' of their
// outputs gives the unsharded estimates.parquet and every analysis file
// byte for byte, and the same replay.json but for its times.
func TestShardsSeparateProcesses(t *testing.T) {
	if os.Getenv("REVISIT_SHARD_ARGS") != "" {
		t.Skip("in a child")
	}
	tmp := t.TempDir()
	ds := filepath.Join(tmp, "ds")
	run := func(args ...string) {
		t.Helper()
		if code := execute(append([]string{"-q"}, args...)); code != exitOK {
			t.Fatalf("revisit %v: exit %d", args, code)
		}
	}
	// 40 pages with heavy-tailed sizes (the generator's default model).
	run("generate", "--format", "parquet", "--pages", "40", "--span", "20d", "--seed", "5", "-o", ds)
	replayArgs := []string{"--top", "0", "--sampler", "exp:20x", "--sampler", "const:0.05x", "--methods", "M2,M4,M6,naive", "--seed", "3"}
	analyzeArgs := []string{"--screen-updates", "20", "--reps", "19", "--aggregate-max", "400", "--nhpp"}
	full := filepath.Join(tmp, "full")
	run(append(append([]string{"replay", ds}, replayArgs...), "-o", full)...)
	afull := filepath.Join(tmp, "afull")
	run(append(append([]string{"analyze", ds, full}, analyzeArgs...), "-o", afull)...)
	wantEst, err := os.ReadFile(filepath.Join(full, estimates.File))
	if err != nil {
		t.Fatal(err)
	}
	wantMeta := metaNoTimes(t, full)
	wantTree := stagetest.ReadTree(t, afull)

	// shards runs the N shard processes of one command, two at a time.
	for _, n := range []int{1, 3, 7} {
		rdirs := runShardProcs(t, n, func(i int) string { return filepath.Join(tmp, fmt.Sprintf("r%d-%d", n, i)) },
			append([]string{"replay", ds}, replayArgs...)...)
		merged := filepath.Join(tmp, fmt.Sprintf("r%d", n))
		run(append([]string{"merge", "replay"}, append(rdirs, "-o", merged)...)...)
		got, err := os.ReadFile(filepath.Join(merged, estimates.File))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, wantEst) {
			t.Errorf("N = %d: merged estimates.parquet differs from the unsharded one (%d vs %d bytes)", n, len(got), len(wantEst))
		}
		if m := metaNoTimes(t, merged); !reflect.DeepEqual(m, wantMeta) {
			t.Errorf("N = %d: merged replay.json differs:\n%v\nwant\n%v", n, m, wantMeta)
		}

		adirs := runShardProcs(t, n, func(i int) string { return filepath.Join(tmp, fmt.Sprintf("a%d-%d", n, i)) },
			append([]string{"analyze", ds, full}, analyzeArgs...)...)
		amerged := filepath.Join(tmp, fmt.Sprintf("a%d", n))
		run(append([]string{"merge", "analysis"}, append(adirs, "-o", amerged)...)...)
		gotTree := stagetest.ReadTree(t, amerged)
		for name, b := range wantTree {
			if !bytes.Equal(gotTree[name], b) {
				t.Errorf("N = %d: analysis file %s differs from the unsharded one", n, name)
			}
		}
		if len(gotTree) != len(wantTree) {
			t.Errorf("N = %d: %d analysis files, want %d", n, len(gotTree), len(wantTree))
		}
	}
	// Usage errors: a shard missing, an index outside 0…N−1, no index.
	if code := execute([]string{"-q", "merge", "replay", filepath.Join(tmp, "r3-0"), filepath.Join(tmp, "r3-1"), "-o", filepath.Join(tmp, "x")}); code != exitUsage {
		t.Errorf("merge of 2 of 3 shards: exit %d, want %d", code, exitUsage)
	}
	for _, sh := range []string{"3/3", "3", "0/0"} {
		if code := execute([]string{"-q", "replay", ds, "--shard", sh, "-o", filepath.Join(tmp, "y")}); code != exitUsage {
			t.Errorf("--shard %s: exit %d, want %d", sh, code, exitUsage)
		}
	}
}

func metaNoTimes(t *testing.T, dir string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, replay.MetaFile))
	if err != nil {
		t.Fatal(err)
	}
	return stagetest.JSONNoTimes(t, b)
}

// ingest --parts N writes N part files partitioned by page-id hash that
// read as one dataset: the same pages (manifest counts), and a --top
// replay (whose order depends on the pages, not on the files) gives the
// same estimates.parquet as from the one-file dataset.
func TestIngestParts(t *testing.T) {
	tmp := t.TempDir()
	in := filepath.Join(tmp, "gen.xml")
	run := func(args ...string) {
		t.Helper()
		if code := execute(append([]string{"-q"}, args...)); code != exitOK {
			t.Fatalf("revisit %v: exit %d", args, code)
		}
	}
	run("generate", "--pages", "60", "--span", "20d", "--seed", "8", "-o", in)
	one, parts := filepath.Join(tmp, "one"), filepath.Join(tmp, "parts")
	run("ingest", in, "-o", one)
	run("ingest", in, "--parts", "4", "-o", parts)
	for i := range 4 {
		if _, err := os.Stat(filepath.Join(parts, fmt.Sprintf("pages-%05d-of-00004.parquet", i))); err != nil {
			t.Fatal(err)
		}
	}
	m1, err := os.ReadFile(filepath.Join(one, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	m4, err := os.ReadFile(filepath.Join(parts, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var a, b struct {
		Counts map[string]any
		Parts  int
	}
	if json.Unmarshal(m1, &a) != nil || json.Unmarshal(m4, &b) != nil {
		t.Fatal("manifests do not parse")
	}
	if b.Parts != 4 || a.Parts != 0 || !reflect.DeepEqual(a.Counts, b.Counts) {
		t.Fatalf("parts %d/%d, counts %v vs %v", a.Parts, b.Parts, a.Counts, b.Counts)
	}
	r1, r4 := filepath.Join(tmp, "r1"), filepath.Join(tmp, "r4")
	run("replay", one, "--top", "5", "--sampler", "exp:20x", "--methods", "M2,M4", "-o", r1)
	run("replay", parts, "--top", "5", "--sampler", "exp:20x", "--methods", "M2,M4", "-o", r4)
	e1, _ := os.ReadFile(filepath.Join(r1, estimates.File))
	e4, _ := os.ReadFile(filepath.Join(r4, estimates.File))
	if len(e1) == 0 || !bytes.Equal(e1, e4) {
		t.Errorf("replay --top 5 of the parted dataset differs from the one-file dataset (%d vs %d bytes)", len(e4), len(e1))
	}
	if code := execute([]string{"-q", "ingest", in, "--parts", "-1", "-o", filepath.Join(tmp, "bad")}); code != exitUsage {
		t.Errorf("--parts -1: exit %d, want %d", code, exitUsage)
	}
}

// Ingest in parallel across processes: each input ingested on its own,
// then 'merge dataset', gives the pages and counts of one ingest of all
// inputs, and the same --top replay.
func TestMergeDataset(t *testing.T) {
	tmp := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		if code := execute(append([]string{"-q"}, args...)); code != exitOK {
			t.Fatalf("revisit %v: exit %d", args, code)
		}
	}
	var ins []string
	for f := range 3 {
		var b strings.Builder
		b.WriteString("id,time\n")
		for obj := range 5 {
			for k := range 10 + 7*obj + f {
				fmt.Fprintf(&b, "file%d-obj%d,%d\n", f, obj, 1600000000+k*(3000+obj*977+f*131)+k*k*17)
			}
		}
		in := filepath.Join(tmp, fmt.Sprintf("log%d.csv", f))
		if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in)
	}
	flags := []string{"--id", "id", "--time", "time", "--time-layout", "epoch"}
	all := filepath.Join(tmp, "all")
	run(append(append([]string{"ingest"}, ins...), append(flags, "-o", all)...)...)
	var parts []string
	for f, in := range ins {
		d := filepath.Join(tmp, fmt.Sprintf("ds%d", f))
		run(append([]string{"ingest", in}, append(flags, "-o", d)...)...)
		parts = append(parts, d)
	}
	comb := filepath.Join(tmp, "comb")
	run(append([]string{"merge", "dataset"}, append(parts, "-o", comb)...)...)
	counts := func(dir string) any {
		b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m struct{ Counts any }
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m.Counts
	}
	if a, c := counts(all), counts(comb); !reflect.DeepEqual(a, c) {
		t.Errorf("counts of the combined dataset %v, of one ingest %v", c, a)
	}
	r1, r2 := filepath.Join(tmp, "r1"), filepath.Join(tmp, "r2")
	run("replay", all, "--top", "4", "--sampler", "exp:20x", "--methods", "M2,M4", "-o", r1)
	run("replay", comb, "--top", "4", "--sampler", "exp:20x", "--methods", "M2,M4", "-o", r2)
	e1, _ := os.ReadFile(filepath.Join(r1, estimates.File))
	e2, _ := os.ReadFile(filepath.Join(r2, estimates.File))
	if len(e1) == 0 || !bytes.Equal(e1, e2) {
		t.Errorf("replay of the combined dataset differs from the one-ingest dataset (%d vs %d bytes)", len(e2), len(e1))
	}
	if code := execute([]string{"-q", "merge", "dataset", parts[0], parts[0], "-o", filepath.Join(tmp, "bad")}); code != exitUsage {
		t.Errorf("merge of a dataset with itself: exit %d, want %d", code, exitUsage)
	}
	// -o naming one of the inputs (a typo: out/replay-* -o out/replay-0)
	// would replace that shard by the merge: refused, the input untouched.
	before, _ := os.ReadFile(filepath.Join(parts[1], "manifest.json"))
	same := "./" + filepath.Base(parts[1]) + "/" // the same directory, spelled otherwise
	t.Chdir(tmp)
	if code := execute(append([]string{"-q", "merge", "dataset"}, append(parts, "-o", same)...)); code != exitUsage {
		t.Errorf("merge with -o one of its inputs: exit %d, want %d", code, exitUsage)
	}
	if after, _ := os.ReadFile(filepath.Join(parts[1], "manifest.json")); !bytes.Equal(before, after) {
		t.Errorf("merge with -o one of its inputs replaced that input")
	}
}
