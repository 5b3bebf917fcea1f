package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/analysis/nhpp"
	"github.com/revisit-dev/revisit/analysis/staleness"
	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// writeLog writes a generic CSV log of pages × updates (hourly timestamps
// with uneven gaps) and returns its path.
func writeLog(t *testing.T, dir string, pages, updates int) string {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("id,time\n")
	t0 := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for p := 0; p < pages; p++ {
		at := t0
		for i := 0; i < updates; i++ {
			at = at.Add(time.Duration(1+(i*7+p*13)%11) * time.Hour)
			fmt.Fprintf(&sb, "page%d,%s\n", p, at.Format(time.RFC3339))
		}
	}
	in := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return in
}

func testConfig(in, out string) Config {
	c := DefaultConfig()
	c.Inputs, c.Out = []string{in}, out
	c.Top, c.Reps, c.XMax = 3, 19, 10
	c.Ingest.Generic.ID, c.Ingest.Generic.Time = "id", "time"
	c.Ingest.Generic.Format, c.Ingest.Generic.TimeLayout = "auto", "auto"
	return c
}

// Run goes through the seven stages in order and writes every stage
// directory; the NHPP and staleness results, computed by analysis.Run,
// are the bundles nhpp.Analyze and staleness.Analyze give on the busiest
// pages of the dataset (the way run computed them before it called
// analysis), in directories of their own, and not also in analysis/.
func TestRunStagesAndLocalizedResults(t *testing.T) {
	dir := t.TempDir()
	in := writeLog(t, dir, 25, 40)
	out := filepath.Join(dir, "out")
	c := testConfig(in, out)
	var stages []int
	c.OnStage = func(n int) { stages = append(stages, n) }
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 2, 3, 4, 5, 6, 7}; !slices.Equal(stages, want) {
		t.Errorf("stages %v, want %v", stages, want)
	}
	for _, sub := range append([]string{"dataset"}, stageDirs[:]...) {
		if _, err := os.Stat(filepath.Join(out, sub, stageMarker(sub))); err != nil {
			t.Errorf("%s: %v", sub, err)
		}
	}
	if res.Report != filepath.Join(out, "report") || res.Defaults.Unit != transform.Hour || res.Defaults.Cycle != DefaultCycle || res.Defaults.Grouping != HashedSites {
		t.Errorf("result %s, defaults %+v", res.Report, res.Defaults)
	}
	// The rows analysis gets are replay's whole rows: every row of the
	// constant-delay sampler says so (a field-by-field copy dropped it).
	rows, _, err := analysis.ReadReplay(filepath.Join(out, "replay"))
	if err != nil {
		t.Fatal(err)
	}
	var nConst int
	for _, r := range rows {
		if r.Constant != strings.HasPrefix(r.Sampler, "const:") {
			t.Fatalf("row %s %s %s: constant %v", r.Sampler, r.Method, r.Kind, r.Constant)
		}
		if r.Constant {
			nConst++
		}
	}
	if nConst == 0 {
		t.Error("no row of a constant-delay sampler")
	}

	// The reference: the busiest pages, as run selected them before.
	ds, err := dataset.Open(filepath.Join(out, "dataset"))
	if err != nil {
		t.Fatal(err)
	}
	keep := transform.NewTopKeeper(c.NHPPPages)
	if err := ds.Each(func(p *series.Page) error { keep.Offer(p); return nil }); err != nil {
		t.Fatal(err)
	}
	pages := keep.Pages()
	if len(pages) != 25 {
		t.Fatalf("%d pages in the dataset, want 25", len(pages))
	}
	ctx := context.Background()
	nb, err := nhpp.Analyze(ctx, pages, transform.Hour, nhpp.Options{Dataset: ds.Dir})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := staleness.Analyze(ctx, pages, transform.Hour, staleness.Options{Seed: c.Seed, Dataset: ds.Dir})
	if err != nil {
		t.Fatal(err)
	}
	an, err := tables.Read(filepath.Join(out, "analysis"))
	if err != nil {
		t.Fatal(err)
	}
	for kind, ref := range map[string]*tables.Bundle{"nhpp": nb, "staleness": sb} {
		refDir := filepath.Join(dir, "ref-"+kind)
		if err := ref.Write(refDir); err != nil {
			t.Fatal(err)
		}
		want, err := tables.Read(refDir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tables.Read(filepath.Join(out, kind))
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Tables) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s/: %d tables, %d figures; want the %d tables, %d figures of %s.Analyze", kind, len(got.Tables), len(got.Figures), len(want.Tables), len(want.Figures), kind)
		}
		for _, tb := range want.Tables {
			for _, a := range an.Tables {
				if a.ID == tb.ID {
					t.Errorf("analysis/ holds %s's table %s too", kind, tb.ID)
				}
			}
		}
	}
}

// Cancelled as the NHPP stage starts, Run fails with context.Canceled
// (not a usage error) and leaves no nhpp/ or later stage.
func TestRunCancelledAtNHPP(t *testing.T) {
	dir := t.TempDir()
	in := writeLog(t, dir, 25, 40)
	out := filepath.Join(dir, "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := testConfig(in, out)
	c.OnStage = func(n int) {
		if n == 4 {
			cancel()
		}
	}
	_, err := Run(ctx, c)
	var ue *UsageError
	if !errors.Is(err, context.Canceled) || errors.As(err, &ue) {
		t.Fatalf("Run cancelled at NHPP: %v, want context.Canceled", err)
	}
	for _, sub := range []string{"nhpp", "staleness", "policies", "report"} {
		if _, err := os.Stat(filepath.Join(out, sub)); !os.IsNotExist(err) {
			t.Errorf("%s/ exists after the cancel (%v)", sub, err)
		}
	}
}

// The defaults follow the source's resolution and the user's choices.
func TestDefaultsOf(t *testing.T) {
	sec := &series.Page{Resolution: 1, Updates: []int64{0, 3600, 7200}}
	day := &series.Page{Resolution: units.Day, Updates: []int64{0, units.Day, 3 * units.Day}}
	c := DefaultConfig()
	if d := DefaultsOf(&c, sec, true); d.Unit != 3600 || d.UnitName != "h" || d.DateOnly || d.Cycle != "7d" || d.Grouping != "group" || d.Samplers != nil || d.Choice.XMax != 0 || d.Choice.H != 0 {
		t.Errorf("1-s source: %+v", d)
	}
	if d := DefaultsOf(&c, day, false); d.Unit != units.Day || d.UnitName != "d" || !d.DateOnly || d.Cycle != "30d" || d.Grouping != "hash:10" {
		t.Errorf("date-only source: %+v", d)
	}
	c.Rate, c.Cycle, c.Unit, c.XMax, c.H = 4, "3d", 60, 50, 0.5
	d := DefaultsOf(&c, day, false)
	if d.Unit != 60 || d.UnitName != "min" || d.Cycle != "3d" || !slices.Equal(d.Samplers, []string{"exp:4", "const:0.25"}) || d.Choice.XMax != 50 || d.Choice.H != 0.5 {
		t.Errorf("given values: %+v", d)
	}
	// Page gives replay's per-page values: h = 0.5 and x_max = 50 as given.
	if pd := d.Page(day); pd.H != 0.5 || pd.XMax != 50 {
		t.Errorf("Page: %+v", pd)
	}
	c.Samplers = []string{"const:1"}
	if d := DefaultsOf(&c, sec, true); !slices.Equal(d.Samplers, []string{"const:1"}) {
		t.Errorf("given samplers replaced by %v", d.Samplers)
	}
}

// The ingest stage line names a few inputs, not a glob's hundreds.
func TestInputsLabel(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"a.xml"}, "a.xml"},
		{[]string{"a", "b", "c"}, "a b c"},
		{[]string{"af.json", "am.json", "an.json", "ar.json"}, "af.json am.json and 2 more inputs"},
	} {
		if got := inputsLabel(c.in); got != c.want {
			t.Errorf("inputsLabel(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A --budget of more pages than the corpus has cannot be run; the policies
// are then skipped (like on a corpus too small for them), not made fatal at
// stage 6 after replay and analysis, losing the whole report.
func TestRunBudgetOverPagesSkipsPolicies(t *testing.T) {
	dir := t.TempDir()
	in := writeLog(t, dir, 25, 40)
	out := filepath.Join(dir, "out")
	c := testConfig(in, out)
	c.Budget = "100" // > 25 pages
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatalf("run with --budget 100 on 25 pages: %v", err)
	}
	if _, err := os.Stat(filepath.Join(res.Report, "index.html")); err != nil {
		t.Errorf("no report: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "policies")); !os.IsNotExist(err) {
		t.Errorf("policies/ written with a budget over the pages (%v)", err)
	}
}

// An --include directory that holds no results (a typo: the simulation's
// tables/ instead of its directory, or another directory) is refused
// before any work, naming it, as revisit report refuses it; nothing is
// written. Before, the run went through every stage and its report
// silently lacked what was to be included.
func TestRunIncludeWithoutResultsRefusedFirst(t *testing.T) {
	dir := t.TempDir()
	in := writeLog(t, dir, 25, 40)
	notes := filepath.Join(dir, "notes")
	if err := os.Mkdir(notes, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notes, "a.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	c := testConfig(in, out)
	c.Include = []string{notes}
	stages := 0
	c.OnStage = func(int) { stages++ }
	_, err := Run(context.Background(), c)
	if err == nil || !strings.Contains(err.Error(), notes) || !strings.Contains(err.Error(), "no tables or figures") {
		t.Fatalf("run --include %s: %v, want a refusal naming it", notes, err)
	}
	if stages != 0 {
		t.Errorf("refused after %d stages, want before any work", stages)
	}
	if _, err := os.Lstat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("-o %s exists after the refusal (%v)", out, err)
	}
}
