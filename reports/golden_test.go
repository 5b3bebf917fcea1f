package reports

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

var update = flag.Bool("update", false, "rewrite testdata/reports/*.golden from the current output (check them by eye)")

// goldenDir is testdata/reports at the repository root.
const goldenDir = "../testdata/reports"

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, name+".golden")
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports -run Golden -update and check the file by eye)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s:\n--- got\n%s\n--- want\n%s", name, path, got, want)
	}
}

// The golden files were checked by eye against the hand derivations in
// helpers_test.go and TestHuman: humanized numbers in Markdown and LaTeX
// ("15,180", "25.4%", "1.9 MB", "8.3 y", "—"), full precision in CSV
// ("0.254", "262250660", "0.000012346" → "1.2346e-05", NaN → empty).
func TestGoldenWriters(t *testing.T) {
	writers := map[string]func(io.Writer, *tables.Table) error{
		"md": WriteMarkdown, "csv": WriteCSV, "tex": WriteLaTeX,
	}
	for _, tb := range []tables.Table{corpusTable(), emptyTable()} {
		for ext, w := range writers {
			var buf bytes.Buffer
			if err := w(&buf, &tb); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tb.ID+"."+ext, buf.Bytes())
		}
	}
	f := sampleFigures()[1]
	var buf bytes.Buffer
	if err := WriteCurvesCSV(&buf, &f); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "acf.curves.csv", buf.Bytes())
}
