package schedule

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

func TestParseRate(t *testing.T) {
	for _, c := range []struct {
		s    string
		want float64
	}{{"100", 100.0 / units.Day}, {"100/d", 100.0 / units.Day}, {"24/h", 24.0 / 3600}, {" 3 / s ", 3}, {"0", 0}} {
		got, err := ParseRate(c.s)
		if err != nil || math.Abs(got-c.want) > 1e-15 {
			t.Errorf("ParseRate(%q) = %g, %v; want %g", c.s, got, err, c.want)
		}
	}
	for _, s := range []string{"", "-1/d", "5/x", "abc", "NaN", "Inf/d"} {
		if _, err := ParseRate(s); err == nil {
			t.Errorf("ParseRate(%q): no error", s)
		}
	}
}

// A budget of downloads per download cycle or a percentage of the pages
// (the download policies' budget) is not a rate: the error says which
// command reads it.
func TestParseRatePolicyBudget(t *testing.T) {
	for _, s := range []string{"500/cycle", "2%", " 10 % "} {
		_, err := ParseRate(s)
		if err == nil || !strings.Contains(err.Error(), "revisit policies --budget") {
			t.Errorf("ParseRate(%q): %v, want an error naming policies' budget", s, err)
		}
	}
}

// Importance files: the Bing layout (tab) with its column names as a
// header, CSV with a documented header, comments, keys in any order;
// each page gets the importance of its title, else of its decimal id (a
// title's match wins whichever comes first in key order), else the
// missing weight; the reference is a map of the file's lines. Errors
// name the file and line, a header only when it names the columns.
func TestImportanceJoin(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 9))
	ids := make([]int64, 500)
	titles := make([]string, len(ids))
	for i := range ids {
		ids[i] = int64(r.IntN(1 << 40))
		titles[i] = fmt.Sprintf("https://h%d.example/p?a=%d,b", i%7, i)
		if i%3 == 0 {
			titles[i] = fmt.Sprint(i) // a URL_ID as title, which may also be another page's id
		}
	}
	ids[7] = 3 // page 7's id is page 3's title: page 3 takes the title's importance
	want := map[string]float64{}
	var lines []string
	for i := range ids {
		if r.IntN(4) == 0 {
			continue
		}
		key := titles[i]
		if r.IntN(3) == 0 {
			key = fmt.Sprint(ids[i])
		}
		if _, dup := want[key]; dup || key == "3" {
			continue
		}
		want[key] = float64(r.IntN(100)) / 4
		lines = append(lines, fmt.Sprintf("%q,%g", key, want[key]))
	}
	want["3"], want["999999"] = 1.5, 2 // "999999" names no page
	lines = append(lines, "3,1.5", "999999,2")
	r.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	path := writeFile(t, "imp.csv", "# importances\nid,importance\n"+strings.Join(lines, "\n")+"\n")
	w, st, err := joinImportance(Options{Importance: path, MissingWeight: 0.25}, len(ids), func(i int) (int64, string) { return ids[i], titles[i] })
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for i := range ids {
		v, ok := want[titles[i]]
		if !ok {
			v, ok = want[fmt.Sprint(ids[i])]
		}
		if !ok {
			v = 0.25
		} else {
			named++
		}
		if w[i] != v {
			t.Errorf("page %d (%s, id %d): importance %g, want %g", i, titles[i], ids[i], w[i], v)
		}
	}
	if st.ByTitle+st.ByID != named || st.Missing != len(ids)-named || st.Unused < 1 || st.Entries != int64(len(lines)) {
		t.Errorf("stats %+v; want %d named, %d entries", st, named, len(lines))
	}
	for _, c := range []struct{ text, want string }{
		{"17\t0.5\n# comment\n\n18\t2\n17\t3\n", "dup.txt:5: \"17\" given twice (first on line 1)"},
		{"a,1\nb,-2\n", "dup.txt:2: importance \"-2\""},
		{"a,1\nb\n", "dup.txt:2: 1 fields"},
		{"a,1,2\n", "dup.txt:1: 3 fields"},
		{"page,weight\n", "dup.txt:1: importance \"weight\": want a finite number ≥ 0 (a header names the columns"},
		{"a,NaN\n", "dup.txt:1"},
		{"# nothing\n", "no importance"},
		{"nobody,1\n", "names none of the 500 pages"},
	} {
		p := filepath.Join(t.TempDir(), "dup.txt")
		os.WriteFile(p, []byte(c.text), 0o644)
		_, _, err := joinImportance(Options{Importance: p}, len(ids), func(i int) (int64, string) { return ids[i], titles[i] })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// Host-limits files: hosts compare case-insensitively and without a
// trailing dot; a host given as a URL counts by its host name; a unit typo
// is refused on any line; Host is the page side of the same rule.
func TestReadHostLimits(t *testing.T) {
	l, err := ReadHostLimits(writeFile(t, "hosts.csv", "host,limit\nA.Example,48/d\nhttps://B.example./x,2/h\n"))
	if err != nil || math.Abs(l.Limit["a.example"]-48.0/units.Day) > 1e-18 || math.Abs(l.Limit["b.example"]-2.0/3600) > 1e-18 || len(l.Limit) != 2 {
		t.Errorf("host limits: %v, %v", l, err)
	}
	for text, want := range map[string]string{
		"a.example,2/dd\n":            "hosts.csv:1: rate",
		"a.example,1\nA.EXAMPLE.,2\n": "hosts.csv:2: host \"A.EXAMPLE.\" given twice (first on line 1",
		"host,limit\na example,2\n":   "hosts.csv:2: host",
		"a.example,1e308/h\n":         "hosts.csv:1: rate \"1e308/h\": too large",
	} {
		if _, err := ReadHostLimits(writeFile(t, "hosts.csv", text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
	for title, want := range map[string]string{"https://A.example:8080/p?q": "a.example", "Main Page": "", "http://b.example./": "b.example"} {
		if got := Host(title); got != want {
			t.Errorf("Host(%q) = %q, want %q", title, got, want)
		}
	}
}

// ReadTruth: over the span [0, 6 h) of the dataset a page updated at 0, 1 h, 3
// h, 6 h has the stretches of ages [0, 1], [0, 2], [0, 3] h (its update at the
// span's end starts none), so Ĝ(1) = 3/6, Ĝ(2) = 5/6, Ĝ(3) = 1, flat after
// (the knot at 6), and λ = 3 updates in 6 h; a page updated once at 0 and
// quiet since has ages [0, 6]: Ĝ(x) = x/6, λ = 1/6.
func TestReadTruth(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := dataset.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	t0 := int64(1_600_000_000)
	pages := []series.Page{
		{ID: 1, Source: "test", Title: "a", Resolution: 1, Updates: []int64{t0, t0 + 3600, t0 + 3*3600, t0 + 6*3600}},
		{ID: 2, Source: "test", Title: "b", Resolution: 1, Updates: []int64{t0}},
	}
	for i := range pages {
		if err := w.Write(&pages[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(&dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	in, err := ReadTruth(dir, 3600)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.IDs) != 2 || in.Lambda[0] != 0.5 || in.Note[1] != "" || in.Note[0] != "" || !in.Exact {
		t.Fatalf("input: %+v", in)
	}
	x, g := in.Curves.knots(0)
	wantX, wantG := []float64{1, 2, 3, 6}, []float64{0.5, 5.0 / 6, 1, 1}
	for k := range wantX {
		if x[k] != wantX[k] || math.Abs(g[k]-wantG[k]) > 1e-15 {
			t.Errorf("knot %d: (%g, %g), want (%g, %g)", k, x[k], g[k], wantX[k], wantG[k])
		}
	}
	x, g = in.Curves.knots(1)
	if !slices.Equal(x, []float64{6, 12}) || g[0] != 1 || g[1] != 1 || in.Lambda[1] != 1.0/6 {
		t.Errorf("page with one update: knots %v, Ĝ %v, λ %g", x, g, in.Lambda[1])
	}
}

// The importance file is not held in memory: after it is read, checked
// and sorted (on disk), the live heap has not grown with it: a file of
// 10⁶ lines (14 MB) held as a map would keep several times its size
// live; the test allows 4 MiB.
func TestImportanceNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and sorts a file of 10⁶ lines")
	}
	t.Setenv("TMPDIR", t.TempDir())
	var b strings.Builder
	for i := range 1_000_000 {
		fmt.Fprintf(&b, "%d\t%d.25\n", (i*7919)%1_000_003, i%97)
	}
	path := writeFile(t, "urlid_imp.txt", b.String())
	b = strings.Builder{}
	live := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	base := live()
	j, err := openImportance(context.Background(), path, 1)
	if err != nil {
		t.Fatal(err)
	}
	held := int64(live()) - int64(base)
	if err := j.add(0, 7919, "7919"); err != nil {
		t.Fatal(err)
	}
	w, st, err := j.weights(context.Background(), 1)
	j.close()
	if err != nil || w[0] != 1.25 || st.ByTitle != 1 || st.Unused != 999_999 {
		t.Fatalf("weights %v, %+v, %v", w, st, err)
	}
	t.Logf("live heap after sorting 10⁶ importances: %+d bytes", held)
	if held > 4<<20 {
		t.Errorf("the importance file keeps %d bytes live, want ≤ 4 MiB", held)
	}
}
