package dataset

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/revisit-dev/revisit/series"
)

// source_id, the page's id in its source, is written and read back; a
// dataset written before it (Schema without its last column) still
// reads, with empty source ids, alone and combined with a new one.
func TestSourceIDAndOlderDatasets(t *testing.T) {
	tmp := t.TempDir()
	pages := samplePages(6)
	for i := range pages {
		pages[i].SourceID = fmt.Sprint(1000 + i)
	}
	all := func(dir string) []series.Page {
		t.Helper()
		ps, err := mustOpen(t, dir).All()
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	newDS := filepath.Join(tmp, "new")
	writeDS(t, newDS, pages[:3], 0, &Manifest{})
	if got := all(newDS); !reflect.DeepEqual(got, pages[:3]) {
		t.Errorf("read back %+v, want %+v", got, pages[:3])
	}

	oldDS := filepath.Join(tmp, "old")
	writeDS(t, oldDS, pages[3:], 0, &Manifest{})
	n := make([]int64, 3)
	for i, p := range pages[3:] {
		n[i] = int64(len(p.Updates))
	}
	writePagesFile(t, filepath.Join(oldDS, PagesFile), arrow.NewSchema(Schema.Fields()[:colSourceID], nil), pages[3:], n)
	want := append([]series.Page(nil), pages[3:]...)
	for i := range want {
		want[i].SourceID = ""
	}
	if got := all(oldDS); !reflect.DeepEqual(got, want) {
		t.Errorf("older dataset: read %+v, want %+v", got, want)
	}

	both := filepath.Join(tmp, "both")
	if _, err := Combine(context.Background(), []string{newDS, oldDS}, both); err != nil {
		t.Fatal(err)
	}
	if got := all(both); !reflect.DeepEqual(got, append(append([]series.Page(nil), pages[:3]...), want...)) {
		t.Errorf("combined: read %+v", got)
	}
}
