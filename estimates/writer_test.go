package estimates

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
)

// The same rows must give the same bytes: a column whose dictionary
// outgrows its page falls back to plain pages, and arrow-go lists such a
// chunk's encodings in map order, so with dictionaries on float columns
// two writes of these rows differed in their footers about half the time.
func TestEstimateWriterDeterministic(t *testing.T) {
	x := make([]float64, 1<<17) // 1 MiB of distinct values: past the dictionary page
	for i := range x {
		x[i] = float64(i) * 1.000001
	}
	e := estimator.Estimate{PageID: 1, Title: "t", Sampler: "exp:2", Method: "M6", Kind: estimator.KindG, H: 0.1}
	e.CDF.X, e.CDF.P = x, x
	var first []byte
	for k := range 8 {
		name := filepath.Join(t.TempDir(), "e.parquet")
		w, err := NewWriter(name)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if err := w.Write(&e); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			first = b
		} else if !bytes.Equal(b, first) {
			t.Fatalf("write %d of the same rows gave other bytes than the first", k+1)
		}
	}
}
