package visits

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/shard"
)

// readRange reads byte range i of n of paths: the URLs passed on, in
// order, with their visits, and the stats.
func readRange(t *testing.T, opt Options, sp shard.Spec, paths ...string) ([]Observed, *Stats, error) {
	t.Helper()
	opt.Range = sp
	return readAll(t, opt, paths...)
}

// rangeCase is a set of inputs to cut into byte ranges.
type rangeCase struct {
	name  string
	opt   Options
	files []string // contents
}

// traceLines are n trace lines of URL_IDs in increasing order (by
// length, then bytes), some of one pair, some of many.
func traceLines(r *rand.Rand, n int, first int) []string {
	var out []string
	for k := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "%d\t%.4f\t[", first+k, r.Float64())
		for v := range 1 + r.IntN(6) {
			if v > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "[%.4f, %d]", 0.5+r.Float64(), r.IntN(2))
		}
		b.WriteString("]")
		out = append(out, b.String())
	}
	return out
}

// cdxLines are the captures of n urlkeys in sorted order, runs of 1 to 6
// lines of one key (cuts fall inside them), with a status or a revisit
// now and then.
func cdxLines(r *rand.Rand, n int, first int, json bool) []string {
	var out []string
	for k := range n {
		key := fmt.Sprintf("com,example)/p%05d", first+k)
		for v := range 1 + r.IntN(6) {
			ts := fmt.Sprintf("2020%02d%02d%02d0000", 1+v%12, 1+r.IntN(28), r.IntN(24))
			st := []string{"200", "200", "200", "404", "301"}[r.IntN(5)]
			dg := fmt.Sprintf("D%d", r.IntN(3))
			if json {
				out = append(out, fmt.Sprintf(`%s %s {"url": "http://example.com/p%05d", "mime": "text/html", "status": "%s", "digest": "%s"}`, key, ts, first+k, st, dg))
			} else {
				out = append(out, fmt.Sprintf("%s %s http://example.com/p%05d text/html %s %s 1000", key, ts, first+k, st, dg))
			}
		}
	}
	return out
}

func rangeCases(r *rand.Rand) []rangeCase {
	join := func(lines []string, nl string) string { return strings.Join(lines, nl) + nl }
	tr := traceLines(r, 40, 1)
	cx := cdxLines(r, 30, 0, false)
	cj := cdxLines(r, 30, 0, true)
	sorted := Options{Sorted: true}
	return []rangeCase{
		{"trace", Options{}, []string{join(tr, "\n")}},
		{"trace with header, CRLF, no last newline", Options{}, []string{"URL_ID\tFirst_crawl_time_offset\tCrawl_and_change_history\r\n" + strings.Join(tr, "\r\n")}},
		{"trace in three files, one empty", Options{Format: Trace}, []string{join(tr[:10], "\n"), "", join(tr[10:], "\n")}},
		{"trace ids out of order", Options{}, []string{join(append(append([]string{}, tr[20:]...), tr[:20]...), "\n")}},
		{"cdx", sorted, []string{join(cx, "\n")}},
		{"cdx with legend and blank lines", sorted, []string{" CDX N b a m s k r\n" + join(cx[:20], "\n") + "\n\n" + join(cx[20:], "\n")}},
		{"cdx, a key across two files", sorted, []string{join(cx[:len(cx)/2], "\n"), join(cx[len(cx)/2:], "\n")}},
		{"cdxj", sorted, []string{join(cj, "\n")}},
		{"cdxj, skip bad", Options{Sorted: true, SkipBad: true}, []string{join(cj[:15], "\n") + "com,bad)/ 2020 {not json}\n" + join(cj[15:], "\n")}},
	}
}

// Every byte range split of N = 1…12 (and a few prime N that put cuts
// inside lines and inside runs of one key) reads, shard after shard, the
// URLs one read of the inputs passes on, with the same visits, the same
// counts summed and the ranges tiling the inputs.
func TestRangesReadWhatOneReadReads(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 2))
	for _, c := range rangeCases(r) {
		dir := t.TempDir()
		var paths []string
		for k, body := range c.files {
			p := filepath.Join(dir, fmt.Sprintf("in%d", k))
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
		if why, err := PlanRanges(paths, c.opt); why != "" || err != nil {
			t.Fatalf("%s: not by byte ranges: %q, %v", c.name, why, err)
		}
		want, wst, err := readAll(t, c.opt, paths...)
		if err != nil || len(want) < 10 {
			t.Fatalf("%s: %d URLs, %v", c.name, len(want), err)
		}
		for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 17, 31, 64, 113} {
			var got []Observed
			var captures, urls, bad, records int64
			var end int64
			skipped := map[string]int64{}
			for i := range n {
				o, st, err := readRange(t, c.opt, shard.Spec{I: i, N: n}, paths...)
				if err != nil {
					t.Fatalf("%s: shard %d/%d: %v", c.name, i, n, err)
				}
				g := st.Range
				if g == nil || g.Start != end || g.End < g.Start || g.Total != int64(len(strings.Join(c.files, ""))) {
					t.Fatalf("%s: shard %d/%d: range %+v after byte %d", c.name, i, n, g, end)
				}
				end = g.End
				if int64(len(o)) > g.IDs {
					t.Fatalf("%s: shard %d/%d: %d URLs passed on, %d ids read", c.name, i, n, len(o), g.IDs)
				}
				got = append(got, o...)
				captures += st.Captures
				urls += st.URLs
				bad += st.Bad
				for k, v := range st.Skipped {
					skipped[k] += v
				}
				for k, in := range st.Inputs {
					records += in.Records
					if in.Format != wst.Inputs[k].Format || in.Size != wst.Inputs[k].Size || in.Name != wst.Inputs[k].Name {
						t.Fatalf("%s: shard %d/%d: input %+v, one read %+v", c.name, i, n, in, wst.Inputs[k])
					}
				}
			}
			var wrecords int64
			for _, in := range wst.Inputs {
				wrecords += in.Records
			}
			for k, v := range wst.Skipped {
				if skipped[k] != v {
					t.Errorf("%s N = %d: skipped %s %d, one read %d", c.name, n, k, skipped[k], v)
				}
			}
			if end != int64(len(strings.Join(c.files, ""))) || captures != wst.Captures || urls != wst.URLs || bad != wst.Bad || records != wrecords {
				t.Errorf("%s N = %d: ranges end at %d; captures %d, URLs %d, bad %d, records %d; one read %d, %d, %d, %d", c.name, n, end, captures, urls, bad, records, wst.Captures, wst.URLs, wst.Bad, wrecords)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s N = %d: the shards read %d URLs, one read %d (or other visits)", c.name, n, len(got), len(want))
			}
		}
	}
}

// What cannot be cut into byte ranges says why: standard input, a
// compressed file, a CDX read without --sorted, a generic log.
func TestPlanRangesRefuses(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	dir := t.TempDir()
	cdx := filepath.Join(dir, "a.cdx")
	if err := os.WriteFile(cdx, []byte(strings.Join(cdxLines(r, 3, 0, false), "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(dir, "a.gz")
	if err := os.WriteFile(gz, []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}, 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "a.csv")
	if err := os.WriteFile(log, []byte("id,time,changed\na,2020-01-01T00:00:00Z,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		paths []string
		opt   Options
		want  string
	}{
		{[]string{"-"}, Options{}, "standard input"},
		{[]string{gz}, Options{}, "gzip-compressed"},
		{[]string{cdx}, Options{}, "without --sorted"},
		{[]string{cdx}, Options{Sorted: true, Key: KeyURL}, "--key url"},
		{[]string{log}, Options{}, "log"},
	} {
		why, err := PlanRanges(c.paths, c.opt)
		if err != nil || !strings.Contains(why, c.want) {
			t.Errorf("%v: %q, %v; want %q", c.paths, why, err, c.want)
		}
		if _, _, err := readRange(t, c.opt, shard.Spec{I: 0, N: 2}, c.paths...); err == nil {
			t.Errorf("%v: read by byte range", c.paths)
		}
	}
}

// A CDX file whose legend changes part way is refused by the byte range
// that holds the second legend (the ranges after it would take the first
// line's layout); one read, and a repeated identical legend, are fine.
func TestRangesRefuseSecondLegend(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	lines := cdxLines(r, 10, 0, false)
	dir := t.TempDir()
	for _, c := range []struct {
		second string
		ok     bool
	}{{" CDX N b a m s k r", true}, {" CDX N b a m s k r M S V g", false}} {
		body := " CDX N b a m s k r\n" + strings.Join(lines[:len(lines)/2], "\n") + "\n" + c.second + "\n" + strings.Join(lines[len(lines)/2:], "\n") + "\n"
		if !c.ok { // the lines after it have the second legend's 11 fields
			body = " CDX N b a m s k r\n" + strings.Join(lines[:len(lines)/2], "\n") + "\n" + c.second + "\n"
			for _, l := range lines[len(lines)/2:] {
				body += l + " - - 0 x.warc.gz\n"
			}
		}
		p := filepath.Join(dir, "l.cdx")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := readAll(t, Options{Sorted: true}, p); err != nil {
			t.Fatalf("one read, legend %q: %v", c.second, err)
		}
		failed := 0
		for i := range 3 {
			if _, _, err := readRange(t, Options{Sorted: true}, shard.Spec{I: i, N: 3}, p); err != nil {
				if !strings.Contains(err.Error(), "legend") {
					t.Errorf("shard %d/3: %v", i, err)
				}
				failed++
			}
		}
		if (failed == 0) != c.ok || failed > 1 {
			t.Errorf("legend %q: %d of 3 shards refused", c.second, failed)
		}
	}
}
