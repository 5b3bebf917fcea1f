package reports_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/generate"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/pipeline"
)

// runReport runs the whole pipeline on inputs with the defaults of
// `revisit run` and returns the report directory.
func runReport(t *testing.T, reps int, inputs ...string) string {
	t.Helper()
	c := pipeline.DefaultConfig()
	c.Inputs, c.Out = inputs, filepath.Join(t.TempDir(), "run")
	if reps > 0 {
		c.Reps = reps
	}
	res, err := pipeline.Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return res.Report
}

// demoCorpus writes a smaller copy of `make demo`'s corpus (the same five
// models, 120 pages instead of 1,000, so that the test stays fast).
func demoCorpus(t *testing.T) string {
	t.Helper()
	models, err := generate.ParseModels([]string{
		"0.35*pareto:1.5,{lognormal:4,1.2}", "0.25*weibull:0.5,{lognormal:3.5,1.2}", "0.2*exp:{lognormal:-4.5,1.5}",
		"0.1*lrd:0.8,(exp:{lognormal:-4,1})", "0.1*onoff:1,(pareto:1.5,2),(pareto:1.2,200)"}, 3600)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "enwiki-gen-stub-meta-history.xml.gz")
	_, err = generate.Run(generate.Options{Format: generate.FormatMediaWiki, Out: out, Config: generate.Config{
		Pages: 120, Models: models, Start: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), Span: 3 * 365 * units.Day,
		UnitName: "h", Unit: 3600, Seed: 1, TalkFraction: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// finding is one bullet of report.md's Findings and the table it links.
type mdFinding struct{ text, table string }

var findingLine = regexp.MustCompile(`^- (.*) \(\[table\]\(tables/([^)]+)\.md\)\)$`)

func readFindings(t *testing.T, rep string) []mdFinding {
	t.Helper()
	md, err := os.ReadFile(filepath.Join(rep, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	i := strings.Index(s, "## Findings\n")
	if i < 0 {
		t.Fatal("report.md has no Findings")
	}
	s = s[i+len("## Findings\n"):]
	s = s[:strings.Index(s, "\n## ")]
	var out []mdFinding
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		m := findingLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("finding without its table link: %q", line)
		}
		out = append(out, mdFinding{m[1], m[2]})
	}
	return out
}

var (
	quoted    = regexp.MustCompile(`“[^”]*”`)
	dateToken = regexp.MustCompile(`\d{4}-\d\d-\d\d`)
	numToken  = regexp.MustCompile(`[−-]?\d[\d,]*(\.\d+)?`)
)

// numbers lists the numbers of s (thousands separators dropped, U+2212 as
// minus), each with its count of decimals and the text that follows it.
type num struct {
	v    float64
	dec  int
	tok  string
	next string
}

func numbers(s string) []num {
	var out []num
	for _, loc := range numToken.FindAllStringIndex(s, -1) {
		tok := s[loc[0]:loc[1]]
		clean := strings.ReplaceAll(strings.ReplaceAll(tok, ",", ""), "−", "-")
		v, err := strconv.ParseFloat(clean, 64)
		if err != nil {
			continue
		}
		dec := 0
		if i := strings.IndexByte(clean, '.'); i >= 0 {
			dec = len(clean) - i - 1
		}
		out = append(out, num{v, dec, tok, s[loc[1]:min(len(s), loc[1]+16)]})
	}
	return out
}

// inTable tells whether the number f (printed with f.dec decimals) is a
// number of the table text, rounded to those decimals (H = 0.73 is the
// table's 0.7305; κ = 0.069% is its 0.069%).
func inTable(f num, table []num) bool {
	p := math.Pow(10, float64(f.dec))
	for _, n := range table {
		if math.Abs(math.Round(n.v*p)/p-f.v) < 0.5/p*1e-6 || math.Round(n.v*p) == math.Round(f.v*p) {
			return true
		}
	}
	return false
}

// checkFindings: every number of a finding is a number of the table it
// links (its Markdown file, with headers, notes and source), except
// ratios derived from two of them ("4,800× larger"); dates are found as
// written; titles in quotes are skipped. The recommendation's sentences
// also cite method_evidence (the pages and WMRD range they rest on).
// A sentence saying "too few" is the last one: nothing is claimed after
// evidence was found too few.
func checkFindings(t *testing.T, rep string) []mdFinding {
	t.Helper()
	fs := readFindings(t, rep)
	if len(fs) == 0 {
		t.Fatal("no findings")
	}
	for i, f := range fs {
		if strings.Contains(f.text, "too few") && i != len(fs)-1 {
			t.Errorf("finding %d says too few but %d more follow it: %q", i, len(fs)-1-i, f.text)
		}
		var text string
		for _, id := range []string{f.table, alsoCited[f.table]} {
			if id == "" {
				continue
			}
			b, err := os.ReadFile(filepath.Join(rep, "tables", id+".md"))
			if err != nil {
				t.Fatalf("finding %q: %v", f.text, err)
			}
			text += string(b) + "\n"
		}
		tableNums := numbers(text)
		s := quoted.ReplaceAllString(f.text, "“”")
		for _, d := range dateToken.FindAllString(s, -1) {
			if !strings.Contains(text, d) {
				t.Errorf("finding %q: date %s not in %s", f.text, d, f.table)
			}
		}
		s = dateToken.ReplaceAllString(s, "")
		s = checkPairs(t, rep, f, s)
		if strings.HasPrefix(s, "Long memory: of the ") {
			checkHurstCounts(t, s)
		}
		for _, n := range numbers(s) {
			if strings.HasPrefix(n.next, "× larger") || pageCount.MatchString(n.next) {
				continue
			}
			if !inTable(n, tableNums) {
				t.Errorf("finding %q: %s is not a number of %s.md", f.text, n.tok, f.table)
			}
		}
	}
	return fs
}

// alsoCited is the second table a finding's numbers may come from: the
// recommendation cites method_evidence's pages and range, the long-memory
// verdicts hurst_screened's medians.
var alsoCited = map[string]string{"recommendation": "method_evidence", "lrd_verdict": "hurst_screened"}

// pageCount is what follows a count of pages in the Hurst sentence
// (counted rows, not cells: checkHurstCounts checks them).
var pageCount = regexp.MustCompile(`^ (pages? |have |has |both |DFA-1 and )`)

// checkHurstCounts: the Hurst sentence accounts for every page closest to
// Poisson, once: the cases add up to the pages with an H, and those and
// the ones without add up to all.
func checkHurstCounts(t *testing.T, s string) {
	t.Helper()
	atoi := func(x string) int { n, _ := strconv.Atoi(x); return n }
	all := regexp.MustCompile(`of the (\d+) pages closest`).FindStringSubmatch(s)
	with := regexp.MustCompile(`, (\d+) have a Hurst exponent`).FindStringSubmatch(s)
	if all == nil || with == nil {
		t.Errorf("Hurst sentence without its page counts: %q", s)
		return
	}
	sum := 0
	for _, m := range regexp.MustCompile(`[;,] on (\d+) `).FindAllStringSubmatch(s, -1) {
		sum += atoi(m[1])
	}
	without := 0
	if m := regexp.MustCompile(`; (\d+) ha(?:s|ve) fewer intervals`).FindStringSubmatch(s); m != nil {
		without = atoi(m[1])
	}
	if sum != atoi(with[1]) || atoi(with[1])+without != atoi(all[1]) {
		t.Errorf("Hurst sentence: cases add up to %d, %s have H, %d have not, of %s pages: %q", sum, with[1], without, all[1], s)
	}
}

// On the demo corpus, the real Anarchism history and a Yelp
// tips file, every number the Findings state is in the table they link,
// every method sentence rests on the same pages and says how many, and
// nothing follows a "too few".
func TestFindingsMatchTables(t *testing.T) {
	t.Run("demo", func(t *testing.T) {
		fs := checkFindings(t, runReport(t, 19, demoCorpus(t)))
		pages := ""
		for _, f := range fs {
			if strings.HasPrefix(f.text, "Scenario") || strings.HasPrefix(f.text, "Cost of assuming Poisson when estimating") {
				m := regexp.MustCompile(`(\d+) pages?(?: with ≥ 99 intervals|, a random sample \(seed \d+\) of the [\d,]+ pages with ≥ 99 intervals)`).FindStringSubmatch(f.text)
				if m == nil {
					t.Errorf("method sentence does not say its pages: %q", f.text)
					continue
				}
				if pages != "" && m[1] != pages {
					t.Errorf("method sentences rest on %s and %s pages", pages, m[1])
				}
				pages = m[1]
			}
		}
		if pages == "" {
			t.Error("no method sentence on the demo corpus")
		}
	})
	t.Run("anarchism", func(t *testing.T) {
		fs := checkFindings(t, runReport(t, 0, realdata.Path(t, "wikipedia/maribelacosta__wikiwho/large.xml.lzma")))
		for _, f := range fs {
			if strings.HasPrefix(f.text, "Scenario") && !strings.Contains(f.text, "on 1 page with ≥ 99 intervals: mean KS κ = ") {
				t.Errorf("scenario sentence does not lead with κ on its 1 page: %q", f.text)
			}
		}
	})
	t.Run("yelp", func(t *testing.T) {
		fs := checkFindings(t, runReport(t, 0, realdata.Path(t, "yelp/shenyy__Resturants/yelp_academic_dataset_tip.json")))
		last := fs[len(fs)-1].text
		if !strings.Contains(last, "too few") {
			t.Errorf("Yelp (every page < 99 intervals): last finding %q, want the too-few one", last)
		}
		for _, f := range fs {
			if strings.Contains(f.text, "κ") || strings.Contains(f.text, "WMRD") || strings.Contains(f.text, "))") {
				t.Errorf("Yelp: a method error is claimed, or a doubled parenthesis: %q", f.text)
			}
		}
	})
}

// pairClaim is a paired comparison of two methods as the Findings write
// it: the verb, then "(κ_A − κ_B = d%, 95% interval lo% to hi% over …".
var pairClaim = regexp.MustCompile(`(\S+) (beats \S+|is indistinguishable from \S+|and \S+ differ consistently but negligibly) \(κ_(\S+) − κ_(\S+) = ([−\d.,]+)%, 95% interval ([−\d.,]+)% to ([−\d.,]+)% over (pages|\d+ seeds)`)

// checkPairs checks every paired comparison of finding f against the CSV
// of the table it cites (and method_evidence for the recommendation):
// the difference is written subject − other, so a row of the subject
// compared with the other holds it as it is, a row of the other compared
// with the subject holds its negative; the numbers are the interval the
// row says it is judged by (over pages or over seeds), and the verb is
// the row's verdict ("beats": better for the subject; "indistinguishable";
// "negligibly"). It returns s without the comparisons, whose numbers are
// checked here.
func checkPairs(t *testing.T, rep string, f mdFinding, s string) string {
	t.Helper()
	ms := pairClaim.FindAllStringSubmatch(s, -1)
	if len(ms) == 0 {
		return s
	}
	var rows []map[string]string
	for _, id := range []string{f.table, alsoCited[f.table]} {
		if id != "" {
			rows = append(rows, csvRows(t, filepath.Join(rep, "tables", id+".csv"))...)
		}
	}
	for _, m := range ms {
		a, b := m[3], m[4]
		if m[1] != a || !strings.Contains(m[2], b) && !strings.HasPrefix(m[2], "and "+b) {
			t.Errorf("finding %q: %q names %s and %s but writes κ_%s − κ_%s", f.text, m[0], m[1], m[2], a, b)
		}
		verb := "negligible"
		switch {
		case strings.HasPrefix(m[2], "beats"):
			verb = "beats"
		case strings.HasPrefix(m[2], "is indistinguishable"):
			verb = "indistinguishable"
		}
		want := []num{numbers(m[5])[0], numbers(m[6])[0], numbers(m[7])[0]}
		over := "pages"
		if m[8] != "pages" {
			over = "seeds"
		}
		if !pairInRows(rows, a, b, verb, over, want) {
			t.Errorf("finding %q: %q agrees with no row of %s (κ_%s − κ_%s over %s, verdict %s)", f.text, m[0], f.table, a, b, over, verb)
		}
		s = strings.Replace(s, m[0], "", 1)
	}
	return s
}

// pairInRows reports whether a row compares a with b (or b with a, the
// difference negated) on some range with the given verb and numbers.
func pairInRows(rows []map[string]string, a, b, verb, over string, want []num) bool {
	for _, r := range rows {
		for _, sfx := range []string{"", " (x ≤ 10·E[U])"} {
			sign := 0.0
			switch {
			case r["method"] == a && r["compared with"+sfx] == b:
				sign = 1
			case r["method"] == b && r["compared with"+sfx] == a:
				sign = -1
			default:
				continue
			}
			if r["interval over"+sfx] != over {
				continue
			}
			d, lo, hi := "Δ KS"+sfx, "Δ KS lo"+sfx, "Δ KS hi"+sfx
			if over == "pages" {
				d, lo, hi = "Δ KS over pages"+sfx, "Δ KS lo over pages"+sfx, "Δ KS hi over pages"+sfx
			}
			v := []float64{parse(r[d]), parse(r[lo]), parse(r[hi])}
			if sign < 0 {
				v = []float64{-v[0], -v[2], -v[1]}
			}
			verdict := r["verdict"+sfx]
			okVerb := verb == "indistinguishable" && verdict == "indistinguishable" || verb == "negligible" && verdict == "negligible" ||
				verb == "beats" && (sign > 0 && verdict == "better" || sign < 0 && verdict == "worse")
			okNum := true
			for i := range v {
				p := math.Pow(10, float64(want[i].dec))
				if math.Round(100*v[i]*p) != math.Round(want[i].v*p) {
					okNum = false
				}
			}
			if okVerb && okNum {
				return true
			}
		}
	}
	return false
}

func parse(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// csvRows reads a table's CSV (readCSV) as one map per row, keyed by the
// header, with the leading ' of escaped text cells dropped.
func csvRows(t *testing.T, name string) []map[string]string {
	t.Helper()
	recs := readCSV(t, name)
	var out []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for j, h := range recs[0] {
			m[h] = strings.TrimPrefix(rec[j], "'")
		}
		out = append(out, m)
	}
	return out
}
