package analysis

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/gentest"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// generatedDataset is gentest.Dataset of this package's models and seed.
func generatedDataset(t *testing.T) (string, []series.Page) {
	return gentest.Dataset(t, []string{"exp:0.5", "weibull:0.7,1.5"}, 5)
}

// pageStatsIDs is the page_id column of OUT/page_stats.csv.
func pageStatsIDs(t *testing.T, out string) []int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "page_stats.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i == 0 {
			continue
		}
		id, err := strconv.ParseInt(line[:strings.IndexByte(line, ',')], 10, 64)
		if err != nil {
			t.Fatalf("page_stats.csv line %d: %v", i+1, err)
		}
		ids = append(ids, id)
	}
	return ids
}

// Each of --pages, --match and --group analyses exactly the pages the
// test selects itself from the dataset, in dataset order; the tables'
// Source lines state the selection, with the ids and titles not found.
func TestRunSelection(t *testing.T) {
	ds, pages := generatedDataset(t)
	talk := slices.IndexFunc(pages, func(p series.Page) bool { return p.Group == "Talk" })
	if talk < 0 {
		t.Fatal("no Talk page in the corpus")
	}
	listFile := filepath.Join(t.TempDir(), "pages.txt")
	list := "# ids and titles\n" + strconv.FormatInt(pages[2].ID, 10) + "\n" + pages[11].Title + "\n" + pages[talk].Title + "\n424242\n"
	if err := os.WriteFile(listFile, []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^Generated page [0-9]$`)
	for _, c := range []struct {
		name   string
		file   string
		match  string
		groups []string
		keep   func(p series.Page) bool
	}{
		{"pages", listFile, "", nil, func(p series.Page) bool {
			return p.ID == pages[2].ID || p.Title == pages[11].Title || p.Title == pages[talk].Title
		}},
		{"match", "", re.String(), nil, func(p series.Page) bool { return re.MatchString(p.Title) }},
		{"group", "", "", []string{"(Main)"}, func(p series.Page) bool { return p.Group == "(Main)" }},
	} {
		sel, err := dataset.NewSelection(c.file, c.match, c.groups)
		if err != nil {
			t.Fatal(err)
		}
		var want []int64
		for _, p := range pages {
			if c.keep(p) {
				want = append(want, p.ID)
			}
		}
		if len(want) < 2 || len(want) == len(pages) {
			t.Fatalf("%s: %d of %d pages: the case must select some pages, not all", c.name, len(want), len(pages))
		}
		out := filepath.Join(t.TempDir(), "a")
		res, err := Run(context.Background(), Options{Dataset: ds, Out: out, Reps: 19, MinUpdates: 20, Top: 3, Select: sel})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := pageStatsIDs(t, out); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: page_stats holds %v, want %v", c.name, got, want)
		}
		if res.Pages != len(want) || res.Selection == nil || res.Selection.Selected != int64(len(want)) || res.Selection.Read != int64(len(pages)) {
			t.Errorf("%s: %d pages, selection %+v; want %d of %d", c.name, res.Pages, res.Selection, len(want), len(pages))
		}
		for _, tb := range res.Bundle.Tables {
			if tb.ID == "analysis_corpus" && !strings.Contains(tb.Source, "selected "+strconv.Itoa(len(want))+" of 30 pages by ") {
				t.Errorf("%s: Source %q does not state the selection", c.name, tb.Source)
			}
			if tb.ID == "analysis_corpus" && c.file != "" && !strings.Contains(tb.Source, "1 id or title not found: 424242") {
				t.Errorf("%s: Source %q does not name the id not found", c.name, tb.Source)
			}
		}
	}
}

// The selection applies before the shard test: the merged shards of a
// selected analysis are the selected analysis byte for byte; shards with
// different selections are refused.
func TestShardMergeSelection(t *testing.T) {
	ds, _ := generatedDataset(t)
	sel := func(groups ...string) *dataset.Selection {
		s, err := dataset.NewSelection("", "", groups)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	opt := Options{Dataset: ds, Reps: 19, MinUpdates: 20, Top: 3, AggregateMax: 100, Seed: 2, Select: sel("Talk")}
	tmp := t.TempDir()
	full := opt
	full.Out = filepath.Join(tmp, "full")
	if _, err := Run(context.Background(), full); err != nil {
		t.Fatal(err)
	}
	want := stagetest.ReadTree(t, full.Out)
	var dirs []string
	for i := range 3 {
		o := opt
		o.Out = filepath.Join(tmp, "s"+strconv.Itoa(i))
		if err := RunShard(context.Background(), o, shard.Spec{I: i, N: 3}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, o.Out)
	}
	if _, err := MergeShards(context.Background(), dirs, filepath.Join(tmp, "m"), nil, nil); err != nil {
		t.Fatal(err)
	}
	got := stagetest.ReadTree(t, filepath.Join(tmp, "m"))
	if len(got) != len(want) {
		t.Errorf("%d files merged, %d unsharded", len(got), len(want))
	}
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s differs from the unsharded selected analysis", name)
		}
	}
	other := opt
	other.Select = sel("(Main)")
	other.Out = filepath.Join(tmp, "o2")
	if err := RunShard(context.Background(), other, shard.Spec{I: 2, N: 3}); err != nil {
		t.Fatal(err)
	}
	_, err := MergeShards(context.Background(), []string{dirs[0], dirs[1], other.Out}, filepath.Join(tmp, "bad"), nil, nil)
	var me *MergeError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "different options") {
		t.Errorf("merge of shards with different selections: %v, want a MergeError", err)
	}
}

// With a replay of more pages than the analysis selects, the error
// tables compare the estimates of the selected pages only (a replayed
// page missing from the pages read is not taken for a replay of another
// dataset); a replayed page that is in no way in the dataset
// is still an error.
func TestSelectionReplayRows(t *testing.T) {
	ds, pages := generatedDataset(t)
	grid := stagetest.Grid(1, 10)
	rowsOf := func(p series.Page) []EstimateRow {
		truth := transform.AgeCDF(transform.Intervals(p.Updates, 3600), grid)
		return []EstimateRow{
			{PageID: p.ID, Title: p.Title, Sampler: "const:1", Constant: true, Method: "truth", Kind: "G", CDF: truth},
			{PageID: p.ID, Title: p.Title, Sampler: "const:1", Constant: true, Method: "M4", Kind: "G", CDF: truth},
		}
	}
	kept, left := pages[0], pages[1]
	rows := append(rowsOf(left), rowsOf(kept)...)
	read := func(string) ([]EstimateRow, string, error) { return rows, "hand-made rows", nil }
	sel, err := dataset.NewSelection("", "^"+regexp.QuoteMeta(kept.Title)+"$", nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Dataset: ds, Replay: "fake", Estimates: read, Reps: 19, MinUpdates: 20, Select: sel}
	opt.Out = filepath.Join(t.TempDir(), "a")
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PageErrors) != 1 || res.PageErrors[0].PageID != kept.ID {
		t.Errorf("page errors %+v, want M4 of page %d only", res.PageErrors, kept.ID)
	}
	// A page no dataset page has is still refused.
	rows = append(rows, EstimateRow{PageID: 1 << 40, Sampler: "const:1", Method: "truth", Kind: "G", CDF: rows[0].CDF},
		EstimateRow{PageID: 1 << 40, Sampler: "const:1", Method: "M4", Kind: "G", CDF: rows[0].CDF})
	opt.Out = filepath.Join(t.TempDir(), "b")
	if _, err := Run(context.Background(), opt); err == nil || !strings.Contains(err.Error(), "not in the dataset") {
		t.Errorf("a replayed page outside the dataset: %v, want an error", err)
	}
}
