package reports

import (
	"encoding/csv"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/revisit-dev/revisit/internal/tables"
)

var keep = flag.String("keep", "", "also write the sample report to this directory, to look at")

func writeSample(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "report")
	if err := Write(sampleBundle(), dir, Options{Title: "Sample report", Inputs: []string{"results/a", "results/b"}, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if *keep != "" {
		if err := Write(sampleBundle(), *keep, Options{Title: "Sample report", Inputs: []string{"results/a"}, Version: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestWriteLayout(t *testing.T) {
	dir := writeSample(t)
	want := []string{"index.html", "report.md", marker,
		"tables/corpus.md", "tables/corpus.csv", "tables/corpus.tex",
		"tables/empty.md", "tables/empty.csv", "tables/empty.tex"}
	for _, f := range sampleFigures() {
		want = append(want, "figures/"+f.ID+".csv")
		svg := filepath.Join(dir, "figures", f.ID+".svg")
		if Unplottable(&f) == "" {
			want = append(want, "figures/"+f.ID+".svg")
		} else if _, err := os.Stat(svg); err == nil {
			t.Errorf("%s: an SVG for a figure replaced by a sentence", svg)
		}
	}
	for _, f := range want {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	// No temporary directory is left beside the report.
	ents, _ := os.ReadDir(filepath.Dir(dir))
	if len(ents) != 1 {
		t.Errorf("leftovers beside the report: %v", ents)
	}
	// Every curve point is in the figure CSV, in full precision: the tail
	// figure has 5,000 + 21 + 2 points (helpers_test.go), the SVG thins
	// the 5,000-point line but the CSV must not.
	fcsv, err := os.Open(filepath.Join(dir, "figures", "tail.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(fcsv).ReadAll()
	fcsv.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+5000+21+2 {
		t.Errorf("tail.csv has %d records, want 1 header + 5023 points", len(recs))
	}
	// Every SVG is well-formed XML with a viewBox (so the page can scale it).
	for _, f := range sampleFigures() {
		if Unplottable(&f) != "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, "figures", f.ID+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		if err := wellFormed(string(data)); err != nil {
			t.Errorf("%s.svg: %v", f.ID, err)
		}
		if !strings.Contains(string(data), "viewBox=") {
			t.Errorf("%s.svg has no viewBox", f.ID)
		}
	}
}

// wellFormed parses s as XML to its end.
func wellFormed(s string) error {
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// The caption says what a log axis could not show: the tail figure's
// empirical curve starts at x = 0 (1 point of 5,023), the histogram has
// one empty bin (1 of 5), the last figure has no positive point at all.
func TestFigureNotes(t *testing.T) {
	figs := sampleFigures()
	cases := map[string]string{
		"tail":     "1 of 5,023 points with x ≤ 0 not shown on the logarithmic x axis",
		"cov-hist": "1 of 5 bins with y ≤ 0 not shown on the logarithmic y axis",
		"nothing":  "no points to plot",
	}
	for i := range figs {
		want, ok := cases[figs[i].ID]
		if !ok {
			continue
		}
		_, notes, err := SVG(&figs[i])
		if err != nil {
			t.Fatal(err)
		}
		if !contains(notes, want) {
			t.Errorf("%s: notes %q lack %q", figs[i].ID, notes, want)
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// Decade ticks: labels at powers of ten; a range inside one decade gets
// 2× and 5× labels, a narrower one every integer multiple.
func TestLogTicks(t *testing.T) {
	labels := func(lo, hi float64) []string {
		var out []string
		for _, tk := range (logTicks{}).Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	cases := []struct {
		lo, hi float64
		want   string
	}{
		{0.003, 2000, "0.01 0.1 1 10 100 1000"},
		{1e-6, 1e6, "10⁻⁶ 10⁻⁵ 10⁻⁴ 0.001 0.01 0.1 1 10 100 1000 10000 10⁵ 10⁶"},
		{1.5, 30, "2 5 10 20 30"}, // 30 labelled: the top tick
		{0.008, 0.35, "0.01 0.02 0.05 0.1 0.2 0.3"},
		{1.5, 14, "2 4 6 8 10 12 14"},
		{0.63, 1.46, "0.8 1.0 1.2 1.4"},
		{2, 8, "2 3 4 5 6 7 8"},
		{250, 4000, "300 500 1000 2000 4000"}, // the lowest tick labelled: far below 500
		{1e-100, 1, "10⁻¹⁰⁰ 10⁻⁹⁰ 10⁻⁸⁰ 10⁻⁷⁰ 10⁻⁶⁰ 10⁻⁵⁰ 10⁻⁴⁰ 10⁻³⁰ 10⁻²⁰ 10⁻¹⁰ 1"},
	}
	for _, c := range cases {
		if got := strings.Join(labels(c.lo, c.hi), " "); got != c.want {
			t.Errorf("ticks [%g, %g] = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}

}

// Linear axes: 3 to 7 round labels.
func TestNiceTicks(t *testing.T) {
	cases := []struct {
		lo, hi float64
		want   string
	}{
		{0, 5, "0 1 2 3 4 5"},
		{0, 100, "0 20 40 60 80 100"},
		{0, 1, "0.0 0.2 0.4 0.6 0.8 1.0"},
		{-0.13, 0.5, "−0.1 0.0 0.1 0.2 0.3 0.4 0.5"}, // U+2212, the minus sign
		{-20000, 5000, "−20,000 −15,000 −10,000 −5,000 0 5,000"},
		{0, 0.0075, "0.000 0.002 0.004 0.006"},
		{0, 15179, "0 2,500 5,000 7,500 10,000 12,500 15,000"}, // not 15000.0
		{0, 1.5, "0.00 0.25 0.50 0.75 1.00 1.25 1.50"},
	}
	for _, c := range cases {
		var got []string
		for _, tk := range niceTicks(c.lo, c.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("niceTicks(%g, %g) = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

func TestWriteReplacesOnlyReports(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	b := sampleBundle()
	if err := Write(b, dir, Options{}); err != nil {
		t.Fatal(err)
	}
	// A second report replaces the first.
	b.Tables = b.Tables[:1]
	if err := Write(b, dir, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "tables", "empty.csv")); !os.IsNotExist(err) {
		t.Errorf("stale file of the previous report survived: %v", err)
	}
	// A directory of the user's is never replaced.
	user := filepath.Join(root, "mine")
	os.MkdirAll(user, 0o755)
	os.WriteFile(filepath.Join(user, "thesis.tex"), []byte("x"), 0o644)
	err := Write(b, user, Options{})
	if err == nil || !strings.Contains(err.Error(), "refusing to replace") {
		t.Errorf("Write over a user directory: err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(user, "thesis.tex")); err != nil {
		t.Errorf("user file lost: %v", err)
	}
	// Nothing to render is an error, not an empty report.
	if err := Write(&tables.Bundle{}, filepath.Join(root, "empty"), Options{}); err == nil {
		t.Error("empty bundle: no error")
	}
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary directory left: %s", e.Name())
		}
	}
}

// Merge orders sections 1–7, then simulation (0), and makes duplicate IDs
// from several results directories unique in the report's files.
func TestMergeAndDuplicateIDs(t *testing.T) {
	a := &tables.Bundle{Tables: []tables.Table{{ID: "m", Section: 0, Title: "sim"}, {ID: "x", Section: 5, Title: "five"}}}
	b := &tables.Bundle{Tables: []tables.Table{{ID: "x", Section: 1, Title: "one"}}}
	m := Merge(a, b)
	var got []string
	for _, tb := range m.Tables {
		got = append(got, tb.Title)
	}
	if strings.Join(got, ",") != "one,five,sim" {
		t.Errorf("merged order = %v, want one,five,sim", got)
	}
	dir := filepath.Join(t.TempDir(), "r")
	if err := Write(m, dir, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"tables/x.md", "tables/x-2.md", "tables/m.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	html, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	order := regexp.MustCompile(`<h2>([^<]*)</h2>`).FindAllStringSubmatch(string(html), -1)
	var heads []string
	for _, o := range order {
		heads = append(heads, o[1])
	}
	if strings.Join(heads, "|") != "Contents|1 Corpus|5 Method comparison|Simulation" {
		t.Errorf("section headings = %q", heads)
	}
}

// A fit named after its data curve takes the data's colour with a dash
// of its own; other curves take the first colour no curve uses yet.
func TestCurveColours(t *testing.T) {
	cs := []tables.Curve{
		{Name: "page 7 (v = 1.00)", Points: true},
		{Name: "page 7 fit, H = 0.63", Dashed: true},
		{Name: "page 9 (v = 0.98)", Points: true},
		{Name: "page 9 fit, H = 0.71", Dashed: true},
		{Name: "exponential fit", Dashed: true}, // fixed: vermillion, first dash
		{Name: "page 7 again"},                  // solid: a new colour even if the name matches
	}
	got := curveStyles(cs)
	want := []curveStyle{{palette[0], -1}, {palette[0], 0}, {palette[2], -1}, {palette[2], 1}, {palette[1], 0}, {palette[3], -1}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("curve %q: style %v, want %v", cs[i].Name, got[i], want[i])
		}
	}
}

// The highest tick of every axis carries a label: a top tick just above
// the last label is dropped (2000 over 1000 on a 7-decade axis), one far
// enough is labelled (0.3 over 0.2), a linear axis has no minor tick above
// its last label.
func TestTopTickLabelled(t *testing.T) {
	for _, r := range [][2]float64{{0.0003, 2000}, {0.008, 0.35}, {1, 9}, {0, 0.0075}, {0, 1.15}, {3, 9.9}, {1e-100, 3}, {0.5, 2.5e6}} {
		var ticks []plot.Tick
		if r[0] > 0 {
			ticks = (logTicks{}).Ticks(r[0], r[1])
		} else {
			ticks = niceTicks(r[0], r[1])
		}
		top := ticks[0]
		for _, tk := range ticks {
			if tk.Value > top.Value {
				top = tk
			}
		}
		if top.Label == "" {
			t.Errorf("[%g, %g]: top tick %g has no label", r[0], r[1], top.Value)
		}
	}
	var last string
	for _, tk := range (logTicks{}).Ticks(0.0003, 2000) {
		if tk.Label != "" {
			last = tk.Label
		}
	}
	if last != "1000" {
		t.Errorf("[0.0003, 2000]: last label %q, want 1000 (2000 too close to label)", last)
	}
}

// Histogram count axes: whole numbers only. Spans of 5 or more are
// niceTicks' (integer steps 1, 2, 5, … there); below, every whole number.
func TestCountTicks(t *testing.T) {
	cases := []struct {
		lo, hi float64
		want   string
	}{
		{0, 3, "0 1 2 3"},
		{0, 1, "0 1"},
		{0, 3.2, "0 1 2 3"},
		{0, 100, "0 20 40 60 80 100"},
	}
	for _, c := range cases {
		var got []string
		for _, tk := range countTicks(c.lo, c.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("countTicks(%g, %g) = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

// A table longer than longTableRows scrolls in a box of its own (class
// "tablewrap long", with a note saying how many rows it holds); a short
// one is shown at full height.
func TestHTMLLongTableScrolls(t *testing.T) {
	long := corpusTable()
	long.ID = "long"
	row := long.Rows[0]
	long.Rows = nil
	for i := 0; i < longTableRows+1; i++ {
		long.Rows = append(long.Rows, row)
	}
	b := &tables.Bundle{Tables: []tables.Table{corpusTable(), long}}
	dir := filepath.Join(t.TempDir(), "r")
	if err := Write(b, dir, Options{Title: "t"}); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(html)
	if n := strings.Count(s, `<div class="tablewrap long">`); n != 1 {
		t.Errorf("%d long table boxes, want 1 (the %d-row table only)", n, longTableRows+1)
	}
	if n := strings.Count(s, `<div class="tablewrap">`); n != 1 {
		t.Errorf("%d plain table boxes, want 1 (the corpus table)", n)
	}
	if want := fmt.Sprintf("%d rows: scroll", longTableRows+1); !strings.Contains(s, want) {
		t.Errorf("no note %q", want)
	}
}

// A table without rows says so in the HTML instead of showing a bare
// header (the Anarchism screen has no page with |v − 1| ≤ 0.1); a table
// with rows does not carry the note.
func TestHTMLEmptyTableSaysSo(t *testing.T) {
	b := &tables.Bundle{Tables: []tables.Table{corpusTable(), emptyTable()}}
	dir := filepath.Join(t.TempDir(), "r")
	if err := Write(b, dir, Options{Title: "t"}); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(html), "No rows:"); n != 1 {
		t.Errorf("%d 'No rows' notes, want 1 (the empty table only)", n)
	}
}

// A figure with nothing worth drawing is replaced by a sentence saying
// why, with the lone values: no points, one point per curve (Anarchism's
// staleness ECDFs over one page), an empty histogram (Yelp's CoV), a
// histogram of one value (Anarchism's CoV: one page in the bin [0.2,
// 0.3), the last bin as wide as the one before). Two distinct points on
// one curve are enough.
func TestUnplottable(t *testing.T) {
	figs := map[string]tables.Figure{}
	for _, f := range sampleFigures() {
		figs[f.ID] = f
	}
	cases := map[string]string{
		"nothing":        "Not drawn: no point with a positive value to show on the logarithmic axes (2 points left out).",
		"one-point":      "Not drawn: every curve has a single point (a line needs two): S at ratio = 0.42, fraction of pages ≤ x = 1; Δ at ratio = 2.5, fraction of pages ≤ x = 1.",
		"empty-hist":     "Not drawn: the histogram is empty (no pages to count).",
		"one-count":      "Not drawn: the histogram would hold a single value (pages = 1), in the bin from 0.2 to 0.3 of v.",
		"line-and-point": "",
		"tail":           "",
		"cov-hist":       "",
	}
	for id, want := range cases {
		f := figs[id]
		if got := Unplottable(&f); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
	// Anarchism's v = 6.177 lands in the CoV histogram's open last bin
	// (every v ≥ 4.9): the sentence says so, not "from 4.9 to 5".
	last := tables.Figure{Bars: true, XLabel: "v", YLabel: "pages", Curves: []tables.Curve{{Name: "pages", X: []float64{4.7, 4.8, 4.9}, Y: []float64{0, 0, 1}, OpenLast: true}}}
	if got, want := Unplottable(&last), "Not drawn: the histogram would hold a single value (pages = 1), in its last bin, which counts every v from 4.9 up."; got != want {
		t.Errorf("open last bin: %q, want %q", got, want)
	}
	same := tables.Figure{Curves: []tables.Curve{{Name: "c", X: []float64{1, 1}, Y: []float64{2, 2}}}}
	if got := Unplottable(&same); got != "Not drawn: the figure has a single point: c at x = 1, y = 2." {
		t.Errorf("one point twice: %q", got)
	}
}

// Every figure of index.html either is an <svg> with at least one plotted
// element (a path inside a data group, which SVG writes around each curve
// or histogram) or is replaced by its "Not drawn: …" sentence; report.md
// says the same sentence and links no SVG for it.
func TestEverySVGPlotsSomething(t *testing.T) {
	dir := writeSample(t)
	html, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	checkFiguresPlotted(t, string(html), len(sampleFigures()))
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	for _, f := range sampleFigures() {
		if s := Unplottable(&f); s != "" {
			if !strings.Contains(string(md), s) || strings.Contains(string(md), "figures/"+f.ID+".svg") {
				t.Errorf("report.md: figure %s not replaced by its sentence", f.ID)
			}
		}
	}
	// The line's lone point is drawn as a glyph: two data groups.
	f := sampleFigures()[len(sampleFigures())-1]
	svg, _, err := SVG(&f)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(svg), dataGroupClass); n != 2 {
		t.Errorf("line-and-point: %d data groups, want 2", n)
	}
}

// checkFiguresPlotted checks every <figure> of an index.html.
func checkFiguresPlotted(t *testing.T, html string, want int) {
	t.Helper()
	figs := regexp.MustCompile(`(?s)<figure id="[^"]*" data-figure="([^"]*)">(.*?)</figure>`).FindAllStringSubmatch(html, -1)
	if len(figs) != want {
		t.Errorf("%d figures in index.html, want %d", len(figs), want)
	}
	data := regexp.MustCompile(`(?s)<g class="data">\s*<path `)
	for _, m := range figs {
		nsvg := strings.Count(m[2], "<svg")
		switch {
		case nsvg == 1 && data.MatchString(m[2]):
		case nsvg == 0 && strings.Contains(m[2], `<p class="nofig">Not drawn: `):
		default:
			t.Errorf("figure %s: %d <svg>, no plotted element and no sentence", m[1], nsvg)
		}
	}
}

// A method or fit family looks the same in every figure, whatever its
// place among the curves: Pareto in the aggregate tail figure (after the
// empirical points) and in a figure where it comes first; M4 next to the
// truth and M3 or among every method of a convergence figure.
func TestFixedStylesAcrossFigures(t *testing.T) {
	a := curveStyles([]tables.Curve{{Name: "empirical", Points: true}, {Name: "pareto fit", Dashed: true}, {Name: "lognormal fit", Dashed: true}})
	b := curveStyles([]tables.Curve{{Name: "Pareto fit", Dashed: true}, {Name: "exponential fit", Dashed: true}, {Name: "lognormal fit", Dashed: true}})
	if a[1] != b[0] || a[2] != b[2] {
		t.Errorf("pareto %v vs %v, lognormal %v vs %v", a[1], b[0], a[2], b[2])
	}
	if a[0].col != palette[cBlue] {
		t.Errorf("the data takes %v, want blue (no fit family is blue)", a[0].col)
	}
	c := curveStyles([]tables.Curve{{Name: "truth", Step: true}, {Name: "M3", Step: true}, {Name: "M4", Step: true}})
	var all []tables.Curve
	for _, m := range []string{"M1", "M2", "M3", "M4", "M5", "G-M4", "M6", "naive", "cho", "matloff", "age-mle"} {
		all = append(all, tables.Curve{Name: m})
	}
	d := curveStyles(all)
	if c[2] != d[3] || c[1] != d[2] || c[0] != (curveStyle{palette[cBlack], -1}) {
		t.Errorf("M4 %v vs %v, M3 %v vs %v, truth %v", c[2], d[3], c[1], d[2], c[0])
	}
}

// No two curves of a figure are drawn alike, however many: the sample
// figures, every method together, 7 policies, 4 families, and 30 curves
// without fixed styles (once the 40 colour × dash pairs are not enough,
// styles would repeat; 30 must not).
func TestNoTwoCurvesAlike(t *testing.T) {
	var figs [][]tables.Curve
	for _, f := range sampleFigures() {
		figs = append(figs, f.Curves)
	}
	var methods, many, mixed []tables.Curve
	for n := range fixedStyles {
		methods = append(methods, tables.Curve{Name: n})
	}
	for i := range 30 {
		many = append(many, tables.Curve{Name: fmt.Sprintf("page %d", i), Dashed: i%3 == 0})
	}
	// Unknown curves first, then fixed ones that want the colours taken.
	mixed = append(mixed, tables.Curve{Name: "empirical"}, tables.Curve{Name: "√(N r)", Dashed: true}, tables.Curve{Name: "greedy"}, tables.Curve{Name: "M2"}, tables.Curve{Name: "M2"})
	figs = append(figs, methods, many, mixed)
	for _, cs := range figs {
		seen := map[curveStyle]string{}
		for i, st := range curveStyles(cs) {
			if prev, ok := seen[st]; ok {
				t.Errorf("%q and %q share the style %v", prev, cs[i].Name, st)
			}
			seen[st] = cs[i].Name
		}
	}
}

// A table too wide for the page says so above it and scrolls sideways;
// the corpus table fits and says nothing.
func TestHTMLWideTableSaysSo(t *testing.T) {
	wide := tables.Table{ID: "wide", Title: "wide"}
	var row []any
	for i := range 14 {
		wide.Columns = append(wide.Columns, tables.Column{Name: fmt.Sprintf("column %d", i), Kind: tables.Float})
		row = append(row, 123456.789+float64(i))
	}
	wide.Rows = [][]any{row}
	b := &tables.Bundle{Tables: []tables.Table{corpusTable(), wide}}
	dir := filepath.Join(t.TempDir(), "r")
	if err := Write(b, dir, Options{Title: "t"}); err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	s := string(html)
	if n := strings.Count(s, "14 columns, wider than the page"); n != 1 {
		t.Errorf("%d wide-table notes, want 1", n)
	}
	if n := strings.Count(s, `<div class="tablebox wide">`); n != 1 {
		t.Errorf("%d wide table boxes, want 1", n)
	}
}

// The truth is drawn after (on top of) the estimates,
// dashed so that an estimate lying on it shows through; the legend keeps
// the figure's order; and a legend with no free corner goes below the
// plot instead of over the data.
func TestTruthOnTopLegendOffData(t *testing.T) {
	xs := []float64{1, 2, 4, 8, 16, 32}
	ys := []float64{0.9, 0.7, 0.5, 0.3, 0.2, 0.1}
	f := tables.Figure{ID: "g", LogX: true, Curves: []tables.Curve{
		{Name: "truth", X: xs, Y: ys, Step: true}, {Name: "M3", X: xs, Y: []float64{0.8, 0.6, 0.4, 0.3, 0.2, 0.1}, Step: true}, {Name: "M4", X: xs, Y: ys, Step: true}}}
	svg, _, err := SVG(&f)
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	// The data lines come before the legend's thumbnails: truth's first
	// (black, 1.4 pt, dashed) after M4's first (bluish green).
	truth, m4 := "stroke:#000000;stroke-width:1.4;stroke-dasharray", "stroke:#009E73;stroke-width:1.6"
	if it, im := strings.Index(s, truth), strings.Index(s, m4); it < 0 || im < 0 || it < im {
		t.Errorf("truth (dashed black at %d) not drawn after M4 (green at %d)", it, im)
	}
	// Points in every corner: no corner is free, the legend goes below.
	var cx, cy []float64
	for _, u := range []float64{0, 0.05, 0.95, 1} {
		for _, v := range []float64{0, 0.05, 0.95, 1} {
			cx, cy = append(cx, 1+u*9), append(cy, v)
		}
	}
	full := tables.Figure{ID: "full", Curves: []tables.Curve{{Name: "a", X: cx, Y: cy, Points: true}, {Name: "b", X: []float64{1, 10}, Y: []float64{0.5, 0.5}}}}
	_, lp, _, err := buildPlot(&full)
	if err != nil {
		t.Fatal(err)
	}
	if !lp.below || len(lp.entries) != 2 {
		t.Errorf("legend with no free corner: below %v with %d entries, want below with 2", lp.below, len(lp.entries))
	}
	// A free corner keeps the legend inside, in it.
	free := tables.Figure{ID: "free", Curves: []tables.Curve{{Name: "a", X: []float64{0, 1, 2, 3}, Y: []float64{0, 1, 2, 3}}}}
	_, lp, _, err = buildPlot(&free)
	if err != nil || lp.below || !lp.top || !lp.left {
		t.Errorf("diagonal data: legend below %v, top %v left %v (%v); want inside, top left", lp.below, lp.top, lp.left, err)
	}
}

// A curve with a band (greedy's ChangeRatio ± SD over
// cycles) is drawn shaded, and the y axis spans the band, not only the
// means (0.0324–0.0336 while the SD is 0.066); its CSV carries the band.
func TestBandShadedAndInRange(t *testing.T) {
	f := tables.Figure{ID: "greedy", LogX: true, XLabel: "s", YLabel: "ChangeRatio", Curves: []tables.Curve{{Name: "greedy",
		X: []float64{1, 2, 3}, Y: []float64{0.0324, 0.0336, 0.033}, YLo: []float64{-0.0336, -0.0324, -0.033}, YHi: []float64{0.0984, 0.0996, 0.099}}}}
	p, lp, _, err := buildPlot(&f)
	if err != nil {
		t.Fatal(err)
	}
	// The band reaches every corner: the legend goes below, off the band.
	if !lp.below {
		t.Errorf("legend inside the plot, over the band")
	}
	if p.Y.Min > -0.0336 || p.Y.Max < 0.0996 {
		t.Errorf("y axis %g…%g does not hold the band −0.0336…0.0996", p.Y.Min, p.Y.Max)
	}
	svg, _, err := SVG(&f)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "fill-opacity:0.2") {
		t.Errorf("no shaded band in the SVG")
	}
	var buf strings.Builder
	if err := WriteCurvesCSV(&buf, &f); err != nil {
		t.Fatal(err)
	}
	if want := "curve,s,ChangeRatio,ChangeRatio low,ChangeRatio high\ngreedy,1,0.0324,-0.0336,0.0984\n"; !strings.HasPrefix(buf.String(), want) {
		t.Errorf("CSV %q, want prefix %q", buf.String(), want)
	}
}
