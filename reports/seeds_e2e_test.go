package reports_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/generate"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/pipeline"
)

// readCSV reads a whole CSV file.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return recs
}

var (
	legendGroup = regexp.MustCompile(`(?s)<g class="legend">(.*?)</g>`)
	legendText  = regexp.MustCompile(`<text [^>]*>(.*?)</text>`)
	dataGroup   = regexp.MustCompile(`(?s)<g class="data">(.*?)</g>`)
	bandFill    = regexp.MustCompile(`fill:#([0-9A-F]{6});fill-opacity:0.2`)
)

// sameColour says whether two hex colours differ by at most 1 in each
// channel.
func sameColour(a, b string) bool {
	for i := 0; i < 6; i += 2 {
		var x, y int
		fmt.Sscanf(a[i:i+2], "%02X", &x)
		fmt.Sscanf(b[i:i+2], "%02X", &y)
		if x-y > 1 || y-x > 1 {
			return false
		}
	}
	return true
}

// `run --seeds 5` draws one curve per method in the replay figures: a
// legend of one entry per method (15 before: truth, M3 and M4 once per
// seed, in colours picked in turn), one line in each method's own colour
// with one shaded band for each estimate, the truth once; the figure's
// CSV keeps every seed's points under a seed column, the drawn mean's
// rows marked "mean"; and page_errors gives every row its seed.
func TestSeedsOneCurvePerMethod(t *testing.T) {
	models, err := generate.ParseModels([]string{"0.5*pareto:1.5,{lognormal:3,0.5}", "0.5*exp:{lognormal:1,0.5}"}, 3600)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "gen-stub-meta-history.xml.gz")
	if _, err := generate.Run(generate.Options{Format: generate.FormatMediaWiki, Out: in, Config: generate.Config{
		Pages: 12, Models: models, Start: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), Span: 365 * units.Day,
		UnitName: "h", Unit: 3600, Seed: 3}}); err != nil {
		t.Fatal(err)
	}
	const seeds = 5
	c := pipeline.DefaultConfig()
	c.Inputs, c.Out, c.Seeds, c.Top = []string{in}, filepath.Join(t.TempDir(), "run"), seeds, 2
	res, err := pipeline.Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	// Each method's colour (reports' fixed styles): truth black, M2 blue,
	// M3 orange, M4 bluish green.
	colour := map[string]string{"truth": "#000000", "M2": "#0072B2", "M3": "#E69F00", "M4": "#009E73"}
	for fig, methods := range map[string][]string{"top_g_m3_m4": {"truth", "M3", "M4"}, "top_f_from_m2": {"M2", "truth"}} {
		b, err := os.ReadFile(filepath.Join(res.Report, "figures", fig+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		svg := string(b)
		var labels []string
		for _, g := range legendGroup.FindAllStringSubmatch(svg, -1) {
			for _, m := range legendText.FindAllStringSubmatch(g[1], -1) {
				labels = append(labels, html.UnescapeString(m[1]))
			}
		}
		if !slices.Equal(labels, methods) {
			t.Errorf("%s: legend %q, want one entry per method %q", fig, labels, methods)
		}
		for _, m := range methods {
			lines, bands := 0, 0
			for _, g := range dataGroup.FindAllStringSubmatch(svg, -1) {
				if strings.Contains(g[1], "stroke:"+colour[m]) {
					lines++
				}
				// A band's colour at 20 % opacity: vgsvg writes it
				// un-premultiplied, off by one in a channel (#D45D00
				// for #D55E00).
				for _, f := range bandFill.FindAllStringSubmatch(g[1], -1) {
					if sameColour(f[1], colour[m][1:]) {
						bands++
					}
				}
			}
			wantBands := 1 // an estimate's range over the seeds
			if m == "truth" {
				wantBands = 0 // the truth does not depend on the seed
			}
			if lines != 1 || bands != wantBands {
				t.Errorf("%s: %s drawn as %d lines with %d bands, want 1 line and %d bands", fig, m, lines, bands, wantBands)
			}
		}
		// The CSV: curve, x, y, y low, y high, seed.
		recs := readCSV(t, filepath.Join(res.Report, "figures", fig+".csv"))
		if h := recs[0]; h[len(h)-1] != "seed" || len(h) != 6 {
			t.Fatalf("%s.csv header %q, want curve, x, y, y low, y high, seed", fig, h)
		}
		rows := map[string]int{}
		for _, r := range recs[1:] {
			rows[r[0]+" "+r[5]]++
			if (r[5] == "mean") != (r[3] != "" && r[4] != "") {
				t.Errorf("%s.csv: row %q: band cells only on the mean's rows", fig, r)
			}
		}
		for _, m := range methods {
			if m == "truth" {
				if rows["truth "] == 0 || len(rows) != 1+(len(methods)-1)*(seeds+1) {
					t.Errorf("%s.csv: curves × seeds %v, want the truth once (seed empty) and mean, 0…4 of each method", fig, rows)
				}
				continue
			}
			for _, s := range []string{"mean", "0", "1", "2", "3", "4"} {
				if rows[m+" "+s] == 0 {
					t.Errorf("%s.csv: no rows of %s with seed %q (%v)", fig, m, s, rows)
				}
			}
		}
	}
	// page_errors: each page × sampler × kind × method once per seed, its
	// seed in the seed column.
	recs := readCSV(t, filepath.Join(c.Out, "analysis", "page_errors.csv"))
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	if _, ok := col["seed"]; !ok {
		t.Fatalf("page_errors.csv header %q has no seed column", recs[0])
	}
	seen := map[string][]string{}
	for _, r := range recs[1:] {
		k := fmt.Sprintf("%s %s %s %s", r[col["page_id"]], r[col["sampler"]], r[col["kind"]], r[col["method"]])
		seen[k] = append(seen[k], r[col["seed"]])
	}
	if len(seen) == 0 {
		t.Fatal("page_errors.csv has no rows")
	}
	for k, ss := range seen {
		slices.Sort(ss)
		if !slices.Equal(ss, []string{"0", "1", "2", "3", "4"}) {
			t.Errorf("page_errors.csv: %s has seeds %q, want 0…4 once each", k, ss)
		}
	}
}
