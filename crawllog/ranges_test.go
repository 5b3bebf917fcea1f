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

	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/ingest/visits"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/transform"
)

// writeBingTrace writes a trace shaped like Bing's urlid_offset_history.txt
// (header, URL_ID in increasing order, first crawl offset, [[days,
// changed], …]) of urls URLs with 2 to 30 crawls each.
func writeBingTrace(t *testing.T, path string, urls int, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 11))
	var b strings.Builder
	b.WriteString("URL_ID\tFirst_crawl_time_offset\tCrawl_and_change_history\n")
	for u := range urls {
		fmt.Fprintf(&b, "%d\t%.6f\t[", 100+3*u, r.Float64()*5)
		for j := range 1 + r.IntN(29) {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "[%.6f, %d]", 1+(r.Float64()-0.5)*0.02, r.IntN(2))
		}
		b.WriteString("]\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameAsUnsharded estimates opt as N = 1…5 shards (by byte range: the
// inputs allow it) and checks that each merge gives the unsharded files:
// estimates.parquet, urls.csv, tables and figures byte for byte,
// estimate.json but for its times.
func sameAsUnsharded(t *testing.T, opt EstimateOptions, ns []int) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	if why, err := visits.PlanRanges(opt.Inputs, opt.Read); why != "" || err != nil {
		t.Fatalf("not by byte range: %q, %v", why, err)
	}
	full := opt
	full.Out = filepath.Join(dir, "full")
	if _, err := EstimateLogs(ctx, full); err != nil {
		t.Fatal(err)
	}
	want := stagetest.ReadTree(t, full.Out)
	for _, n := range ns {
		var dirs []string
		for i := range n {
			o := opt
			o.Shard, o.Out = shard.Spec{I: i, N: n}, filepath.Join(dir, fmt.Sprintf("s%d-%d", n, i))
			if _, err := EstimateLogs(ctx, o); err != nil {
				t.Fatalf("shard %d/%d: %v", i, n, err)
			}
			info, err := ReadEstimateShardInfo(o.Out)
			if err != nil || info.Scheme != ShardByRange {
				t.Fatalf("shard %d/%d: scheme %q, %v", i, n, info.Scheme, err)
			}
			dirs = append(dirs, o.Out)
		}
		out := filepath.Join(dir, fmt.Sprintf("m%d", n))
		if _, err := MergeEstimates(ctx, dirs, out); err != nil {
			t.Fatalf("N = %d: %v", n, err)
		}
		got := stagetest.ReadTree(t, out)
		if len(got) != len(want) {
			t.Errorf("N = %d: %d files, want %d", n, len(got), len(want))
		}
		for name, b := range want {
			switch name {
			case EstimateMetaFile:
				if g, w := stagetest.JSONNoTimes(t, got[name]), stagetest.JSONNoTimes(t, b); !reflect.DeepEqual(g, w) {
					t.Errorf("N = %d: estimate.json\n%v\nwant\n%v", n, g, w)
				}
			case atomicdir.EntriesFile: // records the size of estimate.json, whose times vary
			default:
				if !bytes.Equal(got[name], b) {
					t.Errorf("N = %d: %s differs from the unsharded one", n, name)
				}
			}
		}
	}
}

// Shards of byte ranges merge to the unsharded estimate: a Bing-shaped
// trace (cuts inside lines), and the real pywb iana.cdx and iana.cdxj read
// with --sorted (cuts inside runs of one urlkey), N = 1…5.
func TestRangeShardsMergeToUnsharded(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "urlid_offset_history.txt")
	writeBingTrace(t, trace, 300, 1)
	base := EstimateOptions{Unit: transform.Day, Top: 5, Methods: []string{"naive", "poisson-mle", "M6"}, Curves: estimates.CurvesCompact}
	t.Run("trace", func(t *testing.T) {
		o := base
		o.Inputs, o.Read = []string{trace}, visits.Options{Format: visits.Trace}
		sameAsUnsharded(t, o, []int{1, 2, 3, 4, 5})
	})
	for _, name := range []string{"iana.cdx", "iana.cdxj"} {
		t.Run(name, func(t *testing.T) {
			p := realdata.Path(t, filepath.Join("crawl", "webrecorder__pywb", name))
			o := base
			o.Inputs, o.Read, o.Unit = []string{p}, visits.Options{Sorted: true}, transform.Hour
			sameAsUnsharded(t, o, []int{1, 2, 3, 4, 5, 9})
		})
	}
}

// Merges the shards of byte ranges refuse: shards of both schemes mixed;
// a trace id read by two shards (the trace's ids out of order); an index
// given as sorted whose keys go down from one shard to the next; ranges
// that do not tile the inputs. An unsharded read of the same trace names
// the duplicate by file and line.
func TestRangeShardsRefused(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.tsv")
	writeBingTrace(t, trace, 60, 2)
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	dup := filepath.Join(dir, "dup.tsv") // line 3's URL again at the end
	if err := os.WriteFile(dup, []byte(strings.Join(lines, "")+"\n"+lines[2]), 0o644); err != nil {
		t.Fatal(err)
	}
	cdx := filepath.Join(dir, "down.cdx") // sorted halves, the second before the first
	var c1, c2 strings.Builder
	for u := range 20 {
		w := &c1
		if u < 10 {
			w = &c2
		}
		for k := range 3 {
			fmt.Fprintf(w, "com,example)/p%03d 2020%02d01000000 http://example.com/p%03d text/html 200 D%d 100\n", u, k+1, u, k)
		}
	}
	if err := os.WriteFile(cdx, []byte(c1.String()+c2.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(name string, in string, sp shard.Spec, by string, read visits.Options) string {
		t.Helper()
		o := EstimateOptions{Inputs: []string{in}, Unit: transform.Day, Methods: []string{"naive"}, Read: read, Shard: sp, ShardBy: by, Out: filepath.Join(dir, name)}
		if _, err := EstimateLogs(ctx, o); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return o.Out
	}
	tr := visits.Options{Format: visits.Trace}
	h0, h1 := run("h0", trace, shard.Spec{I: 0, N: 2}, ShardByHash, tr), run("h1", trace, shard.Spec{I: 1, N: 2}, ShardByHash, tr)
	r0, r1 := run("r0", trace, shard.Spec{I: 0, N: 2}, "", tr), run("r1", trace, shard.Spec{I: 1, N: 2}, "", tr)
	d0, d1 := run("d0", dup, shard.Spec{I: 0, N: 2}, "", tr), run("d1", dup, shard.Spec{I: 1, N: 2}, "", tr)
	srt := visits.Options{Sorted: true}
	c0, c1d := run("c0", cdx, shard.Spec{I: 0, N: 2}, "", srt), run("c1", cdx, shard.Spec{I: 1, N: 2}, "", srt)
	// a shard whose range was edited: the ranges leave a gap
	info, err := ReadEstimateShardInfo(r1)
	if err != nil {
		t.Fatal(err)
	}
	info.Range.Start++
	gap := filepath.Join(dir, "gap")
	if err := os.CopyFS(gap, os.DirFS(r1)); err != nil {
		t.Fatal(err)
	}
	if err := estimates.WriteJSON(gap, EstimateShardFile, info, false); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		dirs []string
		want string
	}{
		{"hash and range", []string{h0, r1}, "by hash"},
		{"range and hash", []string{r0, h1}, "by range"},
		{"an id in two shards", []string{d0, d1}, "read by"},
		{"keys down across shards", []string{c0, c1d}, "not sorted by urlkey"},
		{"a gap", []string{r0, gap}, "do not tile"},
	} {
		_, err := MergeEstimates(ctx, c.dirs, filepath.Join(dir, "out-"+strings.ReplaceAll(c.name, " ", "-")))
		var me *MergeError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a MergeError with %q", c.name, err, c.want)
		}
	}
	for _, c := range []string{"h0", "r0"} { // the good pairs merge
		d := map[string][]string{"h0": {h0, h1}, "r0": {r0, r1}}[c]
		if _, err := MergeEstimates(ctx, d, filepath.Join(dir, "ok-"+c)); err != nil {
			t.Errorf("%s: %v", c, err)
		}
	}
	var be *visits.BadRecordError
	if _, err := EstimateLogs(ctx, EstimateOptions{Inputs: []string{dup}, Unit: transform.Day, Methods: []string{"naive"}, Read: tr, Out: filepath.Join(dir, "dup-one")}); !errors.As(err, &be) || be.Reason != "duplicate" || be.Line != int64(len(lines)+1) {
		t.Errorf("unsharded duplicate: %v", err)
	}
}

// flipChanges rewrites a trace in place as another trace of the same ids
// and size: every change bit flipped (another period of the same URLs).
func flipChanges(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer(", 0]", ", 1]", ", 1]", ", 0]").Replace(string(b))
	if len(s) != len(b) || s == string(b) {
		t.Fatal("the rewritten trace is not another one of the same size")
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A trace rewritten between the runs of two shards (the same name, size and
// ids, another period) is refused by the merge, by byte range and by hash,
// naming the input and both shards; a trace of another size too, with both
// sizes.
func TestMergeRefusesInputRewrittenBetweenShards(t *testing.T) {
	ctx := context.Background()
	for _, by := range []string{ShardByAuto, ShardByHash} {
		t.Run(by, func(t *testing.T) {
			dir := t.TempDir()
			trace := filepath.Join(dir, "t.tsv")
			writeBingTrace(t, trace, 300, 3)
			run := func(name string, i int) string {
				t.Helper()
				o := EstimateOptions{Inputs: []string{trace}, Unit: transform.Day, Methods: []string{"naive"}, Read: visits.Options{Format: visits.Trace},
					Shard: shard.Spec{I: i, N: 2}, ShardBy: by, Out: filepath.Join(dir, name)}
				if _, err := EstimateLogs(ctx, o); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return o.Out
			}
			s0, s1 := run("s0", 0), run("s1", 1)
			if _, err := MergeEstimates(ctx, []string{s0, s1}, filepath.Join(dir, "ok")); err != nil {
				t.Fatalf("the same trace: %v", err)
			}
			flipChanges(t, trace)
			f1 := run("f1", 1)
			_, err := MergeEstimates(ctx, []string{s0, f1}, filepath.Join(dir, "out"))
			var me *MergeError
			if !errors.As(err, &me) || !strings.Contains(err.Error(), "input "+trace+" differs") || !strings.Contains(err.Error(), s0) || !strings.Contains(err.Error(), f1) {
				t.Errorf("a trace rewritten between the shards: %v, want a MergeError naming %s and both shards", err, trace)
			}
			if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
				t.Error("output written")
			}
			writeBingTrace(t, trace, 301, 3) // one more URL
			g1 := run("g1", 1)
			_, err = MergeEstimates(ctx, []string{s0, g1}, filepath.Join(dir, "out2"))
			if !errors.As(err, &me) || !strings.Contains(err.Error(), "input "+trace+" differs") || strings.Contains(err.Error(), "["+trace+"] vs ["+trace+"]") ||
				!strings.Contains(err.Error(), "bytes") {
				t.Errorf("a trace of another size: %v, want a MergeError naming %s and its sizes", err, trace)
			}
		})
	}
}
