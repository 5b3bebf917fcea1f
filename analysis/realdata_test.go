package analysis

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// trace is one real update log turned into pages without the ingest
// package (which is built concurrently): rows grouped by object, sorted
// and collapsed with RawPage.Normalize.
type trace struct {
	name  string
	pages []series.Page
}

// groupPages turns (key, title, time) rows into pages with ids 1, 2, … in
// order of first appearance.
type grouper struct {
	idx  map[string]int
	raws []series.RawPage
}

func (g *grouper) add(key, title string, t int64) {
	if g.idx == nil {
		g.idx = map[string]int{}
	}
	i, ok := g.idx[key]
	if !ok {
		i = len(g.raws)
		g.idx[key] = i
		g.raws = append(g.raws, series.RawPage{ID: int64(i + 1), Title: title, Resolution: 1})
	}
	g.raws[i].Revisions = append(g.raws[i].Revisions, t)
}

func (g *grouper) pages() []series.Page {
	out := make([]series.Page, len(g.raws))
	for i := range g.raws {
		out[i] = g.raws[i].Normalize()
	}
	return out
}

func parseTime(tb testing.TB, file string, line int, s string) int64 {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		tb.Fatalf("%s line %d: %v", file, line, err)
	}
	return t.Unix()
}

func openMaybeGzip(tb testing.TB, path string) io.Reader {
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	if filepath.Ext(path) != ".gz" {
		return bufio.NewReader(f)
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return z
}

// readCSV reads a CSV with a header and calls fn with each record as a map.
func readCSV(tb testing.TB, path string, fn func(line int, rec map[string]string)) {
	r := csv.NewReader(openMaybeGzip(tb, path))
	head, err := r.Read()
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	rec := map[string]string{}
	for line := 2; ; line++ {
		row, err := r.Read()
		if err == io.EOF {
			return
		}
		if err != nil {
			tb.Fatalf("%s line %d: %v", path, line, err)
		}
		for i, h := range head {
			rec[h] = row[i]
		}
		fn(line, rec)
	}
}

// realTraces loads every real update trace the analysis can use: each XML
// file of revision_timestamps.csv, the COVID-19 editions, the 1,000-article
// enwiki sample and the two git-scraping histories.
func realTraces(t *testing.T) []trace {
	var out []trace
	rev := realdata.Path(t, "wikipedia/_derived/revision_timestamps.csv")
	byFile := map[string]*grouper{}
	var files []string
	readCSV(t, rev, func(line int, r map[string]string) {
		g, ok := byFile[r["file"]]
		if !ok {
			g = &grouper{}
			byFile[r["file"]] = g
			files = append(files, r["file"])
		}
		g.add(r["page_id"]+"\x00"+r["title"], r["title"], parseTime(t, rev, line, r["timestamp"]))
	})
	for _, f := range files {
		out = append(out, trace{"wikipedia/" + f, byFile[f].pages()})
	}

	cov := realdata.Path(t, "wikipedia/_derived/covid19_editions.csv.gz")
	var g grouper
	readCSV(t, cov, func(line int, r map[string]string) {
		g.add(r["edition"], "COVID-19 pandemic ("+r["edition"]+")", parseTime(t, cov, line, r["timestamp"]))
	})
	out = append(out, trace{"wikipedia/_derived/covid19_editions.csv.gz", g.pages()})

	kev := realdata.Path(t, "wikipedia/Kevinisagirl__Wikipedia-Revisions-1000-articleid-sample/articlesthatareoldenough.txt.gz")
	g = grouper{}
	sc := bufio.NewScanner(openMaybeGzip(t, kev))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var rec []string
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || len(rec) < 3 {
			t.Fatalf("%s line %d: %v", kev, line, err)
		}
		g.add(rec[0], rec[1], parseTime(t, kev, line, rec[2]))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	out = append(out, trace{"wikipedia/Kevinisagirl (1,000 enwiki articles)", g.pages()})

	for _, rel := range []string{
		"other/simonw__help-scraper/simonw-help-scraper_file_commits.csv.gz",
		"other/simonw__ca-fires-history/simonw-ca-fires-history_file_commits.csv.gz",
	} {
		p := realdata.Path(t, rel)
		g := grouper{}
		readCSV(t, p, func(line int, r map[string]string) {
			g.add(r["path"], r["path"], parseTime(t, p, line, r["commit_time_utc"]))
		})
		out = append(out, trace{rel, g.pages()})
	}
	return out
}

func eachOf(pages []series.Page) PageSource {
	return func(fn func(*series.Page) error) error {
		for i := range pages {
			if err := fn(&pages[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestRealData runs the whole analysis on every real trace, checks the
// per-page statistics of the top page against a naive recomputation, and
// asserts facts that hold for these histories (with the figures logged).
func TestRealData(t *testing.T) {
	traces := realTraces(t)
	for _, tr := range traces {
		tr := tr
		t.Run(filepath.Base(tr.name), func(t *testing.T) {
			out := t.TempDir()
			minUp := 100
			res, err := Analyze(context.Background(), eachOf(tr.pages), Options{Out: out, Dataset: tr.name, Reps: 199, Seed: 1, MinUpdates: minUp, Unit: transform.Hour})
			if err != nil {
				t.Fatal(err)
			}
			if res.Pages != len(tr.pages) {
				t.Errorf("pages %d, want %d", res.Pages, len(tr.pages))
			}
			for _, f := range []string{"page_stats.parquet", "page_stats.csv", "tables/poisson_screen.json", "figures/cov_histogram.json"} {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Errorf("missing %s: %v", f, err)
				}
			}
			// Naive check of the top page's statistics: E[U] = T/(n−1) and
			// Var by the two-pass formula.
			top := transform.TopN(tr.pages, 1)[0]
			st := res.Top[0]
			n := len(top.Updates)
			if st.Updates != n || st.PageID != top.ID {
				t.Fatalf("top page %d with %d updates, want %d with %d", st.PageID, st.Updates, top.ID, n)
			}
			if n > 2 {
				T := float64(top.Updates[n-1]-top.Updates[0]) / 3600
				mean := T / float64(n-1)
				v := 0.0
				for i := 1; i < n; i++ {
					d := float64(top.Updates[i]-top.Updates[i-1])/3600 - mean
					v += d * d
				}
				cov := math.Sqrt(v/float64(n-2)) / mean
				if math.Abs(st.Mean-mean) > 1e-9*mean || math.Abs(st.CoV-cov) > 1e-9*cov {
					t.Errorf("top page E[U] %g v %g, naive %g %g", st.Mean, st.CoV, mean, cov)
				}
			}
			best := ""
			if len(res.TopFits) > 0 {
				best = res.TopFits[0].Family
			}
			aggBest := ""
			if len(res.Aggregate) > 0 {
				aggBest = res.Aggregate[0].Family + " " + res.Aggregate[0].ParamString()
			}
			hs := ""
			if len(tr.pages) > 0 {
				u := transform.Intervals(top.Updates, 3600)
				if len(u) >= MinHurstLen {
					for _, h := range Hurst(u, 100) {
						hs += fmt.Sprintf(" %s=%.2f±%.2f", h.Method, h.H, h.SE)
					}
				}
			}
			t.Logf("%s: %d pages, %d intervals, %d with ≥%d updates, %d in band; top %q n=%d E[U]=%.3gh v=%.2f best tail %s; aggregate best %s;%s",
				tr.name, res.Pages, res.Intervals, res.Screened, minUp, res.InBand, st.Title, st.Updates, st.Mean, st.CoV, best, aggBest, hs)
			for _, c := range res.Closest {
				t.Logf("  closest: %q n=%d v=%.3f KS p=%.3f LB p=%.3g H_DFA=%.2f H_LW=%.2f", c.Title, c.Updates, c.CoV, c.KSP, c.LjungP, c.HurstOf(HurstDFA).H, c.HurstOf(HurstLW).H)
			}
			checkFacts(t, tr.name, res, tr.pages)
		})
	}
}

// checkFacts asserts what is known about particular traces.
func checkFacts(t *testing.T, name string, res *Result, pages []series.Page) {
	switch filepath.Base(name) {
	case "large.xml.lzma":
		// Anarchism: 15,180 revisions, one same-second pair → 15,179 updates
		// (SOURCES.md); mean gap 4.8 h, median 614 s: far from Poisson.
		a := res.Top[0]
		if a.Title != "Anarchism" || a.Updates != 15179 {
			t.Fatalf("top page %q with %d updates, want Anarchism with 15,179", a.Title, a.Updates)
		}
		if math.Abs(a.Mean-4.8) > 0.05 {
			t.Errorf("Anarchism E[U] = %.3f h, SOURCES.md says 4.8 h", a.Mean)
		}
		if a.CoV < anarchismMinCoV {
			t.Errorf("Anarchism v = %.2f, want > %g (far from Poisson)", a.CoV, anarchismMinCoV)
		}
		if res.TopFits[0].Family == FamilyExponential {
			t.Error("Anarchism: exponential is the best tail fit")
		}
		if res.InBand != 0 {
			t.Errorf("Anarchism in the Poisson band")
		}
		// Measured: H_DFA = 0.73, H_LW = 0.89, Ljung–Box p = 0 (Q off
		// the table): strongly dependent intervals.
		c := res.Closest[0]
		if c.HurstOf(HurstDFA).H < 0.6 || c.HurstOf(HurstLW).H < 0.6 || c.LjungP > 1e-10 {
			t.Errorf("Anarchism: H_DFA %.2f, H_LW %.2f, Ljung–Box p %.3g; want long-range dependence",
				c.HurstOf(HurstDFA).H, c.HurstOf(HurstLW).H, c.LjungP)
		}
	case "Kevinisagirl (1,000 enwiki articles)":
		// SOURCES.md: 1,000 pages, 352 with ≥ 100 revisions (the 28
		// same-second duplicates do not move any page across 100).
		if res.Pages != 1000 || res.Screened != 352 {
			t.Errorf("%d pages, %d screened; want 1,000 and 352", res.Pages, res.Screened)
		}
		if res.InBand != 0 || res.Top[0].Title != "Antisemitism" || res.Top[0].CoV < 3 {
			t.Errorf("in band %d, top %q v %.2f; want none in band and Antisemitism with v > 3 (measured 4.59)", res.InBand, res.Top[0].Title, res.Top[0].CoV)
		}
	case "covid19_editions.csv.gz":
		// A breaking-news page: bursty in every edition.
		if res.InBand != 0 || res.Top[0].CoV < 3 {
			t.Errorf("in band %d, top v %.2f; want none in band and v > 3 (measured 3.61)", res.InBand, res.Top[0].CoV)
		}
	case "simonw-help-scraper_file_commits.csv.gz":
		// aws/aws-version.txt has v = 1.02 (in the band) but its changes
		// are seen only at the daily poll: the intervals are near
		// multiples of 24 h, so the KS test must reject the exponential.
		if res.InBand < 1 {
			t.Fatalf("no page in the band; aws/aws-version.txt has v = 1.02")
		}
		for _, c := range res.Candidates {
			if c.Title == "aws/aws-version.txt" && c.KSP > 0.01 {
				t.Errorf("aws/aws-version.txt: KS p = %.3f, want rejection of the exponential", c.KSP)
			}
		}
	}
}

// anarchismMinCoV: measured v = 6.18 on the 15,178 intervals.
const anarchismMinCoV = 5.0
