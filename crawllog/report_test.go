package crawllog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/visits"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
)

// The estimate report had no inputs (duplicates and bad lines appeared
// nowhere), put URLs under "Top pages" and curves under "Estimates vs
// truth" with no truth, and showed spans of years in hours. It now has
// an Inputs table with what the reader counted, sections named for URLs,
// and times in a unit chosen from the spans.
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
		if !strings.HasPrefix(f.XLabel, "x (y)") || !strings.Contains(f.Caption, "monotone projection") {
			t.Errorf("figure %s: x label %q, caption %q; want years and the projection named", f.ID, f.XLabel, f.Caption)
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
	// span 2015-01-01 … 2020-06-01: 1978 days = 5.416 y, in a column of years
	for i, c := range urls.Columns {
		if c.Name == "span" {
			want := float64(1978) * units.Day / units.Year
			if got := urls.Rows[0][i].(float64); c.Unit != "y" || got < want-1e-9 || got > want+1e-9 {
				t.Errorf("span %g %s, want %g y", got, c.Unit, want)
			}
		}
	}
}

// displayUnit: the largest unit the median span reaches.
func TestDisplayUnit(t *testing.T) {
	for _, c := range []struct {
		spans []float64 // in hours
		want  float64
	}{
		{[]float64{67546}, units.Year}, {[]float64{0.11, 0.12, 100}, units.Minute}, {[]float64{24, 50}, units.Day},
		{[]float64{0.0001}, units.Second}, {[]float64{3, 5, 8000, 9000}, units.Day}, // median 4,002.5 h
	} {
		var sums []URLSummary
		for _, s := range c.spans {
			sums = append(sums, URLSummary{Span: s})
		}
		if got := displayUnit(&EstimateMeta{Unit: units.Hour}, sums); got != c.want {
			t.Errorf("spans %v h: unit %g s, want %g s", c.spans, got, c.want)
		}
	}
}
