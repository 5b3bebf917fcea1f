package crawllog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/transform"
)

// writeTraceLog writes a change-bit trace of urls URLs: URL k has
// 3 + (k mod 5) visits (ties in the --top ranking), random delays and
// changes, plus a URL with 1 visit (skipped: fewer than 2) and one where
// every visit saw a change (verdict undecided).
func writeTraceLog(t *testing.T, path string, urls int, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for k := range urls {
		fmt.Fprintf(&b, "https://example.org/u%03d\t[", k)
		for v := range 3 + k%5 {
			if v > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "[%g,%d]", 0.05+r.Float64(), r.IntN(2))
		}
		b.WriteString("]\n")
	}
	b.WriteString("https://example.org/once\t[[0.5,1]]\n")
	b.WriteString("https://example.org/always\t[[0.5,1],[0.5,1],[0.5,1],[0.5,1]]\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// By hash, each shard estimates exactly the URLs whose page id hashes to
// it; by byte range, the shards' rows one after the other are the
// unsharded rows. Merging N = 1, 2 and 5 shards (some owning no URL)
// gives the files of the unsharded estimate: estimates.parquet, tables
// and figures byte for byte, estimate.json but for its times; with full
// and compact curves.
func TestMergeEstimatesEqualsUnsharded(t *testing.T) {
	for _, c := range []estimates.Curves{estimates.CurvesFull, estimates.CurvesCompact} {
		for _, by := range []string{ShardByHash, ShardByAuto} {
			t.Run(string(c)+"/"+by, func(t *testing.T) { testMergeEstimatesEqualsUnsharded(t, c, by) })
		}
	}
}

func testMergeEstimatesEqualsUnsharded(t *testing.T, curves estimates.Curves, by string) {
	ctx := context.Background()
	dir := t.TempDir()
	log := filepath.Join(dir, "trace.tsv")
	writeTraceLog(t, log, 9, 1)
	// A fine grid (300 bins), so that compact curves are shorter than the
	// full ones: the per-URL default grid of these few crawls is coarser
	// than estimates.Knots and would be kept whole.
	opt := EstimateOptions{Inputs: []string{log}, Unit: transform.Day, H: 0.01, XMax: 3, Top: 4, Recover: true, Read: logs.Options{Format: "trace"}, Curves: curves}
	opt.Out = filepath.Join(dir, "full")
	full, err := EstimateLogs(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	if full.Estimated != 10 || full.Skipped["fewer_than_2_visits"] != 1 || full.Verdicts["undecided"] < 1 {
		t.Fatalf("unsharded: %d estimated, skipped %v, verdicts %v; want 10, 1 with fewer than 2 visits, 1+ undecided", full.Estimated, full.Skipped, full.Verdicts)
	}
	want := stagetest.ReadTree(t, opt.Out)
	var wantIDs []int64 // page ids of the unsharded rows, in order
	compact := 0
	if err := estimates.Each(opt.Out, func(e *estimator.Estimate) error {
		wantIDs = append(wantIDs, e.PageID)
		if e.Compact {
			compact++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if (compact > 0) != (curves == estimates.CurvesCompact) {
		t.Fatalf("--curves %s: %d compact rows", curves, compact)
	}
	empty := 0
	for _, n := range []int{1, 2, 5} {
		var dirs []string
		var concat []int64 // the rows of the shards, one after the other
		for i := range n {
			o := opt
			o.Shard, o.ShardBy = shard.Spec{I: i, N: n}, by
			o.Out = filepath.Join(dir, fmt.Sprintf("s%d-%d-%s", n, i, by))
			m, err := EstimateLogs(ctx, o)
			if err != nil {
				t.Fatalf("shard %d/%d: %v", i, n, err)
			}
			// the shard's rows: the unsharded rows of the URLs it owns, in order
			var got, own []int64
			if err := estimates.Each(o.Out, func(e *estimator.Estimate) error { got = append(got, e.PageID); return nil }); err != nil {
				t.Fatal(err)
			}
			info, err := ReadEstimateShardInfo(o.Out)
			if err != nil {
				t.Fatal(err)
			}
			if by == ShardByHash {
				for _, id := range wantIDs {
					if shard.Of(id, n) == i {
						own = append(own, id)
					}
				}
				if !reflect.DeepEqual(got, own) || info.Scheme != ShardByHash || info.Range != nil {
					t.Fatalf("shard %d/%d: rows of pages %v, want %v; scheme %q", i, n, got, own, info.Scheme)
				}
			} else if info.Scheme != ShardByRange || info.Range == nil {
				t.Fatalf("shard %d/%d of an uncompressed trace: scheme %q, range %v", i, n, info.Scheme, info.Range)
			}
			concat = append(concat, got...)
			if m.Estimated == 0 {
				empty++
			}
			if m.Shard != o.Shard.String() {
				t.Errorf("shard %d/%d: estimate.json says shard %q", i, n, m.Shard)
			}
			dirs = append(dirs, o.Out)
		}
		if by != ShardByHash && !reflect.DeepEqual(concat, wantIDs) {
			t.Fatalf("N = %d: the shards' rows one after the other %v, want %v", n, concat, wantIDs)
		}
		out := filepath.Join(dir, fmt.Sprintf("m%d-%s", n, by))
		// shards in any order
		for i, j := 0, len(dirs)-1; i < j; i, j = i+1, j-1 {
			dirs[i], dirs[j] = dirs[j], dirs[i]
		}
		if _, err := MergeEstimates(ctx, dirs, out); err != nil {
			t.Fatalf("N = %d: %v", n, err)
		}
		got := stagetest.ReadTree(t, out)
		if len(got) != len(want) {
			t.Errorf("N = %d: %d files, want %d", n, len(got), len(want))
		}
		for name, b := range want {
			if name == EstimateMetaFile {
				if g, w := stagetest.JSONNoTimes(t, got[name]), stagetest.JSONNoTimes(t, b); !reflect.DeepEqual(g, w) {
					t.Errorf("N = %d: estimate.json\n%v\nwant\n%v", n, g, w)
				}
				continue
			}
			if name == atomicdir.EntriesFile {
				continue // it records the size of estimate.json, whose times vary; the files are compared here one by one
			}
			if !bytes.Equal(got[name], b) {
				t.Errorf("N = %d: %s differs from the unsharded one", n, name)
			}
		}
	}
	if empty == 0 {
		t.Log("no shard without URLs (the case is not exercised)")
	}
}

// Sets of shard outputs that are not the shards of one estimate are
// refused as a *MergeError (bad usage), before anything is written.
func TestMergeEstimatesRefuses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	log, other := filepath.Join(dir, "trace.tsv"), filepath.Join(dir, "other.tsv")
	writeTraceLog(t, log, 9, 1)
	writeTraceLog(t, other, 9, 2)
	base := EstimateOptions{Inputs: []string{log}, Unit: transform.Day, Top: 4, Read: logs.Options{Format: "trace"}}
	run := func(name string, sp shard.Spec, edit func(*EstimateOptions)) string {
		t.Helper()
		o := base
		o.Shard, o.Out = sp, filepath.Join(dir, name)
		if edit != nil {
			edit(&o)
		}
		if _, err := EstimateLogs(ctx, o); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return o.Out
	}
	s0, s1, s2 := run("s0", shard.Spec{I: 0, N: 3}, nil), run("s1", shard.Spec{I: 1, N: 3}, nil), run("s2", shard.Spec{I: 2, N: 3}, nil)
	half := run("h1", shard.Spec{I: 1, N: 2}, nil)
	top5 := run("top5", shard.Spec{I: 1, N: 3}, func(o *EstimateOptions) { o.Top = 5 })
	hour := run("hour", shard.Spec{I: 1, N: 3}, func(o *EstimateOptions) { o.Unit = transform.Hour })
	otherIn := run("otherin", shard.Spec{I: 1, N: 3}, func(o *EstimateOptions) { o.Inputs = []string{other} })
	unsharded := run("full", shard.Spec{}, nil)
	for _, c := range []struct {
		name string
		dirs []string
		want string
	}{
		{"missing", []string{s0, s2}, "shard 1/3 is missing"},
		{"twice", []string{s0, s1, s1, s2}, "given twice"},
		{"splits", []string{s0, half, s2}, "not shards of one split"},
		{"top", []string{s0, top5, s2}, "options"},
		{"unit", []string{s0, hour, s2}, "unit"},
		{"inputs", []string{s0, otherIn, s2}, "inputs differ"},
		{"unsharded", []string{s0, s1, s2, unsharded}, "not the estimate of a shard"},
		{"not estimate", []string{s0, s1, dir}, "not an estimate output"},
		{"into a shard", []string{s0, s1, s2}, "is one of the shards"},
	} {
		out := filepath.Join(dir, "out-"+strings.ReplaceAll(c.name, " ", "-"))
		if c.name == "into a shard" {
			out = s1
		}
		_, err := MergeEstimates(ctx, c.dirs, out)
		var me *MergeError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a MergeError with %q", c.name, err, c.want)
		}
		if c.name != "into a shard" {
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s: output written", c.name)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(s1, EstimateShardFile)); err != nil {
		t.Errorf("shard 1 after a merge into it was refused: %v", err)
	}
}
