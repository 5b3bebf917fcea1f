package visits

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/shard"
)

// compLine is one line of a generated companion file.
type compLine struct {
	id   int
	text string // the whole line
	bad  bool   // does not parse
}

// genCompanions writes a trace of URL_IDs in increasing order (or
// shuffled) and its two companion files (in increasing URL_ID order or
// shuffled, with duplicates, bad lines and ids the trace lacks; the trace
// has ids they lack) and returns their paths and lines.
func genCompanions(t *testing.T, rng *rand.Rand, n int, shuffleTrace, shuffleComp, dups, bad bool) (trace, imp, urls string, traceIDs []int, impLines, urlLines []compLine) {
	t.Helper()
	dir := t.TempDir()
	var all []int // ids of the trace or a companion file
	for id := 1 + rng.IntN(5); len(all) < n; id += 1 + rng.IntN(30) {
		all = append(all, id)
	}
	for _, id := range all {
		if rng.IntN(5) > 0 { // 1 in 5 only in the companion files
			traceIDs = append(traceIDs, id)
		}
	}
	var tb strings.Builder
	tb.WriteString("URL_ID\tFirst_crawl_time_offset\tCrawl_and_change_history\n")
	tr := append([]int(nil), traceIDs...)
	if shuffleTrace {
		rng.Shuffle(len(tr), func(i, j int) { tr[i], tr[j] = tr[j], tr[i] })
	}
	for _, id := range tr {
		fmt.Fprintf(&tb, "%d\t0.5\t[[1, %d], [1.5, 1]]\n", id, id%2)
	}
	mk := func(kind string) []compLine {
		var ls []compLine
		for _, id := range all {
			if rng.IntN(6) == 0 { // 1 in 6 only in the trace (or nowhere)
				continue
			}
			ls = append(ls, compEntryLine(kind, id, rng))
			if dups && rng.IntN(10) == 0 { // given again, another value
				ls = append(ls, compEntryLine(kind, id, rng))
			}
			if bad && rng.IntN(25) == 0 {
				l := compLine{id: id, bad: true, text: fmt.Sprintf("%d\tnot-a-number", id)}
				if kind == URLs {
					l.text = fmt.Sprintf("http://x.example/%d\t%d", id, id)
				}
				ls = append(ls, l)
			}
		}
		if shuffleComp {
			rng.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
		}
		return ls
	}
	impLines, urlLines = mk(Importance), mk(URLs)
	write := func(name string, ls []compLine) string {
		var b strings.Builder
		for _, l := range ls {
			b.WriteString(l.text + "\n")
		}
		return writeFile(t, name, []byte(b.String()))
	}
	trace = filepath.Join(dir, "urlid_offset_history.txt")
	if err := os.WriteFile(trace, []byte(tb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	imp = write("urlid_imp.txt", impLines)
	urls = write("url_urlid_hostid.txt", urlLines)
	return trace, imp, urls, traceIDs, impLines, urlLines
}

func compEntryLine(kind string, id int, rng *rand.Rand) compLine {
	if kind == Importance {
		return compLine{id: id, text: fmt.Sprintf("%d\t%s", id, strconv.FormatFloat(rng.Float64()*100, 'g', -1, 64))}
	}
	return compLine{id: id, text: fmt.Sprintf("http://h%d.example/p/%d?v=%d\t%d\t%d", id%7, id, rng.IntN(1000), id, id%7)}
}

// compWant is the naive reference: each file read into a map in file
// order, the first entry of an id kept (later ones duplicates), and the
// counts loadCompanion makes: entries kept, duplicates, bad lines; the
// first bad line (1-based) and whether it is a
// duplicate.
type compWant struct {
	imp      map[string]float64
	url      map[string]string
	records  map[string]int64
	dup, bad map[string]int64
	firstBad map[string]int
	firstDup map[string]bool
	firstID  map[string]string
	traceIDs []int
}

func naiveCompanions(traceIDs []int, impLines, urlLines []compLine) *compWant {
	w := &compWant{imp: map[string]float64{}, url: map[string]string{}, records: map[string]int64{},
		dup: map[string]int64{}, bad: map[string]int64{}, firstBad: map[string]int{}, firstDup: map[string]bool{},
		firstID: map[string]string{}, traceIDs: traceIDs}
	for _, k := range []struct {
		kind string
		ls   []compLine
	}{{Importance, impLines}, {URLs, urlLines}} {
		seen := map[int]bool{}
		for i, l := range k.ls {
			first := w.firstBad[k.kind] == 0
			if l.bad {
				w.bad[k.kind]++
				if first {
					w.firstBad[k.kind], w.firstID[k.kind] = i+1, strconv.Itoa(l.id)
				}
				continue
			}
			if seen[l.id] {
				w.dup[k.kind]++
				if first {
					w.firstBad[k.kind], w.firstDup[k.kind], w.firstID[k.kind] = i+1, true, strconv.Itoa(l.id)
				}
				continue
			}
			seen[l.id] = true
			w.records[k.kind]++
			id := strconv.Itoa(l.id)
			fs := strings.Split(l.text, "\t")
			if k.kind == Importance {
				v, err := strconv.ParseFloat(fs[1], 64)
				if err != nil {
					panic(err)
				}
				w.imp[id] = v
			} else {
				w.url[id] = fs[0]
			}
		}
	}
	return w
}

// observed is what the reference gives for trace id.
func (w *compWant) observed(id string) Observed {
	o := Observed{ID: id}
	if v, ok := w.imp[id]; ok {
		o.Importance, o.HasImportance = v, true
	}
	if u, ok := w.url[id]; ok {
		o.ID, o.Source = u, id
	}
	return o
}

// joined is the part of an Observed the companion files set.
func joined(o Observed) Observed {
	return Observed{ID: o.ID, Source: o.Source, Importance: o.Importance, HasImportance: o.HasImportance}
}

// The streaming join (companion files in increasing order: a cursor;
// shuffled: sorted by the external merge sort, in one run or in many
// merged in several rounds) and the fallback to maps (a trace out of
// order) give the URLs, importances and counts of the naive reference,
// with duplicates and bad lines skipped and counted (--skip-bad), ids in
// the companion files the trace lacks and the reverse; and so does each
// byte range of the trace read alone.
func TestCompanionJoin(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for _, c := range []struct {
		name                                 string
		shuffleTrace, shuffleComp, dups, bad bool
		chunkMem, fanIn                      int
		wantLog                              string
	}{
		{"in order", false, false, false, false, 0, 0, "increasing order: joined"},
		{"in order, duplicates and bad lines", false, false, true, true, 0, 0, "increasing order: joined"},
		{"shuffled", false, true, false, false, 0, 0, "external merge sort"},
		{"shuffled, duplicates and bad lines", false, true, true, true, 0, 0, "external merge sort"},
		{"shuffled, many runs and rounds", false, true, true, true, 700, 3, "external merge sort"},
		{"trace out of order", true, true, true, true, 700, 3, "held in memory"},
		{"trace and companions out of order", true, false, true, false, 0, 0, "held in memory"},
	} {
		rng := rand.New(rand.NewPCG(7, uint64(len(c.name))))
		trace, imp, urls, ids, il, ul := genCompanions(t, rng, 400, c.shuffleTrace, c.shuffleComp, c.dups, c.bad)
		w := naiveCompanions(ids, il, ul)
		var logs []string
		opt := Options{SkipBad: true, chunkMem: c.chunkMem, fanIn: c.fanIn, Log: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }}
		for _, paths := range [][]string{{imp, urls, trace}, {trace}} {
			o := opt
			if len(paths) == 1 {
				o.Importance, o.URLs = imp, urls
			}
			got, st, err := readAll(t, o, paths...)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			traceOrder := traceLinesOrder(t, trace)
			if len(got) != len(traceOrder) {
				t.Fatalf("%s: %d URLs, want %d", c.name, len(got), len(traceOrder))
			}
			for i, g := range got {
				if want := w.observed(traceOrder[i]); !reflect.DeepEqual(joined(g), want) {
					t.Fatalf("%s: URL %d: got %+v, want %+v", c.name, i, joined(g), want)
				}
			}
			for _, in := range st.Inputs {
				if in.Format != Importance && in.Format != URLs {
					continue
				}
				if in.Records != w.records[in.Format] || in.Bad["duplicate"] != w.dup[in.Format] || in.Bad[in.Format] != w.bad[in.Format] {
					t.Errorf("%s: %s: records %d, bad %v; want %d, %d duplicates, %d bad", c.name, in.Format, in.Records, in.Bad, w.records[in.Format], w.dup[in.Format], w.bad[in.Format])
				}
			}
			if !strings.Contains(strings.Join(logs, "\n"), c.wantLog) {
				t.Errorf("%s: the log does not say %q:\n%s", c.name, c.wantLog, strings.Join(logs, "\n"))
			}
		}
		if c.shuffleTrace {
			continue
		}
		// each byte range of the trace: the companions' cursors skip the ids
		// before its first
		if why, err := PlanRanges([]string{imp, urls, trace}, opt); why != "" || err != nil {
			t.Fatalf("%s: no byte ranges: %q %v", c.name, why, err)
		}
		var all []Observed
		for i := range 3 {
			got, _, err := readRange(t, opt, shard.Spec{I: i, N: 3}, imp, urls, trace)
			if err != nil {
				t.Fatalf("%s: range %d: %v", c.name, i, err)
			}
			all = append(all, got...)
		}
		if len(all) != len(ids) {
			t.Fatalf("%s: the ranges read %d URLs, want %d", c.name, len(all), len(ids))
		}
		for i, g := range all {
			if want := w.observed(strconv.Itoa(ids[i])); !reflect.DeepEqual(joined(g), want) {
				t.Fatalf("%s: ranges: URL %d: got %+v, want %+v", c.name, i, joined(g), want)
			}
		}
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "revisit-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// traceLinesOrder is the ids of a trace file's lines, in file order.
func traceLinesOrder(t *testing.T, path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i > 0 {
			id, _, _ := strings.Cut(l, "\t")
			ids = append(ids, id)
		}
	}
	return ids
}

// Without --skip-bad, the first bad line of a companion file is refused,
// named by file, line and id, as loadCompanion refuses it in file order:
// a duplicate or a line that does not parse, whichever comes first, in a
// file in order or shuffled (sorted in many runs), with the trace in order
// or not; no temporary file is left.
func TestCompanionJoinRefuses(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	n := 0
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 11))
		shuffle := seed%2 == 1
		trace, imp, urls, ids, il, ul := genCompanions(t, rng, 150, seed%4 == 3, shuffle, true, seed%3 > 0)
		w := naiveCompanions(ids, il, ul)
		opt := Options{Importance: imp, URLs: urls, Format: Trace, chunkMem: 500, fanIn: 2}
		_, _, err := readAll(t, opt, trace)
		kind, path := Importance, imp
		if w.firstBad[Importance] == 0 {
			kind, path = URLs, urls
		}
		if w.firstBad[kind] == 0 {
			if err != nil {
				t.Errorf("seed %d: %v, want no error", seed, err)
			}
			continue
		}
		n++
		var be *BadRecordError
		if !errors.As(err, &be) || be.File != path || be.Line != int64(w.firstBad[kind]) {
			t.Fatalf("seed %d (shuffled %v): %v, want %s line %d (duplicate %v)", seed, shuffle, err, path, w.firstBad[kind], w.firstDup[kind])
		}
		if w.firstDup[kind] && (be.Reason != "duplicate" || !strings.Contains(be.Error(), strconv.Quote(w.firstID[kind]))) {
			t.Errorf("seed %d: %v, want the duplicate %s", seed, err, w.firstID[kind])
		}
		if !w.firstDup[kind] && be.Reason != kind {
			t.Errorf("seed %d: %v, want a bad %s line", seed, err, kind)
		}
	}
	if n < 20 {
		t.Errorf("only %d of the files had a bad line", n)
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "revisit-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A trace out of order falls back to the maps, which --max-observations
// caps: refused, naming the companion file.
func TestCompanionJoinFallbackCap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	trace, imp, urls, _, _, _ := genCompanions(t, rng, 2000, true, false, false, false)
	opt := Options{Importance: imp, URLs: urls, Format: Trace, MaxObservations: 3000}
	_, _, err := readAll(t, opt, trace)
	if err == nil || !strings.Contains(err.Error(), "raise --max-observations") || !strings.Contains(err.Error(), imp) {
		t.Fatalf("%v, want the cap refusing %s", err, imp)
	}
	// in order, the same files and cap pass: nothing is held
	trace2, imp2, urls2, _, _, _ := genCompanions(t, rand.New(rand.NewPCG(3, 3)), 2000, false, false, false, false)
	opt = Options{Importance: imp2, URLs: urls2, Format: Trace, MaxObservations: 3000}
	if _, _, err := readAll(t, opt, trace2); err != nil {
		t.Fatal(err)
	}
}

// A context cancelled while a companion file out of order is sorted stops
// it with the context's error, and no temporary file is left.
func TestCompanionJoinCancelled(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	trace, imp, urls, _, _, _ := genCompanions(t, rand.New(rand.NewPCG(9, 9)), 300, false, true, false, false)
	ctx, cancel := context.WithCancel(context.Background())
	sorting := false
	logf := func(f string, a ...any) {
		if strings.Contains(fmt.Sprintf(f, a...), "external merge sort") {
			sorting = true
			cancel() // once the first pass found the file out of order
		}
	}
	_, err := Read(ctx, []string{trace}, Options{Importance: imp, URLs: urls, chunkMem: 500, Log: logf}, func(*Observed) error { return nil })
	if !sorting || !errors.Is(err, context.Canceled) {
		t.Fatalf("%v (sorting %v), want context.Canceled while sorting", err, sorting)
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
