package dataset

import (
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

// Span is the earliest first and the latest last update of the pages,
// in Unix seconds (the file keeps them as milliseconds).
func TestSpan(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, ups := range [][]int64{{1_600_000_500, 1_600_003_000}, {1_600_000_007}, {1_600_001_000, 1_600_090_001}} {
		p := series.Page{ID: int64(i + 1), Source: "test", Title: "p", Resolution: 1, Updates: ups}
		if err := w.Write(&p); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(&Manifest{}); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	first, last, ok, err := r.Span()
	if err != nil || !ok || first != 1_600_000_007 || last != 1_600_090_001 {
		t.Errorf("span %d – %d (%v, %v), want 1600000007 – 1600090001", first, last, ok, err)
	}
}
