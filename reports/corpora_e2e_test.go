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

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/pipeline"
)

// runWith runs the whole pipeline with run's defaults changed by set and
// returns the report directory.
func runWith(t *testing.T, set func(*pipeline.Config), inputs ...string) string {
	t.Helper()
	c := pipeline.DefaultConfig()
	c.Inputs, c.Out = inputs, filepath.Join(t.TempDir(), "run")
	set(&c)
	res, err := pipeline.Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return res.Report
}

// The four corpora of the researcher's report (the 1,000-article enwiki
// sample, Anarchism, Yelp check-ins, the 118 COVID-19 editions), run
// with two seeds: every Findings sentence is checked against the CSV it
// quotes — its numbers (checkFindings), each paired comparison's numbers,
// sign and verb against the row it comes from (checkPairs), the screen's
// sequence and parallel counts and the long-memory verdicts against a
// count of page_stats.csv, x_max as the Source line states it, and the
// random sample of pages as the replay drew it.
func TestFindingsRealCorpora(t *testing.T) {
	real := realdata.Dir(t)
	corpora := []struct {
		name   string
		inputs []string
		set    func(*pipeline.Config)
	}{
		{"enwiki", []string{filepath.Join(real, "wikipedia/Kevinisagirl__Wikipedia-Revisions-1000-articleid-sample/articlesthatareoldenough.txt.gz")},
			func(c *pipeline.Config) { c.Ingest.Generic = generic.Options{ID: "0", Time: "2", Title: "1"} }},
		{"anarchism", []string{filepath.Join(real, "wikipedia/maribelacosta__wikiwho/large.xml.lzma")}, func(*pipeline.Config) {}},
		{"yelp-checkin", []string{filepath.Join(real, "yelp/alisongh__SIADS-591-592/checkin.json")}, func(*pipeline.Config) {}},
		{"covid19", []string{filepath.Join(real, "wikipedia/_derived/covid19_editions.csv.gz")},
			func(c *pipeline.Config) { c.Ingest.Generic = generic.Options{ID: "edition", Time: "timestamp"} }},
	}
	for _, cp := range corpora {
		t.Run(cp.name, func(t *testing.T) {
			if testing.Short() && (cp.name == "enwiki" || cp.name == "covid19") {
				t.Skip("-short: the two larger corpora")
			}
			for _, in := range cp.inputs {
				realdata.Path(t, strings.TrimPrefix(in, real+"/"))
			}
			rep := runWith(t, func(c *pipeline.Config) { cp.set(c); c.Seeds = 2 }, cp.inputs...)
			fs := checkFindings(t, rep)
			stats := csvRows(t, filepath.Join(filepath.Dir(rep), "analysis", "page_stats.csv"))
			evSource := sourceLine(t, filepath.Join(rep, "tables", "method_evidence.md"))
			said := map[string]bool{}
			for _, f := range fs {
				switch {
				case strings.HasPrefix(f.text, "Poisson screen:"):
					checkScreen(t, f.text, stats)
					said["screen"] = true
				case strings.HasPrefix(f.text, "Long memory"):
					checkLRD(t, f.text, stats)
					said["lrd"] = true
				}
				if m := xmaxSaid.FindString(f.text); m != "" && !strings.Contains(evSource, m) {
					t.Errorf("%s: x_max %q is not the Source line's (%s)", cp.name, m, evSource)
				}
				if m := sampleSaid.FindStringSubmatch(f.text); m != nil {
					eligible := 0
					for _, r := range stats {
						if n, _ := strconv.Atoi(r["n_updates"]); n-1 >= 99 {
							eligible++
						}
					}
					if got := atoi(m[1]); got != eligible || !strings.Contains(evSource, m[0]) {
						t.Errorf("%s: %q: %d pages with ≥ 99 intervals in page_stats, Source %q", cp.name, m[0], eligible, evSource)
					}
					said["sample"] = true
				}
			}
			checkRecommendation(t, rep, fs)
			if !said["screen"] {
				t.Errorf("%s: no screen sentence", cp.name)
			}
			// 352 enwiki pages have ≥ 99 intervals: the methods are compared
			// on a random sample of 50 of them, and the sentences say so.
			if cp.name == "enwiki" && !said["sample"] {
				t.Errorf("enwiki: no method sentence says the pages are a random sample")
			}
			for _, f := range fs {
				t.Logf("%s [%s] %s", cp.name, f.table, f.text)
			}
		})
	}
}

var (
	xmaxSaid   = regexp.MustCompile(`x_max per page = 0\.99 quantile of the page's G_U \([^)]*\)`)
	sampleSaid = regexp.MustCompile(`a random sample \(seed \d+\) of the ([\d,]+) pages with ≥ 99 intervals`)
)

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return n
}

// sourceLine is the "Source: …" line of a table's Markdown.
func sourceLine(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "Source: ") {
			return l
		}
	}
	return ""
}

// screened are the rows of page_stats with a KS p-value (every screened page).
func screened(stats []map[string]string) []map[string]string {
	var out []map[string]string
	for _, r := range stats {
		if r["ks_p"] != "" {
			out = append(out, r)
		}
	}
	return out
}

// checkScreen recounts the screen from page_stats.csv under the words of
// the sentence: "of the N pages with ≥ K updates, B lie in the band
// |v − 1| ≤ 0.1 …; of the B in the band, S are exponential by KS …, and
// of those S, L are also independent …: P pass the screen. Over all N …:
// a exponential by KS, b independent by Ljung–Box, c both."
func checkScreen(t *testing.T, s string, stats []map[string]string) {
	t.Helper()
	sc := screened(stats)
	var band, ks, both, allKS, allLB, allBoth int
	for _, r := range sc {
		cov, p, lb := parse(r["cov"]), parse(r["ks_p"]), parse(r["ljung_box_p"])
		if p >= 0.05 {
			allKS++
		}
		if lb >= 0.05 {
			allLB++
		}
		if p >= 0.05 && lb >= 0.05 {
			allBoth++
		}
		if math.Abs(cov-1) <= 0.1 {
			band++
			if p >= 0.05 {
				ks++
				if lb >= 0.05 {
					both++
				}
			}
		}
	}
	want := map[string]int{"screened": len(sc), "band": band, "ks": ks, "both": both, "allKS": allKS, "allLB": allLB, "allBoth": allBoth}
	for name, re := range map[string]string{
		"screened": `of the ([\d,]+) pages? with ≥`,
		"band":     `updates, ([\d,]+) lies? in the band`,
		"ks":       `of the [\d,]+ in the band, ([\d,]+) (?:is|are) exponential by KS`,
		"both":     `, ([\d,]+) (?:is|are) also independent by Ljung–Box`,
		"allKS":    `in the band or not: ([\d,]+) exponential by KS`,
		"allLB":    `, ([\d,]+) independent by Ljung–Box`,
		"allBoth":  `Ljung–Box, ([\d,]+) both`,
	} {
		m := regexp.MustCompile(re).FindStringSubmatch(s)
		if m == nil {
			if (name == "ks" && band == 0) || (name == "both" && ks == 0) {
				continue
			}
			t.Errorf("screen sentence lacks %s (%s): %q", name, re, s)
			continue
		}
		if atoi(m[1]) != want[name] {
			t.Errorf("screen sentence: %s = %s, page_stats.csv counts %d: %q", name, m[1], want[name], s)
		}
	}
	if m := regexp.MustCompile(`: ([\d,]+) pass(?:es)? the screen`).FindStringSubmatch(s); m == nil || atoi(m[1]) != both {
		t.Errorf("screen sentence: pass %v, page_stats.csv %d: %q", m, both, s)
	}
}

// checkRecommendation checks every row of recommendation.csv against its
// Findings sentence: the method used is consistent (class unbiased in
// method_evidence.csv), and the sentence names the row's lower biased
// method with its mean κ against the method's, and why it is not used,
// exactly when the row has one.
func checkRecommendation(t *testing.T, rep string, fs []mdFinding) {
	t.Helper()
	class := map[[2]string]string{}
	for _, r := range csvRows(t, filepath.Join(rep, "tables", "method_evidence.csv")) {
		if r["kind"] == "G" {
			class[[2]string{r["sampler"], r["method"]}] = r["class"]
		}
	}
	for _, r := range csvRows(t, filepath.Join(rep, "tables", "recommendation.csv")) {
		m, sp := r["method"], r["sampler"]
		if sp == "" || r["mean KS"] == "" {
			continue
		}
		if c := class[[2]string{sp, m}]; c != "unbiased" {
			t.Errorf("%s, sampler %s: %s recommended, of class %q", r["scenario"], sp, m, c)
		}
		var part string
		for _, f := range fs {
			if strings.HasPrefix(f.text, "Scenario “"+r["scenario"]+"”") {
				if i := strings.Index(f.text, "use "+m+" (with sampler "+sp+","); i >= 0 {
					part = f.text[i:]
					if j := strings.Index(part[1:], "; use "); j >= 0 {
						part = part[:j+1]
					}
				}
			}
		}
		if part == "" {
			t.Errorf("%s, sampler %s: no sentence uses %s", r["scenario"], sp, m)
			continue
		}
		low := r["lower biased"]
		if low == "" {
			if strings.Contains(part, "has a lower mean κ here") {
				t.Errorf("%s: no method is lower in recommendation.csv, the sentence names one: %q", r["scenario"], part)
			}
			continue
		}
		re := regexp.MustCompile(regexp.QuoteMeta(low) + `, (?:biased in general|a Poisson baseline, exact only for Poisson updates) \(docs/methods\.md#` + regexp.QuoteMeta(strings.ToLower(low)) +
			`\), has a lower mean κ here, ([\d.]+)% against ` + regexp.QuoteMeta(m) + `'s ([\d.]+)%.*; it is not recommended, because its bias depends on the update process and the revisit rate`)
		g := re.FindStringSubmatch(part)
		if g == nil {
			t.Errorf("%s: recommendation.csv has %s lower, the sentence does not say so: %q", r["scenario"], low, part)
			continue
		}
		for i, col := range []string{"lower biased mean KS", "mean KS"} {
			n := numbers(g[i+1])[0]
			if p := math.Pow(10, float64(n.dec)); math.Round(100*parse(r[col])*p) != math.Round(n.v*p) {
				t.Errorf("%s: %s %s%% in the sentence, %s in recommendation.csv", r["scenario"], col, g[i+1], r[col])
			}
		}
	}
}

// checkLRD recounts the long-memory verdicts of page_stats.csv under the
// words of the sentence.
func checkLRD(t *testing.T, s string, stats []map[string]string) {
	t.Helper()
	count := map[string]int{}
	var lw, dfa, with, rescaled, short int
	for _, r := range screened(stats) {
		v := r["lrd"]
		if v == "" {
			continue
		}
		with++
		count[v]++
		if v == "long memory" && parse(r["lrd_halves"]) == 2 {
			rescaled++
		}
		if v == "undecided: trend in the rate" && r["lrd_halves"] == "" {
			short++
		}
		if lo := parse(r["h_lw_lo"]); lo > 0.5 && r["h_lw"] != "" {
			lw++
		}
		if p := parse(r["h_dfa_p"]); p < 0.05 && r["h_dfa"] != "" {
			dfa++
		}
	}
	for re, want := range map[string]int{
		`claimed on ([\d,]+) of the`:                           count["long memory"],
		`of the ([\d,]+) with enough intervals`:                with,
		`time-rescaled: ([\d,]+) of them\)`:                    rescaled,
		`([\d,]+) where the rate changes along the window`:     count["undecided: trend in the rate"],
		`([\d,]+) of them with fewer than 1,024 intervals`:     short,
		`([\d,]+) where the two estimators disagree`:           count["undecided: estimators disagree"],
		`([\d,]+) where an estimator's H lies outside`:         count["undecided: an H outside [0, 1]"],
		`no long memory on ([\d,]+)`:                           count["no long memory"],
		`local Whittle's interval lies above 0\.5 on ([\d,]+)`: lw,
		`DFA-1 lies above its surrogates on ([\d,]+)`:          dfa,
	} {
		m := regexp.MustCompile(re).FindStringSubmatch(s)
		if m == nil {
			if want == 0 && !strings.Contains(re, "claimed") && !strings.Contains(re, "no long") && !strings.Contains(re, "enough") {
				continue
			}
			if with == 0 {
				continue
			}
			t.Errorf("long-memory sentence lacks %s (page_stats.csv: %d): %q", re, want, s)
			continue
		}
		if atoi(m[1]) != want {
			t.Errorf("long-memory sentence: %s says %s, page_stats.csv counts %d: %q", re, m[1], want, s)
		}
	}
}
