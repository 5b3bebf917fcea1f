package tables

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	in := Bundle{
		Tables: []Table{{ID: "b", Section: 2, Title: "T", Columns: []Column{{Name: "n", Kind: Int}, {Name: "x", Kind: Float}, {Name: "s", Kind: String}},
			Rows: [][]any{{int64(1<<60 + 1), 0.125, "a"}, {int64(2), math.NaN(), "b"}}},
			{ID: "a", Section: 1, Title: "First"}},
		Figures: []Figure{{ID: "f", Curves: []Curve{{Name: "c", X: []float64{1, math.Inf(1), 3}, Y: []float64{1, 2, 3}}}}},
	}
	if err := in.Write(dir); err != nil {
		t.Fatal(err)
	}
	out, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Tables) != 2 || out.Tables[0].ID != "a" {
		t.Fatalf("tables not sorted by section: %+v", out.Tables)
	}
	rows := out.Tables[1].Rows
	if rows[0][0] != int64(1<<60+1) || rows[0][1] != 0.125 || rows[0][2] != "a" {
		t.Fatalf("row 0 = %#v", rows[0])
	}
	if f, ok := rows[1][1].(float64); !ok || !math.IsNaN(f) {
		t.Fatalf("NaN cell came back as %#v", rows[1][1])
	}
	if c := out.Figures[0].Curves[0]; !reflect.DeepEqual(c.X, []float64{1, 3}) {
		t.Fatalf("non-finite point kept: %v", c.X)
	}
}

// Read gathers the results of one run: OUT/analysis and OUT/nhpp are read,
// but not a nested run (OUT/other holds its own dataset/manifest.json: a
// different corpus whose tables would appear twice, interleaved) nor an
// interrupted write's OUT/nhpp.tmp. Reading the nested run directly gives
// its own table.
func TestReadSkipsNestedRunsAndTemporaries(t *testing.T) {
	root := t.TempDir()
	put := func(dir, id string) {
		b := Bundle{Tables: []Table{{ID: id, Title: id}}}
		if err := b.Write(filepath.Join(root, dir)); err != nil {
			t.Fatal(err)
		}
	}
	put("analysis", "a")
	put("nhpp", "n")
	put("nhpp.tmp", "stale")
	put("other/analysis", "other")
	if err := os.MkdirAll(filepath.Join(root, "other", "dataset"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "other", "dataset", "manifest.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	ids := func(dir string) []string {
		b, err := Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tb := range b.Tables {
			out = append(out, tb.ID)
		}
		return out
	}
	if got := ids(root); !reflect.DeepEqual(got, []string{"a", "n"}) {
		t.Errorf("Read(OUT) = %v, want [a n]", got)
	}
	if got := ids(filepath.Join(root, "other")); !reflect.DeepEqual(got, []string{"other"}) {
		t.Errorf("Read(OUT/other) = %v, want [other]", got)
	}
}

// An interrupted write leaves a hidden .NAME.tmp-XXXX directory beside the
// results; Read must not pick up its half-written tables.
func TestReadSkipsTemporaryDirectories(t *testing.T) {
	dir := t.TempDir()
	good := Bundle{Tables: []Table{{ID: "kept", Title: "kept"}}}
	if err := good.Write(dir + "/analysis"); err != nil {
		t.Fatal(err)
	}
	half := Bundle{Tables: []Table{{ID: "half", Title: "half-written"}}}
	if err := half.Write(dir + "/.analysis.tmp-123456"); err != nil {
		t.Fatal(err)
	}
	b, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Tables) != 1 || b.Tables[0].ID != "kept" {
		t.Fatalf("read %d tables: %+v", len(b.Tables), b.Tables)
	}
}
