package logs

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zeebo/xxh3"

	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/series"
)

// readRange reads byte range i of n of paths: the URLs passed on, in
// order, with their visits, and the stats.
func readRange(t *testing.T, opt Options, sp shard.Spec, paths ...string) ([]series.Observed, *Stats, error) {
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
			var got []series.Observed
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

// The fingerprints of byte ranges (Stats.Prints): each range's Range is
// the xxh3-128 of exactly the bytes [Start, End) of each input it read
// (hashed here from the file), the ranges of an input tile it, and every
// range of a split, for N = 1…7, records the same Samples of each input;
// one byte changed inside a sample window (an input's first byte, its
// last) changes the Samples every range records, one changed elsewhere
// does not. A whole read records each input's SHA-256, as sha256sum.
func TestRangePrints(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 3))
	dir := t.TempDir()
	var paths []string
	var bodies [][]byte
	for k, n := range []int{12000, 0, 500} { // 12,000 lines: gaps between the windows
		body := []byte(strings.Join(traceLines(r, n, 1+k*10000), "\n") + "\n")
		if n == 0 {
			body = nil
		}
		p := filepath.Join(dir, fmt.Sprintf("in%d", k))
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		paths, bodies = append(paths, p), append(bodies, body)
	}
	opt := Options{Format: Trace}
	samples := func() []string {
		t.Helper()
		var first []string
		for n := 1; n <= 7; n++ {
			covered := make([]int64, len(paths))
			for i := range n {
				_, st, err := readRange(t, opt, shard.Spec{I: i, N: n}, paths...)
				if err != nil {
					t.Fatal(err)
				}
				if len(st.Prints) != len(paths) {
					t.Fatalf("%d/%d: %d prints of %d inputs", i, n, len(st.Prints), len(paths))
				}
				var got []string
				for k, p := range st.Prints {
					if p.Name != paths[k] || p.Size != int64(len(bodies[k])) || p.SHA256 != "" {
						t.Fatalf("%d/%d input %d: %+v", i, n, k, p)
					}
					if p.Start < p.End {
						if p.Start != covered[k] {
							t.Errorf("%d/%d input %d: bytes %d…%d after %d", i, n, k, p.Start, p.End, covered[k])
						}
						covered[k] = p.End
						h := xxh3.Hash128(bodies[k][p.Start:p.End]).Bytes()
						if want := fmt.Sprintf("%x", h[:]); p.Range != want {
							t.Errorf("%d/%d input %d: range hash %s, the bytes' %s", i, n, k, p.Range, want)
						}
					}
					got = append(got, p.Samples)
				}
				if first == nil {
					first = got
				} else if !reflect.DeepEqual(got, first) {
					t.Errorf("%d/%d: samples %v, shard 0/1's %v", i, n, got, first)
				}
			}
			for k := range paths {
				if covered[k] != int64(len(bodies[k])) {
					t.Errorf("N = %d input %d: ranges cover %d of %d bytes", n, k, covered[k], len(bodies[k]))
				}
			}
		}
		return first
	}
	orig := samples()
	edit := func(k, at int) []string {
		t.Helper()
		b := append([]byte(nil), bodies[k]...)
		b[at] = map[byte]byte{'0': '1', '1': '0'}[b[at]]
		if b[at] == 0 {
			t.Fatalf("byte %d of input %d is %q, not a digit", at, k, bodies[k][at])
		}
		if err := os.WriteFile(paths[k], b, 0o644); err != nil {
			t.Fatal(err)
		}
		was := bodies[k]
		bodies[k] = b
		defer func() {
			bodies[k] = was
			if err := os.WriteFile(paths[k], was, 0o644); err != nil {
				t.Fatal(err)
			}
		}()
		return samples()
	}
	if got := edit(0, 0); got[0] == orig[0] || got[2] != orig[2] {
		t.Errorf("input 0's first byte changed: samples %v, were %v", got, orig)
	}
	last := len(bodies[2]) - 4 // a change bit: "…, 1]]\n"
	if got := edit(2, last); got[2] == orig[2] || got[0] != orig[0] {
		t.Errorf("input 2's last change bit changed: samples %v, were %v", got, orig)
	}
	// a change bit of input 0 outside every window: between the first
	// two windows of the stream after its first 4 KiB
	total := int64(len(bodies[0]) + len(bodies[2]))
	step := (total - sampleBytes) / sampleCount
	at := -1
	for i := sampleBytes; i < int(step); i++ {
		if bodies[0][i] == ']' && (bodies[0][i-1] == '0' || bodies[0][i-1] == '1') {
			at = i - 1
			break
		}
	}
	if at < 0 || int64(at) >= step {
		t.Fatalf("no change bit between byte %d and %d", sampleBytes, step)
	}
	if got := edit(0, at); !reflect.DeepEqual(got, orig) {
		t.Errorf("a byte of input 0 outside the windows changed: samples %v, were %v", got, orig)
	}
	_, st, err := readAll(t, opt, paths...)
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range st.Prints {
		sum := sha256.Sum256(bodies[k])
		if p.SHA256 != fmt.Sprintf("%x", sum[:]) || p.Samples != "" || p.Range != "" {
			t.Errorf("whole read, input %d: %+v", k, p)
		}
	}
}
