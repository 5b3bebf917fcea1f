package main

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The estimate report follows the units of every report: the CSVs keep the
// estimate's unit (h), and people read each duration column in the largest
// unit its values reach. A URL captured every 12 h for 3 years (span 2,199 ×
// 12 = 26,388 h): in estimate_urls.md Δ reads in h, the span in y, the median
// age in the unit its value reaches, λ̂ per hour; in the CSV all three are
// hours.
func TestEstimateReportUnits(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 1))
	var b strings.Builder
	t0 := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	digest := "A0"
	for i := range 2200 {
		if rng.Float64() < 0.3 {
			digest = fmt.Sprintf("D%d", i)
		}
		fmt.Fprintf(&b, "com,x)/ %s http://x.com/ text/html 200 %s - - 1 %d w\n", t0.Add(time.Duration(i)*12*time.Hour).Format("20060102150405"), digest, i)
	}
	log := filepath.Join(dir, "x.cdx")
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	est, rep := filepath.Join(dir, "est"), filepath.Join(dir, "rep")
	if code := execute([]string{"-q", "estimate", log, "-o", est}); code != exitOK {
		t.Fatalf("estimate: exit %d", code)
	}
	if code := execute([]string{"-q", "report", est, "-o", rep}); code != exitOK {
		t.Fatalf("report: exit %d", code)
	}
	f, err := os.Open(filepath.Join(rep, "tables", "estimate_urls.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) != 2 {
		t.Fatalf("estimate_urls.csv: %v, %d records", err, len(recs))
	}
	cell := map[string]float64{}
	for i, h := range recs[0] {
		if v, err := strconv.ParseFloat(recs[1][i], 64); err == nil {
			cell[h] = v
		}
	}
	if cell["Δ (h)"] != 12 || cell["span (h)"] != 26388 || !(cell["median age (h)"] > 0) || !(cell["poisson-mle λ̂ (1/h)"] > 0) {
		t.Fatalf("estimate_urls.csv %v: want Δ 12 h, span 26,388 h, a median age in h, λ̂ per hour", recs)
	}
	ageUnit := "h" // the largest of h, d, y the median age reaches
	switch age := cell["median age (h)"]; {
	case age >= 365.25*24:
		ageUnit = "y"
	case age >= 24:
		ageUnit = "d"
	}
	md, err := os.ReadFile(filepath.Join(rep, "tables", "estimate_urls.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"| Δ (h) |", "| span (y) |", "| median age (" + ageUnit + ") |", "| poisson-mle λ̂ (1/h) |"} {
		if !strings.Contains(string(md), h) {
			t.Errorf("estimate_urls.md has no column %q:\n%s", h, md)
		}
	}
	g, err := os.ReadFile(filepath.Join(rep, "figures", "estimate_G_1.csv"))
	if err != nil || !strings.HasPrefix(string(g), "curve,x (h),") {
		t.Errorf("estimate_G_1.csv: %v, begins %.40q; want x in h", err, g)
	}
}
