package replay

import (
	"encoding/csv"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// anarchism reads the real Anarchism history (enwiki, 15,180 revisions,
// 2001–2010, SOURCES.md) from the derived revision list and normalizes it
// (one same-second pair collapses: 15,179 updates).
func anarchism(t *testing.T) series.Page {
	t.Helper()
	f, err := os.Open(realdata.Path(t, "wikipedia/_derived/revision_timestamps.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	raw := series.RawPage{Title: "Anarchism", Resolution: 1}
	for _, r := range recs[1:] {
		if !strings.HasSuffix(r[0], "large.xml.lzma") {
			continue
		}
		ts, err := time.Parse(time.RFC3339, r[5])
		if err != nil {
			t.Fatal(err)
		}
		raw.Revisions = append(raw.Revisions, ts.Unix())
	}
	if len(raw.Revisions) != 15180 {
		t.Fatalf("%d revisions, SOURCES.md says 15,180", len(raw.Revisions))
	}
	p := raw.Normalize()
	if p.Collapsed != 1 {
		t.Fatalf("collapsed %d, SOURCES.md says one same-second pair", p.Collapsed)
	}
	return p
}

// On the real Anarchism history (8 years, E[U] = 4.8 h) a crawler at
// λ = 2/h sees enough to pin G_U down: the consistent estimators M2, M4,
// M5, M6 are within KS 0.03 of the page's true G_U (the noise of ≈ 140,000
// visits over ≈ 15,000 cycles is ~1/√15,000 ≈ 0.01; M6 adds its bin bias),
// and the biased M1 and M3 are far away (KS ≥ 0.1): the page is not Poisson.
func TestAnarchismReplay(t *testing.T) {
	p := anarchism(t)
	times := transform.Times(p.Updates, transform.Hour)
	u := transform.Intervals(p.Updates, transform.Hour)
	if m := transform.MeanInterval(u); math.Abs(m-4.8) > 0.05 {
		t.Fatalf("E[U] = %.3f h, SOURCES.md says 4.8 h", m)
	}
	for _, spec := range []string{"exp:2", "const:0.5"} {
		s, _ := estimator.ParseSampler(spec)
		est, err := ReplayTimes(times, s, model.NewRand(1, streamOf(p.ID, spec, 0)), estimator.Config{H: 0.05, XMax: 200})
		if err != nil {
			t.Fatal(err)
		}
		m := byMethod(est)
		truth := m["truth/G"].CDF.P
		for _, name := range []string{"M2", "M4", "M5", "M6"} {
			e, ok := m[name+"/G"]
			if !ok {
				continue
			}
			if k := ks(e.CDF.P, truth); k > 0.03 {
				t.Errorf("%s %s: KS to the true G_U %.4f, want ≤ 0.03", spec, name, k)
			}
		}
		// M1 and M3 estimate something else (Ḡ_1, 1 − Ḡ_3): on this bursty page they are far from G_U.
		for _, name := range []string{"M1", "M3"} {
			if e, ok := m[name+"/G"]; ok {
				if k := ks(e.CDF.P, truth); k < 0.1 {
					t.Errorf("%s %s: KS to G_U only %.4f; the biased methods should be far off on a non-Poisson page", spec, name, k)
				}
			}
		}
	}
}
