package replay

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// writeDataset writes pages with renewal updates (Unix seconds, hourly
// scale) and returns the directory.
func writeDataset(t *testing.T, n int) (string, []series.Page) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := dataset.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	var pages []series.Page
	for i := range n {
		r := model.NewRand(77, uint64(i))
		d := model.Pareto{Alpha: 2.5, Beta: 3}
		ups := []int64{1_600_000_000}
		for k := 0; k < 20+30*i; k++ {
			ups = append(ups, ups[len(ups)-1]+1+int64(d.Rand(r)*3600))
		}
		p := series.Page{ID: int64(100 + i), Source: "test", Title: "page " + string(rune('A'+i)), Resolution: 1, Updates: ups}
		if i == 0 {
			p.Updates = ups[:1] // one update: skipped
		}
		if err := w.Write(&p); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, p)
	}
	if err := w.Close(&dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	return dir, pages
}

func TestRunRoundTrip(t *testing.T) {
	ds, pages := writeDataset(t, 6)
	out := filepath.Join(t.TempDir(), "rep")
	opt := Options{Dataset: ds, Out: out, Samplers: []string{"exp:2", "const:0.5"}, H: 0.1, XMax: 20,
		Top: 4, Seed: 11, Workers: 2, Recover: true}
	meta, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	// 6 pages: page 0 has one update (skipped), the top 4 of the other 5 are kept.
	if meta.Pages != 4 || meta.Skipped["fewer_than_2_updates"] != 1 || meta.Skipped["not_in_top"] != 1 {
		t.Fatalf("pages %d skipped %v", meta.Pages, meta.Skipped)
	}
	if meta.Unit != transform.Hour || meta.UnitName != "h" {
		t.Errorf("unit %g %q, want hours for a 1-second source", meta.Unit, meta.UnitName)
	}
	m2, est, err := ReadEstimates(out)
	if err != nil {
		t.Fatal(err)
	}
	if m2.Rows != int64(len(est)) || m2.Seed != 11 {
		t.Fatalf("meta rows %d, read %d", m2.Rows, len(est))
	}
	// Rows per page: exp:2 → M1, M2(G,F), G-M4, M6(G,F), naive×2, age-mle×2, poisson-mle×2, truth×2 = 14;
	// const:0.5 → M1, M2×2, M3, M4×2, M5×2, G-M4, M6×2, naive×2, cho×2, matloff×2, age-mle×2, poisson-mle×2, truth×2 = 23.
	if len(est) != 4*(14+23) {
		t.Errorf("%d rows, want %d", len(est), 4*(14+23))
	}
	// Pages in top order (most updates first), truth equal to transform's.
	byID := map[int64]series.Page{}
	for _, p := range pages {
		byID[p.ID] = p
	}
	if est[0].PageID != 105 {
		t.Errorf("first page %d, want 105 (most updates)", est[0].PageID)
	}
	for _, e := range est {
		if e.Method != estimator.MethodTruth {
			continue
		}
		p := byID[e.PageID]
		u := transform.Intervals(p.Updates, transform.Hour)
		want := transform.AgeCDF(u, e.CDF.X)
		if e.Kind == estimator.KindF {
			want = transform.IntervalCDF(u, e.CDF.X)
		}
		if !reflect.DeepEqual(e.CDF.P, want.P) || e.Title != p.Title {
			t.Fatalf("page %d truth %s differs from transform", e.PageID, e.Kind)
		}
		step := 0.1
		if e.Sampler == "const:0.5" {
			step = 0.5
		}
		if e.CDF.X[1] != step || e.CDF.X[len(e.CDF.X)-1] != 20 {
			t.Fatalf("grid of %s: step %g last %g", e.Sampler, e.CDF.X[1], e.CDF.X[len(e.CDF.X)-1])
		}
	}
	// Same seed, one worker: identical rows (streams do not depend on scheduling).
	opt.Workers, opt.Out = 1, filepath.Join(t.TempDir(), "rep1")
	if _, err := Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	_, est1, err := ReadEstimates(opt.Out)
	if err != nil {
		t.Fatal(err)
	}
	if len(est1) != len(est) {
		t.Fatalf("%d rows with 1 worker, %d with 2", len(est1), len(est))
	}
	for i := range est {
		a, b := est[i], est1[i]
		if a.PageID != b.PageID || a.Method != b.Method || a.Kind != b.Kind || a.CDF.Samples != b.CDF.Samples ||
			!sameFloats(a.CDF.P, b.CDF.P) || !sameFloats([]float64{a.Rate}, []float64{b.Rate}) {
			t.Fatalf("row %d differs between 1 and 2 workers: %+v vs %+v", i, a.Method, b.Method)
		}
	}
	// Replacing an earlier output works; nothing temporary is left behind.
	if _, err := Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(filepath.Dir(opt.Out))
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

func TestRunErrors(t *testing.T) {
	ds, _ := writeDataset(t, 2)
	// A non-empty directory that is not a replay output is not replaced.
	busy := t.TempDir()
	os.WriteFile(filepath.Join(busy, "precious.txt"), []byte("x"), 0o644)
	_, err := Run(context.Background(), Options{Dataset: ds, Out: busy, Samplers: []string{"exp:1"}, H: 0.1, XMax: 5})
	if err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Errorf("non-empty dir: %v", err)
	}
	// A missing dataset is bad input, not bad usage.
	_, err = Run(context.Background(), Options{Dataset: filepath.Join(t.TempDir(), "nope"), Out: filepath.Join(t.TempDir(), "o"),
		Samplers: []string{"exp:1"}, H: 0.1, XMax: 5})
	var oe *OptionError
	if err == nil || strings.Contains(err.Error(), "refusing") || asOption(err, &oe) {
		t.Errorf("missing dataset: %v", err)
	}
	// min-updates filters everything: an empty but valid output.
	out := filepath.Join(t.TempDir(), "o")
	meta, err := Run(context.Background(), Options{Dataset: ds, Out: out, Samplers: []string{"exp:1"}, H: 0.1, XMax: 5, MinUpdates: 1000})
	if err != nil || meta.Pages != 0 || meta.Skipped["min_updates"] != 2 {
		t.Fatalf("min-updates: %v %+v", err, meta)
	}
	if _, est, err := ReadEstimates(out); err != nil || len(est) != 0 {
		t.Errorf("empty output: %d rows, %v", len(est), err)
	}
}

func asOption(err error, oe **OptionError) bool {
	e, ok := err.(*OptionError)
	if ok {
		*oe = e
	}
	return ok
}
