package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/replay"
)

// generatedParquet is `revisit generate --format parquet` of 24 pages
// (some in Talk), read back.
func generatedParquet(t *testing.T, dir string) (string, *dataset.Reader) {
	t.Helper()
	ds := filepath.Join(dir, "ds")
	if code := execute([]string{"-q", "generate", "--format", "parquet", "--pages", "24", "--span", "20d", "--unit", "h", "--seed", "4",
		"--talk", "0.3", "--model", "exp:0.4", "-o", ds}); code != exitOK {
		t.Fatalf("generate: exit %d", code)
	}
	r, err := dataset.Open(ds)
	if err != nil {
		t.Fatal(err)
	}
	return ds, r
}

// A bad --match or an empty --in-group value is bad usage (exit 2), a
// --pages file that does not exist bad input (exit 1), in replay, analyze
// and run, before any work: nothing is written.
func TestSelectionFlagErrors(t *testing.T) {
	dir := t.TempDir()
	ds, _ := generatedParquet(t, dir)
	missing := filepath.Join(dir, "no-such-list.txt")
	for _, cmd := range []string{"replay", "analyze", "run"} {
		for _, c := range []struct {
			flags []string
			code  int
		}{
			{[]string{"--match", "(unclosed"}, exitUsage},
			{[]string{"--match", "x{2,1}"}, exitUsage},
			{[]string{"--in-group", "Talk,"}, exitUsage},
			{[]string{"--pages", missing}, exitBadInput},
		} {
			out := filepath.Join(dir, "out-"+cmd)
			args := append([]string{"-q", cmd, ds, "-o", out}, c.flags...)
			if got := execute(args); got != c.code {
				t.Errorf("revisit %v: exit %d, want %d", args, got, c.code)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("revisit %v wrote %s", args, out)
			}
		}
	}
}

// replay --pages prints how many pages it selected and names the listed
// ids and titles that no page has; replay.json says the same.
func TestReplayReportsUnmatched(t *testing.T) {
	dir := t.TempDir()
	ds, r := generatedParquet(t, dir)
	pages, err := r.All()
	if err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(dir, "list.txt")
	text := "# two pages and two that do not exist\n" + pages[3].Title + "\n123456789\n" + "Not a page\n" + "  " + pages[7].Title + "  \n"
	if err := os.WriteFile(list, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "rep")
	root := newRoot()
	var stdout bytes.Buffer
	root.SetOut(&stdout)
	root.SetArgs([]string{"replay", ds, "--pages", list, "--top", "0", "--sampler", "const:1", "--methods", "M1", "-o", out})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"selected 2 of 24 pages by --pages " + list + " (1 id, 3 titles)", `2 ids or titles not found: 123456789, "Not a page"`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout.String())
		}
	}
	m, err := replay.ReadMeta(out)
	if err != nil {
		t.Fatal(err)
	}
	if s := m.Selection; s == nil || s.Selected != 2 || s.Unmatched != 2 || m.Pages != 2 {
		t.Errorf("replay.json selection %+v, pages %d", s, m.Pages)
	}
}

// run --match end to end: replay, analysis, NHPP and staleness see only
// the matching pages, replay.json records the selection, and the
// report's Source lines say which pages were selected.
func TestRunMatch(t *testing.T) {
	dir := t.TempDir()
	ds, r := generatedParquet(t, dir)
	pages, err := r.All()
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^Generated page 1`)
	var want []int64
	for _, p := range pages {
		if re.MatchString(p.Title) {
			want = append(want, p.ID)
		}
	}
	if len(want) < 3 || len(want) == len(pages) {
		t.Fatalf("%d of %d pages match: the case needs a proper subset", len(want), len(pages))
	}
	out := filepath.Join(dir, "run")
	if code := execute([]string{"-q", "run", ds, "-o", out, "--match", re.String(), "--top", "50", "--reps", "19", "--seed", "3"}); code != exitOK {
		t.Fatalf("run: exit %d", code)
	}
	var got []int64
	if err := estimates.Each(filepath.Join(out, "replay"), func(e *estimator.Estimate) error {
		if !slices.Contains(got, e.PageID) {
			got = append(got, e.PageID)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("replayed pages %v, want the matching %v", got, want)
	}
	m, err := replay.ReadMeta(filepath.Join(out, "replay"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Selection == nil || m.Selection.Match != re.String() || m.Selection.Selected != int64(len(want)) {
		t.Errorf("replay.json selection %+v", m.Selection)
	}
	stats, err := os.ReadFile(filepath.Join(out, "analysis", "page_stats.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.TrimSpace(string(stats)), "\n"); n != len(want) {
		t.Errorf("page_stats.csv has %d pages, want %d", n, len(want))
	}
	md, err := os.ReadFile(filepath.Join(out, "report", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	sel := "selected " + strconv.Itoa(len(want)) + " of 24 pages by --match"
	if !strings.Contains(string(md), sel) {
		t.Errorf("report.md never says %q", sel)
	}
}
