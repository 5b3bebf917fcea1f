package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/replay"
)

func sameNaN(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// replay --write-observations, then estimate on the written logs (with
// replay's --h and --x-max), gives replay's rows exactly; a bad line is
// exit 1 with no output, --skip-bad counts it; a bad --format is exit 2.
func TestEstimateFromReplayLogs(t *testing.T) {
	dir := t.TempDir()
	gen := filepath.Join(dir, "ds")
	if code := execute([]string{"-q", "generate", "--format", "parquet", "--pages", "4", "--span", "60d", "--model", "pareto:2.5,3", "--seed", "2", "-o", gen}); code != exitOK {
		t.Fatalf("generate: exit %d", code)
	}
	for _, format := range []string{"cdxj", "log-lastmod"} {
		rep := filepath.Join(dir, "rep-"+format)
		if code := execute([]string{"-q", "replay", gen, "--top", "3", "--sampler", "exp:2", "--sampler", "const:0.5", "--h", "0.1", "--x-max", "20",
			"--write-observations", format, "-o", rep}); code != exitOK {
			t.Fatalf("replay: exit %d", code)
		}
		meta, rows, err := replay.ReadEstimates(rep)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range meta.Samplers {
			est := filepath.Join(dir, "est-"+format+spec)
			if code := execute([]string{"-q", "estimate", filepath.Join(rep, meta.Observations.Files[spec]), "--h", "0.1", "--x-max", "20", "--curves", "full", "-o", est}); code != exitOK {
				t.Fatalf("estimate %s: exit %d", spec, code)
			}
			var got []estimator.Estimate
			if err := estimates.Each(est, func(e *estimator.Estimate) error { got = append(got, *e); return nil }); err != nil {
				t.Fatal(err)
			}
			type key struct{ url, method, kind string }
			want := map[key]estimator.Estimate{}
			for _, r := range rows {
				if r.Sampler == spec && r.Method != estimator.MethodTruth {
					want[key{replay.ObservedID(r.PageID), r.Method, r.Kind}] = r
				}
			}
			if len(got) != len(want) || len(got) == 0 {
				t.Fatalf("%s %s: estimate wrote %d rows, replay %d", format, spec, len(got), len(want))
			}
			for _, g := range got {
				r, ok := want[key{g.Title, g.Method, g.Kind}]
				if !ok || !sameFloatsNaN(g.CDF.X, r.CDF.X) || !sameFloatsNaN(g.CDF.P, r.CDF.P) || !sameNaN(g.Rate, r.Rate) || g.CDF.Samples != r.CDF.Samples || g.Note != r.Note {
					t.Fatalf("%s %s %s %s %s: estimate and replay differ (in replay: %v)", format, spec, g.Title, g.Method, g.Kind, ok)
				}
			}
			b, err := tables.Read(est)
			if err != nil || len(b.Tables) != 3 || len(b.Figures) == 0 {
				t.Errorf("%s: tables %v, %d figures, %v", est, b != nil && len(b.Tables) == 3, len(b.Figures), err)
			}
		}
	}
	notOurs := filepath.Join(dir, "mine")
	os.MkdirAll(notOurs, 0o755)
	os.WriteFile(filepath.Join(notOurs, "notes.txt"), []byte("mine"), 0o644)
	bad := filepath.Join(dir, "bad.cdx")
	os.WriteFile(bad, []byte("com,a)/ 20200101000000 http://a/ text/html 200 A 1\ncom,a)/ 20200101000100 http://a/ text/html 200 B 1\ncom,a)/ 2020-01 http://a/ text/html 200 C 1\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-q", "estimate", bad, "-o", filepath.Join(dir, "e1")}, exitBadInput},
		{[]string{"-q", "estimate", bad, "--skip-bad", "-o", filepath.Join(dir, "e2")}, exitOK},
		{[]string{"-q", "estimate", bad, "--format", "warc", "-o", filepath.Join(dir, "e3")}, exitUsage},
		{[]string{"-q", "estimate", bad, "--methods", "M9", "-o", filepath.Join(dir, "e4")}, exitUsage},
		{[]string{"-q", "estimate", filepath.Join(dir, "missing.cdx"), "-o", filepath.Join(dir, "e5")}, exitBadInput},
	} {
		if got := execute(c.args); got != c.code {
			t.Errorf("revisit %v: exit %d, want %d", c.args, got, c.code)
		}
		if _, err := os.Stat(c.args[len(c.args)-1]); os.IsNotExist(err) != (c.code != exitOK) {
			t.Errorf("revisit %v: output there: %v, want %v", c.args, !os.IsNotExist(err), c.code == exitOK)
		}
	}
	// a directory that is not an estimate output is refused, untouched
	if got := execute([]string{"-q", "estimate", bad, "--skip-bad", "-o", notOurs}); got != exitUsage {
		t.Errorf("estimate into a user's directory: exit %d, want %d", got, exitUsage)
	}
	if b, err := os.ReadFile(filepath.Join(notOurs, "notes.txt")); err != nil || string(b) != "mine" {
		t.Errorf("the user's file: %q, %v", b, err)
	}
}

func sameFloatsNaN(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameNaN(a[i], b[i]) {
			return false
		}
	}
	return true
}
