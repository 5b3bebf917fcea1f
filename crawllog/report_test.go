package crawllog

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/visits"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
)

// The estimate report has an Inputs table with what the reader counted
// (duplicates and bad lines included), sections named for URLs (not "Top
// pages", nor "Estimates vs truth" without a truth), and, as every
// report, durations in the estimate's unit in columns and axes of
// durations (the report shows each in a unit chosen from its values:
// TestEstimateReportUnits), rates per that unit, and distribution
// functions on [0, 1].
func TestEstimateReportInputsSectionsUnits(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "a.cdx")
	// URL a: captures a year apart (2015…2020), one duplicate in the same
	// second, a revisit record of the first payload; a redirect; a bad line.
	data := " CDX N b a m s k r M S V g\n" +
		"com,a)/ 20150101000000 http://a.com/ text/html 200 AAAA - - 1 0 w\n" +
		"com,a)/ 20160101000000 http://a.com/ text/html 200 BBBB - - 1 0 w\n" +
		"com,a)/ 20160101000000 http://a.com/ text/html 200 BBBB - - 1 0 w\n" +
		"com,a)/ 20170101000000 http://a.com/ warc/revisit - BBBB - - 1 0 w\n" +
		"com,a)/ 20180101000000 http://www.a.com/ text/html 200 CCCC - - 1 0 w\n" +
		"com,a)/ 2019-01 http://a.com/ text/html 200 DDDD - - 1 0 w\n" +
		"com,a)/ 20200101000000 http://a.com/ text/html 301 EEEE - - 1 0 w\n" +
		"com,a)/ 20200601000000 http://a.com/ text/html 200 CCCC - - 1 0 w\n"
	if err := os.WriteFile(log, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "est")
	m, err := EstimateLogs(context.Background(), EstimateOptions{Inputs: []string{log}, Out: out, Read: visits.Options{SkipBad: true, Format: "auto", MaxObservations: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Bad != 1 || m.Skipped["same_second"] != 1 || m.RevisitsResolved != 1 || m.MergedKeys != 1 || m.MergedOriginals != 2 {
		t.Fatalf("estimate.json: bad %d, skipped %v, revisits resolved %d, merged keys %d/%d; want 1, 1 same second, 1, 1/2", m.Bad, m.Skipped, m.RevisitsResolved, m.MergedKeys, m.MergedOriginals)
	}
	b, err := tables.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]int64{}
	sections := map[tables.Section]bool{}
	var urls *tables.Table
	for i, tab := range b.Tables {
		sections[tab.Section] = true
		if tab.ID == "estimate_inputs" {
			for _, r := range tab.Rows {
				in[r[0].(string)] = r[1].(int64)
			}
		}
		if tab.ID == "estimate_urls" {
			urls = &b.Tables[i]
		}
	}
	for what, n := range map[string]int64{
		"captures read": 7, "bad lines skipped (--skip-bad)": 1, "duplicates merged (another capture in the same second)": 1,
		"revisit records resolved (payload found earlier)": 1, "skipped: status 3xx (redirect)": 1,
		"keys grouping captures of several original URLs (SURT key)": 1, "original URLs in those keys": 2, "URLs estimated": 1,
	} {
		if got, ok := in[what]; !ok || got != n {
			t.Errorf("inputs table: %q = %d (present %v), want %d; table %v", what, got, ok, n, in)
		}
	}
	for _, f := range b.Figures {
		sections[f.Section] = true
		if f.XLabel != "x" || f.XUnit != m.UnitName || f.YKind != tables.YProbability || !strings.Contains(f.Caption, "monotone projection") {
			t.Errorf("figure %s: x label %q in %q, y %q, caption %q; want x in %s, a probability, the projection named", f.ID, f.XLabel, f.XUnit, f.YKind, f.Caption, m.UnitName)
		}
	}
	for _, s := range []tables.Section{tables.SectionTopPages, tables.SectionEstimates, tables.SectionScreen} {
		if sections[s] {
			t.Errorf("section %q in an estimate report", s.Title())
		}
	}
	for _, s := range []tables.Section{tables.SectionInputs, tables.SectionTopURLs, tables.SectionVerdict, tables.SectionObservedCurve} {
		if !sections[s] {
			t.Errorf("no section %q", s.Title())
		}
	}
	if urls == nil {
		t.Fatal("no estimate_urls table")
	}
	// span 2015-01-01 … 2020-06-01: 1978 days = 47,472 h, in a column of
	// durations in hours (the estimate's unit), λ̂ per hour
	for i, c := range urls.Columns {
		switch c.Name {
		case "span":
			want := float64(1978) * units.Day / units.Hour
			if got := urls.Rows[0][i].(float64); c.Unit != "h" || c.Kind != tables.Duration || got != want {
				t.Errorf("span %g %s (%v), want %g h, a duration", got, c.Unit, c.Kind, want)
			}
		case "Δ", "median age":
			if c.Unit != "h" || c.Kind != tables.Duration {
				t.Errorf("%s: unit %q, kind %v; want h, a duration", c.Name, c.Unit, c.Kind)
			}
		case "poisson-mle λ̂":
			if c.Unit != "1/h" || c.Kind != tables.Float {
				t.Errorf("%s: unit %q, kind %v; want 1/h", c.Name, c.Unit, c.Kind)
			}
		}
	}
}

// A URL that saw no change is drawn like any other: its G_U and F_U figures
// both exist, as distribution functions (on [0, 1], not the −1…1 a flat 0
// gets), and each caption names the curves it does not draw and why (G-M4
// without a sample; M6's F_U, which no projection of a flat 0 recovers).
func TestEstimateFiguresOfAURLWithNoChange(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "same.cdx")
	var b strings.Builder
	for i, ts := range []string{"20200101000000", "20200101013000", "20200101050000", "20200101053000", "20200101110000", "20200101120000", "20200101190000"} {
		fmt.Fprintf(&b, "com,same)/ %s http://same.com/ text/html 200 SAME - - 1 %d w\n", ts, i)
	}
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "est")
	if _, err := EstimateLogs(context.Background(), EstimateOptions{Inputs: []string{log}, Out: out, Recover: true}); err != nil {
		t.Fatal(err)
	}
	bundle, err := tables.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	figs := map[string]tables.Figure{}
	for _, f := range bundle.Figures {
		figs[f.ID] = f
	}
	for id, want := range map[string][]string{
		"estimate_G_1": {"G-M4 (undefined: no samples)"},
		"estimate_F_1": {"M6 (undefined: ", "G-M4 (no F_U: "},
	} {
		f, ok := figs[id]
		if !ok {
			t.Errorf("no figure %s (figures %v)", id, slices.Collect(maps.Keys(figs)))
			continue
		}
		if f.YKind != tables.YProbability || len(f.Curves) == 0 {
			t.Errorf("%s: y %q, %d curves", id, f.YKind, len(f.Curves))
		}
		for _, w := range want {
			if !strings.Contains(f.Caption, "Not drawn: ") || !strings.Contains(f.Caption, w) {
				t.Errorf("%s: caption %q, want %q among the curves not drawn", id, f.Caption, w)
			}
		}
	}
}
