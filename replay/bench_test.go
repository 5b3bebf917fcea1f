package replay

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// BenchmarkReplayTop10: Run on the 10 busiest of 30 Wikipedia-like pages
// (8–10 years, Lomax intervals with E[U] from 3 to 12 h: 7,000–29,000
// updates each), all methods, samplers exp:2 and const:0.5, h = 0.05,
// x_max = 1000 h, all cores.
func BenchmarkReplayTop10(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "ds")
	w, err := dataset.Create(dir)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 30 {
		r := model.NewRand(99, uint64(i))
		eu := 3 + 9*float64(i%10)/9
		d := model.Pareto{Alpha: 1.8, Beta: 0.8 * eu}
		span := (8 + 2*r.Float64()) * 8766 * 3600
		ups := []int64{1_000_000_000}
		for float64(ups[len(ups)-1]-ups[0]) < span {
			ups = append(ups, ups[len(ups)-1]+1+int64(d.Rand(r)*3600))
		}
		if err := w.Write(&series.Page{ID: int64(i), Title: fmt.Sprint("p", i), Resolution: 1, Updates: ups}); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		_, err := Run(context.Background(), Options{Dataset: dir, Out: filepath.Join(b.TempDir(), "out"),
			Samplers: []string{"exp:2", "const:0.5"}, H: 0.05, XMax: 1000, Top: 10, Seed: 1, Recover: true})
		if err != nil {
			b.Fatal(err)
		}
	}
}
