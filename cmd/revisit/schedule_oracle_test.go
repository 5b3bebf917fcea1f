package main

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/tables"
)

// The oracle of schedule --validate is the optimum of every constant-rate plan
// (SPEC §4.6): on the 118 COVID-19 editions (const:1, 100/d) it realises what
// it predicts (within 0.05 points) and at least 85.3 %; there, on the 1,000
// enwiki articles and on 200 ON/OFF pages it realises at least as much as
// every other plan.
func TestScheduleOracleIsOptimum(t *testing.T) {
	if testing.Short() {
		t.Skip("validates on three corpora")
	}
	real := realdata.Dir(t)
	dir := t.TempDir()
	cases := []struct {
		name    string
		prepare []string
		args    []string
		min     float64
	}{
		{"covid19", []string{"ingest", filepath.Join(real, "wikipedia/_derived/covid19_editions.csv.gz"), "--id", "edition", "--time", "timestamp", "--min-updates", "1"},
			[]string{"--sampler", "const:1", "--budget", "100/d"}, 0.853},
		{"enwiki1000", []string{"ingest", filepath.Join(real, "wikipedia/Kevinisagirl__Wikipedia-Revisions-1000-articleid-sample/articlesthatareoldenough.txt.gz"), "--id", "0", "--title-column", "1", "--time", "2", "--min-updates", "1"},
			[]string{"--sampler", "const:24", "--budget", "500/d"}, 0},
		{"onoff", []string{"generate", "--format", "parquet", "--pages", "200", "--span", "2y", "--model", "onoff:2,(pareto:1.5,1),(pareto:1.2,100)", "--seed", "1"},
			[]string{"--sampler", "const:1", "--budget", "100/d"}, 0},
	}
	for _, c := range cases {
		ds := filepath.Join(dir, c.name)
		if code := execute(append(append([]string{"-q"}, c.prepare...), "-o", ds)); code != exitOK {
			t.Fatalf("%s: %v: exit %d", c.name, c.prepare, code)
		}
		out := filepath.Join(dir, "res-"+c.name)
		args := append([]string{"-q", "schedule", "--validate", ds, "--origins", "1", "-o", out}, c.args...)
		if code, stderr := stderrOf(t, args...); code != exitOK {
			t.Fatalf("%s: exit %d: %s", c.name, code, stderr)
		}
		b, err := tables.Read(out)
		if err != nil {
			t.Fatal(err)
		}
		var oracle []any
		for _, r := range b.Tables[0].Rows {
			if r[0] == "oracle" {
				oracle = r
			}
		}
		if oracle == nil {
			t.Fatalf("%s: no oracle row", c.name)
		}
		real, pred := oracle[1].(float64), oracle[4].(float64)
		t.Logf("%s: oracle realises %.4f, predicts %.4f", c.name, real, pred)
		if math.Abs(real-pred) > 0.0005 || real < c.min {
			t.Errorf("%s: oracle realises %.4f, predicts %.4f (want equal within 0.05 points, ≥ %g)", c.name, real, pred, c.min)
		}
		for _, r := range b.Tables[0].Rows {
			if v := r[1].(float64); v > real+1e-9 {
				t.Errorf("%s: %s realises %.4f, more than the oracle's %.4f", c.name, r[0], v, real)
			}
		}
	}
}
