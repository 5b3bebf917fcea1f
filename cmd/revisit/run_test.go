package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/replay"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

func TestReportExitCodes(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results")
	b := tables.Bundle{Tables: []tables.Table{{ID: "corpus", Title: "Corpus", Section: 1,
		Columns: []tables.Column{{Name: "pages", Kind: tables.Int}}, Rows: [][]any{{int64(3)}}}}}
	if err := b.Write(res); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "empty"), 0o755)
	cases := []struct {
		args []string
		code int
	}{
		{[]string{"-q", "report", res, "-o", filepath.Join(dir, "report")}, exitOK},
		{[]string{"-q", "report", res}, exitUsage},                                               // no -o
		{[]string{"-q", "report", "-o", filepath.Join(dir, "r2")}, exitUsage},                    // no results dir
		{[]string{"-q", "report", filepath.Join(dir, "nope"), "-o", dir + "/r3"}, exitBadInput},  // missing dir
		{[]string{"-q", "report", filepath.Join(dir, "empty"), "-o", dir + "/r4"}, exitBadInput}, // no tables
		{[]string{"-q", "report", res, "-o", res}, exitUsage},                                    // would replace a non-report dir: refused output
	}
	for _, c := range cases {
		if got := execute(c.args); got != c.code {
			t.Errorf("revisit %s: exit %d, want %d", strings.Join(c.args, " "), got, c.code)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "report", "index.html")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(res, "tables", "corpus.json")); err != nil {
		t.Errorf("results directory damaged: %v", err)
	}
}

func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	logIn := filepath.Join(t.TempDir(), "log.csv")
	if err := os.WriteFile(logIn, []byte("p,t\na,2020-01-01T00:00:00Z\na,2020-01-02T00:00:00Z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
	}{
		{[]string{"-q", "run", "-o", dir}, exitUsage},                                       // no input
		{[]string{"-q", "run", "x.xml"}, exitUsage},                                         // no -o
		{[]string{"-q", "run", "x.xml", "-o", dir, "--h", "-1"}, exitUsage},                 // bad h
		{[]string{"-q", "run", "x.xml", "-o", dir, "--sampler", "bogus:1"}, exitUsage},      // bad sampler
		{[]string{"-q", "run", filepath.Join(dir, "missing.xml"), "-o", dir}, exitBadInput}, // missing input
		// Checked before ingest (which may take an hour on a real dump):
		// no dataset may appear below.
		{[]string{"-q", "run", logIn, "--id", "p", "--time", "t", "-o", dir, "--methods", "M2,bogus"}, exitUsage},
		{[]string{"-q", "run", logIn, "--id", "p", "--time", "t", "-o", dir, "--include", filepath.Join(dir, "nope")}, exitBadInput},
	}
	for _, c := range cases {
		if got := execute(c.args); got != c.code {
			t.Errorf("revisit %s: exit %d, want %d", strings.Join(c.args, " "), got, c.code)
		}
	}
	for _, sub := range []string{"report", "dataset"} {
		if _, err := os.Stat(filepath.Join(dir, sub)); !os.IsNotExist(err) {
			t.Errorf("a failed run left %s/: %v", sub, err)
		}
	}
}

// The whole pipeline on the real Anarchism history (15,180 revisions,
// 2001–2010, SOURCES.md) with run's defaults: under constant sampling
// (const:0.05x, Δ = E[U]/20 = 0.24 h), M3 converges to Ḡ_3(x_n) = (G_U(x_{n+1}) − G_U(x_n)) / G_U(Δ), a
// different distribution from G_U, while M4 converges to G_U(x_n) itself
// (SPEC §4.1). On a bursty page (median gap 614 s, mean 4.8 h) the two are
// far apart, so the method table must show M3's error well above M4's.
func TestRunAnarchism(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole pipeline on the 1 GB Anarchism history: skipped with -short")
	}
	in := realdata.Path(t, "wikipedia/maribelacosta__wikiwho/large.xml.lzma")
	out := filepath.Join(t.TempDir(), "anarchism")
	if code := execute([]string{"-q", "run", in, "-o", out}); code != exitOK {
		t.Fatalf("revisit run: exit %d", code)
	}
	for _, f := range []string{"index.html", "report.md", "tables/method_errors.md", "tables/method_errors.tex", "figures/top_g_m3_m4.svg"} {
		if _, err := os.Stat(filepath.Join(out, "report", f)); err != nil {
			t.Errorf("report lacks %s: %v", f, err)
		}
	}
	fh, err := os.Open(filepath.Join(out, "report", "tables", "method_errors.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, h := range []string{"sampler", "kind", "method", "mean WMRD", "mean KS"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("method table has no %q column: %v", h, recs[0])
		}
	}
	type errs struct{ wmrd, ks float64 }
	got := map[string]errs{}
	for _, r := range recs[1:] {
		if !strings.HasPrefix(r[col["sampler"]], "const:") || r[col["kind"]] != "G" {
			continue
		}
		w, err1 := strconv.ParseFloat(r[col["mean WMRD"]], 64)
		k, err2 := strconv.ParseFloat(r[col["mean KS"]], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("row %v: %v %v", r, err1, err2)
		}
		got[r[col["method"]]] = errs{w, k}
	}
	m3, ok3 := got["M3"]
	m4, ok4 := got["M4"]
	if !ok3 || !ok4 {
		t.Fatalf("no constant-sampling G rows for M3 and M4: %v", got)
	}
	t.Logf("constant sampling: M3 WMRD %.4f KS %.4f; M4 WMRD %.4f KS %.4f", m3.wmrd, m3.ks, m4.wmrd, m4.ks)
	// "Well above": M3's WMRD at least 4 times M4's and its KS distance at
	// least 0.2 larger (on this trace M3's ≈ 0.065 and 0.48, M4's ≈ 0.00004
	// and 0.003, its interpolation floor: M4 sees the first cycle too).
	if !(m3.wmrd >= 4*m4.wmrd) || !(m3.ks-m4.ks >= 0.2) {
		t.Errorf("M3 (WMRD %.4g, KS %.4g) not well above M4 (WMRD %.4g, KS %.4g) under constant sampling", m3.wmrd, m3.ks, m4.wmrd, m4.ks)
	}
}

// A small generated corpus through the whole pipeline: every SPEC §7
// section the corpus supports is in the report (with 40 pages, the
// download policies too), and the same seed gives the same report.
func TestRunGeneratedSections(t *testing.T) {
	dir := t.TempDir()
	dump := filepath.Join(dir, "gen-stub-meta-history.xml.gz")
	if code := execute([]string{"-q", "generate", "--pages", "40", "--span", "60d", "--unit", "h", "--seed", "3", "--talk", "0",
		"--model", "0.5*exp:{lognormal:-1,0.5}", "--model", "0.5*pareto:2,{lognormal:1,0.5}", "-o", dump}); code != exitOK {
		t.Fatalf("generate: exit %d", code)
	}
	run := func(out string) []byte {
		if code := execute([]string{"-q", "run", dump, "-o", out, "--top", "3", "--reps", "19", "--x-max", "50", "--seed", "5"}); code != exitOK {
			t.Fatalf("run: exit %d", code)
		}
		html, err := os.ReadFile(filepath.Join(out, "report", "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		return html
	}
	a := run(filepath.Join(dir, "a"))
	for _, h := range []string{"1 Corpus", "2 Top pages", "3 Tails", "4 Poisson screen", "5 Method comparison", "6 Estimates vs truth", "7 Policies and NHPP"} {
		if !strings.Contains(string(a), "<h2>"+h+"</h2>") {
			t.Errorf("report lacks section %q", h)
		}
	}
	for _, id := range []string{"method_errors", "top_g_m3_m4", "policy_change_ratio"} {
		if !strings.Contains(string(a), `"`+id+`"`) {
			t.Errorf("report lacks %s", id)
		}
	}
	// The findings come from the stages' tables by ID and column name: a
	// renamed table or column would silently drop its sentence.
	md, err := os.ReadFile(filepath.Join(dir, "a", "report", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, start := range []string{"- The corpus holds ", "- Poisson screen: ", "- Tails: ", "- Scenario “age available”: use M2",
		"- Scenario “random S, no age”: use M6", "- Cost of assuming Poisson when estimating G_U", "- Cost of assuming Poisson for a crawler"} {
		if !strings.Contains(string(md), "\n"+start) {
			t.Errorf("report.md: no finding starting %q", start)
		}
	}
	b := run(filepath.Join(dir, "b"))
	// The two reports differ only in the results directories they name.
	if strings.ReplaceAll(string(a), filepath.Join(dir, "a"), "OUT") != strings.ReplaceAll(string(b), filepath.Join(dir, "b"), "OUT") {
		t.Error("the same seed gave different reports")
	}
}

// run reads generic logs as ingest does: --id and --time say which CSV
// columns hold the object and the timestamp, and --since filters. The log
// below has 3 objects with 30 updates each, one every 2 hours, from
// 2021-01-01 (object k starts k hours later); --since 2021-01-02 keeps the
// updates at or after 24 h, i.e. 30 − 12 = 18 per object (hours 24…58
// for object 0: t = 2i ≥ 24 ⇔ i ≥ 12), so the corpus table must say
// 3 pages and 54 updates.
func TestRunGenericLogFlags(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("commit,path,when\n")
	t0 := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for k := 0; k < 3; k++ {
		for i := 0; i < 30; i++ {
			at := t0.Add(time.Duration(k)*time.Minute + time.Duration(2*i)*time.Hour)
			fmt.Fprintf(&sb, "c%d_%d,file%d.txt,%s\n", k, i, k, at.Format(time.RFC3339))
		}
	}
	in := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if code := execute([]string{"-q", "run", in, "--id", "path", "--time", "when", "--since", "2021-01-02",
		"-o", out, "--top", "3", "--reps", "19", "--x-max", "10"}); code != exitOK {
		t.Fatalf("run with --id/--time: exit %d", code)
	}
	fh, err := os.Open(filepath.Join(out, "report", "tables", "analysis_corpus.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	if got := recs[1][col["pages"]]; got != "3" {
		t.Errorf("pages = %s, want 3", got)
	}
	if got := recs[1][col["updates"]]; got != "54" {
		t.Errorf("updates = %s, want 54", got)
	}
	// The report says what was filtered and why (SPEC §7.1): 90 revisions
	// read, 54 kept, the 36 before --since counted as such.
	want := map[string]string{
		"pages read": "3", "pages kept": "3", "revisions read": "90",
		"revisions kept (of kept pages, in the time range)": "54",
		"left out: revisions outside the time range":        "36",
	}
	got := map[string]string{}
	for _, r := range readCSV(t, filepath.Join(out, "report", "tables", "ingest_counts.csv"))[1:] {
		got[r[0]] = r[1]
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("ingest table: %q = %q, want %q (table %v)", k, got[k], v, got)
		}
	}
	if code := execute([]string{"-q", "run", in, "--since", "yesterday", "-o", filepath.Join(dir, "o2")}); code != exitUsage {
		t.Errorf("run --since yesterday: exit %d, want %d", code, exitUsage)
	}
}

// A run that fails after ingest leaves no report of an earlier corpus next
// to the new dataset: run A succeeds, run B at the same OUT (same log,
// x_max = 10⁹ with h = 0.05: 2·10¹⁰ grid points for every page and
// sampler, which replay refuses as bad usage) fails in replay, and OUT/report must then be gone rather
// than show A. --xmax is replay's spelling of --x-max.
func TestRunFailureLeavesNoStaleReport(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("path,when\n")
	t0 := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for k := 0; k < 2; k++ {
		for i := 0; i < 20; i++ {
			fmt.Fprintf(&sb, "f%d,%s\n", k, t0.Add(time.Duration(3*i+k)*time.Hour).Format(time.RFC3339))
		}
	}
	in := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	args := []string{"-q", "run", in, "--id", "path", "--time", "when", "-o", out, "--top", "2", "--reps", "19", "--x-max", "10"}
	if code := execute(args); code != exitOK {
		t.Fatalf("run A: exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(out, "report", "index.html")); err != nil {
		t.Fatalf("run A wrote no report: %v", err)
	}
	args[len(args)-2], args[len(args)-1] = "--xmax", "1e9"
	if code := execute(append(args, "--h", "0.05")); code != exitUsage {
		t.Fatalf("run B: exit %d, want %d", code, exitUsage)
	}
	for _, sub := range []string{"report", "analysis", "replay"} {
		if _, err := os.Stat(filepath.Join(out, sub)); !os.IsNotExist(err) {
			t.Errorf("the failed run left the earlier run's %s/ (err %v)", sub, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "dataset", "manifest.json")); err != nil {
		t.Errorf("the dataset the failed run ingested is gone: %v", err)
	}
}

// run's default h follows the source's time resolution: a log with dates
// only (resolution 1 d, unit d; E[U] ≈ 3 d, so E[U]/100 = 0.03 d) is
// binned by 1 d on every page, not by bins finer than its timestamps.
func TestRunDefaultHFollowsResolution(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("shop,day\n")
	t0 := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	for k := 0; k < 3; k++ {
		for i := 0; i < 25; i++ {
			fmt.Fprintf(&sb, "s%d,%s\n", k, t0.AddDate(0, 0, 3*i+k+i%4).Format("2006-01-02"))
		}
	}
	in := filepath.Join(dir, "days.csv")
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if code := execute([]string{"-q", "run", in, "--id", "shop", "--time", "day", "-o", out, "--top", "3", "--reps", "19"}); code != exitOK {
		t.Fatalf("run: exit %d", code)
	}
	meta, err := replay.ReadMeta(filepath.Join(out, "replay"))
	if err != nil {
		t.Fatal(err)
	}
	if meta.UnitName != "d" || meta.Choices == nil || meta.Choices.H != (replay.Spread{Median: 1, Min: 1, Max: 1}) {
		t.Errorf("date-only log replayed with unit %q, choices %+v; want d and h = 1 on every page", meta.UnitName, meta.Choices)
	}
}

// replay, analyze and run choose the same defaults on one small dataset:
// the same rules and values in replay.json (run's replay/ and a replay
// by hand of run's dataset), the same per-page grids (truth rows end at
// the page's x_max, the 0.99 quantile of its G_U, computed here from the
// dataset), and analyze compares each page on that x_max, in run's
// analysis/ and in an analyze by hand of the hand replay.
func TestDefaultsSameInReplayAnalyzeRun(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("path,when\n")
	t0 := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for k := 0; k < 3; k++ {
		at := t0
		for i := 0; i < 40; i++ {
			// page k: intervals of (k+1)·(1 + i mod 7) h, and one long one
			d := time.Duration((k+1)*(1+i%7)) * time.Hour
			if i == 20 {
				d = time.Duration(100*(k+1)) * time.Hour
			}
			at = at.Add(d)
			fmt.Fprintf(&sb, "f%d,%s\n", k, at.Format(time.RFC3339))
		}
	}
	in := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if code := execute([]string{"-q", "run", in, "--id", "path", "--time", "when", "-o", out, "--top", "3", "--reps", "19"}); code != exitOK {
		t.Fatalf("run: exit %d", code)
	}
	ds := filepath.Join(out, "dataset")
	rep := filepath.Join(dir, "rep")
	if code := execute([]string{"-q", "replay", ds, "--top", "3", "-o", rep}); code != exitOK {
		t.Fatalf("replay: exit %d", code)
	}
	an := filepath.Join(dir, "an")
	if code := execute([]string{"-q", "analyze", ds, rep, "-o", an, "--reps", "19"}); code != exitOK {
		t.Fatalf("analyze: exit %d", code)
	}

	// The page's x_max from the dataset, independently: bisection on
	// G_U(x) = Σ min(U_i, x)/Σ U_i.
	r, err := dataset.Open(ds)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]float64{}
	if err := r.Each(func(p *series.Page) error {
		u := transform.Intervals(p.Updates, transform.Hour)
		lo, hi := 0.0, slices.Max(u)
		for range 200 {
			mid := (lo + hi) / 2
			num, den := 0.0, 0.0
			for _, v := range u {
				num += min(v, mid)
				den += v
			}
			if num/den >= 0.99 {
				hi = mid
			} else {
				lo = mid
			}
		}
		want[p.ID] = hi
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(want) != 3 {
		t.Fatalf("%d pages, want 3", len(want))
	}

	metas := map[string]*replay.Meta{}
	for name, d := range map[string]string{"run": filepath.Join(out, "replay"), "replay": rep} {
		m, est, err := replay.ReadEstimates(d)
		if err != nil {
			t.Fatal(err)
		}
		metas[name] = m
		for _, e := range est {
			if e.Method != estimator.MethodTruth {
				continue
			}
			x := e.CDF.X
			if last, step := x[len(x)-1], x[1]; last < want[e.PageID]-1e-6 || last-step >= want[e.PageID] {
				t.Errorf("%s: page %d %s: truth grid ends at %g (step %g), want the 0.99 quantile of G_U %g rounded up", name, e.PageID, e.Sampler, last, step, want[e.PageID])
			}
		}
	}
	a, b := metas["run"], metas["replay"]
	if !slices.Equal(a.Samplers, replay.DefaultSamplers) || !slices.Equal(b.Samplers, replay.DefaultSamplers) ||
		a.Choices == nil || b.Choices == nil || *a.Choices != *b.Choices || a.H != 0 || b.H != 0 || a.XMax != 0 || b.XMax != 0 {
		t.Errorf("run chose %v %+v, replay %v %+v", a.Samplers, a.Choices, b.Samplers, b.Choices)
	}
	// analyze (by hand and in run) compares each page on its own x_max.
	for _, f := range []string{filepath.Join(out, "analysis", "page_errors.csv"), filepath.Join(an, "page_errors.csv")} {
		recs := readCSV(t, f)
		col := map[string]int{}
		for i, h := range recs[0] {
			col[h] = i
		}
		if _, ok := col["x_max_h"]; !ok {
			t.Fatalf("%s: no column x_max_h: %q", f, recs[0])
		}
		for _, rec := range recs[1:] {
			id, _ := strconv.ParseInt(rec[col["page_id"]], 10, 64)
			x, _ := strconv.ParseFloat(rec[col["x_max_h"]], 64) // in the run's unit, h
			if x < want[id]-1e-6 || x > 2*want[id] {
				t.Errorf("%s: page %d %s %s compared up to %g, want the page's x_max %g", f, id, rec[col["sampler"]], rec[col["method"]], x, want[id])
			}
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// run writes only where revisit wrote before: a stage
// directory or an OUT that revisit did not make is refused with exit 2 and
// left as it was, a user's own file beside a run's outputs survives the
// next run, and a run that fails leaves no empty OUT behind.
func TestRunNeverTouchesUserFiles(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.csv")
	var sb strings.Builder
	sb.WriteString("id,time\n")
	t0 := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&sb, "p%d,%s\n", i%2, t0.Add(time.Duration(i*i)*time.Hour).Format(time.RFC3339))
	}
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(out string, extra ...string) int {
		args := append([]string{"-q", "run", in, "--id", "id", "--time", "time", "-o", out, "--top", "2", "--reps", "19", "--x-max", "10"}, extra...)
		return execute(args)
	}
	mustRead := func(p, want string) {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil || string(b) != want {
			t.Errorf("%s: %d bytes starting %.40q, %v; want %q", p, len(b), b, err, want)
		}
	}

	// The reported repro: v/analysis/thesis.tex.
	v := filepath.Join(dir, "v")
	os.MkdirAll(filepath.Join(v, "analysis"), 0o755)
	os.WriteFile(filepath.Join(v, "analysis", "thesis.tex"), []byte("draft"), 0o644)
	if code := run(v); code != exitUsage {
		t.Errorf("run into a user's directory: exit %d, want %d", code, exitUsage)
	}
	mustRead(filepath.Join(v, "analysis", "thesis.tex"), "draft")
	if ents, _ := os.ReadDir(v); len(ents) != 1 {
		t.Errorf("the refused run wrote into %s: %v", v, ents)
	}

	// Any non-empty directory that is not a run's output.
	w := filepath.Join(dir, "w")
	os.MkdirAll(w, 0o755)
	os.WriteFile(filepath.Join(w, "notes.txt"), []byte("mine"), 0o644)
	if code := run(w); code != exitUsage {
		t.Errorf("run into a non-empty directory: exit %d, want %d", code, exitUsage)
	}
	mustRead(filepath.Join(w, "notes.txt"), "mine")

	// A run's own OUT: a second run replaces the stages and keeps the
	// user's file beside them.
	o := filepath.Join(dir, "o")
	if code := run(o); code != exitOK {
		t.Fatalf("first run: exit %d", code)
	}
	os.WriteFile(filepath.Join(o, "notes.txt"), []byte("mine"), 0o644)
	if code := run(o); code != exitOK {
		t.Fatalf("second run over the first: exit %d", code)
	}
	mustRead(filepath.Join(o, "notes.txt"), "mine")

	// Files the user put inside an earlier run's stage directories keep
	// them: the run is refused and nothing is removed.
	os.WriteFile(filepath.Join(o, "report", "NOTES.md"), []byte("notes"), 0o644)
	os.WriteFile(filepath.Join(o, "dataset", "extra.csv"), []byte("x"), 0o644)
	if code := run(o); code != exitUsage {
		t.Errorf("run over stages holding the user's files: exit %d, want %d", code, exitUsage)
	}
	mustRead(filepath.Join(o, "report", "NOTES.md"), "notes")
	mustRead(filepath.Join(o, "dataset", "extra.csv"), "x")
	os.Remove(filepath.Join(o, "report", "NOTES.md"))
	os.Remove(filepath.Join(o, "dataset", "extra.csv"))

	// Another process writing OUT: the run fails at once, touching nothing.
	release, err := atomicdir.Lock(o, "run output")
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(filepath.Join(o, "dataset"))
	if code := run(o); code == exitOK {
		t.Error("run while another process holds OUT: exit 0")
	}
	if after, err := os.Stat(filepath.Join(o, "dataset")); err != nil || !os.SameFile(before, after) {
		t.Errorf("a run refused as busy replaced the dataset (%v)", err)
	}
	release()

	// A stage directory the user replaced by their own is not removed.
	os.RemoveAll(filepath.Join(o, "report"))
	os.MkdirAll(filepath.Join(o, "report"), 0o755)
	os.WriteFile(filepath.Join(o, "report", "index.html"), []byte("my page"), 0o644)
	if code := run(o); code != exitUsage {
		t.Errorf("run over a user's report/: exit %d, want %d", code, exitUsage)
	}
	mustRead(filepath.Join(o, "report", "index.html"), "my page")
	if _, err := os.Stat(filepath.Join(o, "dataset", "manifest.json")); err != nil {
		t.Errorf("the refused run removed the earlier dataset: %v", err)
	}

	// A failed run into a new directory leaves nothing.
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("id,time\np,not a time\n"), 0o644)
	n := filepath.Join(dir, "new")
	if code := execute([]string{"-q", "run", bad, "--id", "id", "--time", "time", "-o", n}); code != exitBadInput {
		t.Errorf("bad input: exit %d, want %d", code, exitBadInput)
	}
	if _, err := os.Lstat(n); !os.IsNotExist(err) {
		t.Errorf("a failed run left %s behind (err %v)", n, err)
	}
	// … and an empty directory given by the user stays, empty.
	e := filepath.Join(dir, "empty")
	os.Mkdir(e, 0o755)
	execute([]string{"-q", "run", bad, "--id", "id", "--time", "time", "-o", e})
	if ents, err := os.ReadDir(e); err != nil || len(ents) != 0 {
		t.Errorf("%s after a failed run: %v %v", e, ents, err)
	}
}
