package analysis

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/series"
)

// smallPages are pages the analysis handles quickly (no page reaches the
// Poisson screen's 100 updates).
func smallPages() []series.Page {
	var ps []series.Page
	for id := int64(1); id <= 3; id++ {
		raw := series.RawPage{ID: id, Title: "p", Resolution: 1, Source: "generated"}
		for i := int64(0); i < 20; i++ {
			raw.Revisions = append(raw.Revisions, 1e9+3600*i*i*id)
		}
		ps = append(ps, raw.Normalize())
	}
	return ps
}

// failingSource yields the pages and then fails, as a corrupt dataset
// does halfway through.
func failingSource(ps []series.Page, after int) PageSource {
	return func(fn func(*series.Page) error) error {
		for i := range ps {
			if i == after {
				return errors.New("corrupt row group")
			}
			if err := fn(&ps[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

func sliceSource(ps []series.Page) PageSource { return failingSource(ps, -1) }

// entries lists the names in dir ("" entries when it does not exist).
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestAnalyzeAtomic: a failure midway leaves no results directory (and no
// temporary directory) where none was; an earlier results directory is
// left exactly as it was by a failed run and replaced by a good one.
func TestAnalyzeAtomic(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "a")
	ctx := context.Background()

	// The source fails after the first page: page_stats was being
	// written when it did.
	if _, err := Analyze(ctx, failingSource(smallPages(), 1), Options{Out: out, Unit: 3600}); err == nil {
		t.Fatal("want the source's error")
	}
	if got := entries(t, parent); len(got) != 0 {
		t.Fatalf("failed run left %v beside nothing", got)
	}

	if _, err := Analyze(ctx, sliceSource(smallPages()), Options{Out: out, Unit: 3600}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "page_stats.parquet")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, ".revisit-analysis")); err != nil {
		t.Fatal("no marker:", err)
	}
	// A sentinel in the finished directory tells whether it was touched.
	sentinel := filepath.Join(out, "tables", "sentinel.json")
	if err := os.WriteFile(sentinel, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Analyze(ctx, failingSource(smallPages(), 2), Options{Out: out, Unit: 3600}); err == nil {
		t.Fatal("want the source's error")
	}
	if _, err := os.Stat(sentinel); err != nil {
		t.Fatalf("a failed run changed the earlier results: %v", err)
	}
	if got := entries(t, parent); len(got) != 1 || got[0] != "a" {
		t.Fatalf("entries beside the results after a failed run: %v", got)
	}
	// The sentinel is not revisit's: a good run refuses to replace the
	// results holding it …
	if _, err := Analyze(ctx, sliceSource(smallPages()), Options{Out: out, Unit: 3600}); err == nil {
		t.Fatal("replaced results holding a file revisit did not write")
	}
	if _, err := os.Stat(sentinel); err != nil {
		t.Fatalf("a refused run removed the user's file: %v", err)
	}
	// … and, without it, replaces the earlier results as a whole.
	os.Remove(sentinel)
	before, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Analyze(ctx, sliceSource(smallPages()), Options{Out: out, Unit: 3600}); err != nil {
		t.Fatal(err)
	}
	if after, err := os.Stat(out); err != nil || os.SameFile(before, after) {
		t.Fatalf("the earlier results were not replaced as a whole (%v)", err)
	}
	if got := entries(t, parent); len(got) != 1 || got[0] != "a" {
		t.Fatalf("entries beside the results: %v", got)
	}
}

// TestAnalyzeRefusesUnrelatedDir: a non-empty directory that holds no
// analysis results is not replaced (a typo in -o must not delete files);
// an empty one and one written before the marker existed are.
func TestAnalyzeRefusesUnrelatedDir(t *testing.T) {
	ctx := context.Background()
	mine := filepath.Join(t.TempDir(), "thesis")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(mine, "chapter1.tex")
	if err := os.WriteFile(keep, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Analyze(ctx, sliceSource(smallPages()), Options{Out: mine, Unit: 3600})
	if err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if got := entries(t, mine); len(got) != 1 || got[0] != "chapter1.tex" {
		t.Fatalf("unrelated directory changed: %v", got)
	}

	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Analyze(ctx, sliceSource(smallPages()), Options{Out: file, Unit: 3600}); err == nil {
		t.Fatal("a file as the output directory: want an error")
	}
}
