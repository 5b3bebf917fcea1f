package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/crawllog"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/stagetest"
)

// revisit estimate of a Bing-shaped trace with its companion files: the
// companions in increasing URL_ID order (joined by a cursor) and the same
// lines shuffled (sorted first) give the same output byte for byte
// (estimate.json but for its times), and so do three byte-range shards
// merged; a trace out of order (the companions held in maps, not joined
// as they stream) gives the same urls.csv rows.
func TestEstimateCompanionJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	dir := t.TempDir()
	trace, imp, urls := filepath.Join(dir, "urlid_offset_history.txt"), filepath.Join(dir, "urlid_imp.txt"), filepath.Join(dir, "url_urlid_hostid.txt")
	var tl, il, ul []string
	for id := 3; len(tl) < 240; id += 1 + rng.IntN(9) {
		if rng.IntN(6) > 0 { // some ids are only in the companion files
			var b strings.Builder
			fmt.Fprintf(&b, "%d\t%.3f\t[", id, rng.Float64())
			for j := range 12 {
				fmt.Fprintf(&b, "%s[%.4f, %d]", map[bool]string{true: ", "}[j > 0], 1+rng.Float64()/10, rng.IntN(2))
			}
			tl = append(tl, b.String()+"]")
		}
		if rng.IntN(7) > 0 { // some trace ids are in neither
			il = append(il, fmt.Sprintf("%d\t%.6g", id, rng.Float64()*50))
		}
		if rng.IntN(7) > 0 {
			ul = append(ul, fmt.Sprintf("http://h%d.example/%d\t%d\t%d", id%5, id, id, id%5))
		}
	}
	write := func(p string, lines []string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shuffled := func(ls []string) []string {
		s := slices.Clone(ls)
		rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		return s
	}
	args := []string{"estimate", imp, urls, trace, "--unit", "d", "--methods", "naive,poisson-mle"}
	est := func(name string) string {
		t.Helper()
		out := filepath.Join(t.TempDir(), name)
		if code := execute(append([]string{"-q"}, append(args, "-o", out)...)); code != exitOK {
			t.Fatalf("%s: exit %d", name, code)
		}
		return out
	}
	same := func(name, got, want string) {
		t.Helper()
		g, w := stagetest.ReadTree(t, got), stagetest.ReadTree(t, want)
		if len(g) != len(w) {
			t.Errorf("%s: %d files, want %d", name, len(g), len(w))
		}
		for f, b := range w {
			switch f {
			case crawllog.EstimateMetaFile:
				if gj, wj := stagetest.JSONNoTimes(t, g[f]), stagetest.JSONNoTimes(t, b); !reflect.DeepEqual(gj, wj) {
					t.Errorf("%s: estimate.json\n%v\nwant\n%v", name, gj, wj)
				}
			case atomicdir.EntriesFile: // the size of estimate.json, whose times vary
			default:
				if !bytes.Equal(g[f], b) {
					t.Errorf("%s: %s differs (%d vs %d bytes)", name, f, len(g[f]), len(b))
				}
			}
		}
	}
	write(trace, tl)
	write(imp, il)
	write(urls, ul)
	inOrder := est("in-order")
	write(imp, shuffled(il))
	write(urls, shuffled(ul))
	same("companions shuffled", est("shuffled"), inOrder)
	dirs := runShardProcs(t, 3, func(i int) string { return filepath.Join(dir, fmt.Sprintf("shard-%d", i)) }, args...)
	merged := filepath.Join(t.TempDir(), "merged")
	if code := execute([]string{"-q", "merge", "estimate", dirs[0], dirs[1], dirs[2], "-o", merged}); code != exitOK {
		t.Fatalf("merge: exit %d", code)
	}
	same("shards merged", merged, inOrder)
	write(trace, shuffled(tl))
	rows := func(out string) []string {
		b, err := os.ReadFile(filepath.Join(out, crawllog.URLsFile))
		if err != nil {
			t.Fatal(err)
		}
		ls := strings.Split(strings.TrimSpace(string(b)), "\n")
		slices.Sort(ls[1:])
		return ls
	}
	if g, w := rows(est("trace-shuffled")), rows(inOrder); !reflect.DeepEqual(g, w) {
		t.Errorf("trace out of order: urls.csv\n%s\nwant\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
	if w := rows(inOrder); len(w) != len(tl)+1 || !strings.Contains(strings.Join(w, "\n"), "http://h") {
		t.Errorf("urls.csv has %d rows for %d trace URLs, or no URL from url_urlid_hostid.txt", len(w)-1, len(tl))
	}
}
