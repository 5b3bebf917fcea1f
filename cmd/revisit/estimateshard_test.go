package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/revisit-dev/revisit/crawllog"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/stagetest"
)

// runShardProcs runs revisit args as n separate processes (two at a
// time), shard i writing to out(i), with the index from --shard i/N, from
// JOB_COMPLETION_INDEX or from SLURM_ARRAY_TASK_ID (--array=1-N) in turn.
func runShardProcs(t *testing.T, n int, out func(i int) string, args ...string) []string {
	t.Helper()
	dirs := make([]string, n)
	errs := make([]string, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i := range n {
		dirs[i] = out(i)
		a := append(append([]string{"-q"}, args...), "-o", dirs[i])
		env := os.Environ()
		switch i % 3 {
		case 0:
			a = append(a, "--shard", fmt.Sprintf("%d/%d", i, n))
		case 1:
			a = append(a, "--shard", fmt.Sprint(n))
			env = append(env, fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))
		case 2:
			a = append(a, "--shard", fmt.Sprint(n))
			env = append(env, fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i+1), "SLURM_ARRAY_TASK_MIN=1")
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestShardChild$", "-test.count=1")
		cmd.Env = append(env, "REVISIT_SHARD_ARGS="+strings.Join(a, "\x1f"))
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if b, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Sprintf("shard %d/%d: %v\n%s", i, n, err, b)
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Fatal(e)
		}
	}
	return dirs
}

// estimate of a CDX log (constant delays, 404 captures the reader skips)
// and of a change-bit trace, each as N = 1, 3 and 7 separate shard
// processes, then 'merge estimate': estimates.parquet, the tables and the
// figures are those of the unsharded estimate byte for byte, estimate.json
// the same but for its times. Bad shard sets are exit 2.
func TestEstimateShardsSeparateProcesses(t *testing.T) {
	if os.Getenv("REVISIT_SHARD_ARGS") != "" {
		t.Skip("in a child")
	}
	tmp := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		if code := execute(append([]string{"-q"}, args...)); code != exitOK {
			t.Fatalf("revisit %v: exit %d", args, code)
		}
	}
	ds := filepath.Join(tmp, "ds")
	run("generate", "--format", "parquet", "--pages", "24", "--span", "30d", "--seed", "4", "-o", ds)
	rc, rt := filepath.Join(tmp, "rc"), filepath.Join(tmp, "rt")
	run("replay", ds, "--top", "0", "--sampler", "const:0.05x", "--methods", "M2", "--write-observations", "cdx", "-o", rc)
	run("replay", ds, "--top", "0", "--sampler", "exp:20x", "--methods", "M2", "--write-observations", "trace", "-o", rt)
	logs := map[string]string{
		"cdx":   filepath.Join(rc, "observations", "const_0.05x.cdx"),
		"trace": filepath.Join(rt, "observations", "exp_20x.trace.tsv"),
	}
	// a bad line, counted and skipped (--skip-bad) by every shard alike
	f, err := os.OpenFile(logs["cdx"], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("invalid,revisit)/page/x 2020-01 https://revisit.invalid/page/x text/html 200 A 1\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	var some []string // shards of the cdx run, for the refusals
	for _, format := range []string{"cdx", "trace"} {
		args := []string{"estimate", logs[format], "--top", "5", "--unit", "d", "--skip-bad"}
		full := filepath.Join(tmp, "full-"+format)
		run(append(args, "-o", full)...)
		want := stagetest.ReadTree(t, full)
		if len(want[estimates.File]) == 0 || len(want) < 4 {
			t.Fatalf("%s: unsharded output has %d files", format, len(want))
		}
		var meta struct {
			Estimated int              `json:"estimated"`
			Constant  int              `json:"constant"`
			Skipped   map[string]int64 `json:"skipped"`
			Bad       int64            `json:"bad"`
		}
		if err := json.Unmarshal(want[crawllog.EstimateMetaFile], &meta); err != nil {
			t.Fatal(err)
		}
		// 23 of the 24 pages have 2 updates or more (replay's summary)
		if meta.Estimated != 23 || (format == "cdx") != (meta.Constant == 23) || (format == "cdx") != (meta.Bad == 1) {
			t.Fatalf("%s: %d URLs estimated (%d constant), %d bad lines; want 23 (all constant for cdx), 1 bad line in the cdx", format, meta.Estimated, meta.Constant, meta.Bad)
		}
		for _, n := range []int{1, 3, 7} {
			dirs := runShardProcs(t, n, func(i int) string { return filepath.Join(tmp, fmt.Sprintf("%s-%d-%d", format, n, i)) }, args...)
			if format == "cdx" && n == 3 {
				some = dirs
			}
			merged := filepath.Join(tmp, fmt.Sprintf("%s-%d", format, n))
			run(append([]string{"merge", "estimate"}, append(dirs, "-o", merged)...)...)
			got := stagetest.ReadTree(t, merged)
			if len(got) != len(want) {
				t.Errorf("%s N = %d: %d files, want %d", format, n, len(got), len(want))
			}
			for name, b := range want {
				if name == crawllog.EstimateMetaFile {
					if g, w := stagetest.JSONNoTimes(t, got[name]), stagetest.JSONNoTimes(t, b); !reflect.DeepEqual(g, w) {
						t.Errorf("%s N = %d: estimate.json\n%v\nwant\n%v", format, n, g, w)
					}
					continue
				}
				if name == atomicdir.EntriesFile {
					continue // it records the size of estimate.json, whose times vary; the files are compared here one by one
				}
				if !bytes.Equal(got[name], b) {
					t.Errorf("%s N = %d: %s differs from the unsharded one (%d vs %d bytes)", format, n, name, len(got[name]), len(b))
				}
			}
		}
	}
	traceShard := filepath.Join(tmp, "trace-3-1")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"a shard missing", []string{"merge", "estimate", some[0], some[2]}},
		{"a shard twice", []string{"merge", "estimate", some[0], some[1], some[1], some[2]}},
		{"shards of other inputs", []string{"merge", "estimate", some[0], traceShard, some[2]}},
		{"an unsharded output", []string{"merge", "estimate", some[0], some[1], some[2], filepath.Join(tmp, "full-cdx")}},
		{"--shard 3 without an index", []string{"estimate", logs["cdx"], "--shard", "3"}},
		{"--shard 3/3", []string{"estimate", logs["cdx"], "--shard", "3/3"}},
		{"into a user's directory", []string{"merge", "estimate", some[0], some[1], some[2]}},
	} {
		out := filepath.Join(tmp, "bad")
		if strings.HasPrefix(c.name, "into") {
			out = filepath.Join(tmp, "mine")
			if err := os.MkdirAll(out, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		env := []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "AWS_BATCH_JOB_ARRAY_INDEX"}
		for _, e := range env {
			t.Setenv(e, "")
		}
		if code := execute(append(append([]string{"-q"}, c.args...), "-o", out)); code != exitUsage {
			t.Errorf("%s: exit %d, want %d", c.name, code, exitUsage)
		}
		if strings.HasPrefix(c.name, "into") {
			if b, err := os.ReadFile(filepath.Join(out, "notes.txt")); err != nil || string(b) != "mine" {
				t.Errorf("%s: the user's file: %q, %v", c.name, b, err)
			}
		} else if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: output written", c.name)
		}
	}
}
