package replay

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/generate/gentest"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/series"
)

// generatedDataset is gentest.Dataset of this package's models and seed.
func generatedDataset(t *testing.T) (string, []series.Page) {
	return gentest.Dataset(t, []string{"exp:0.3", "weibull:0.7,2"}, 3)
}

// replayedIDs is the distinct page ids of a replay's estimates, in order.
func replayedIDs(t *testing.T, dir string) []int64 {
	t.Helper()
	var ids []int64
	err := estimates.Each(dir, func(e *estimator.Estimate) error {
		if len(ids) == 0 || ids[len(ids)-1] != e.PageID {
			ids = append(ids, e.PageID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// Each of --pages, --match and --group, and all three, replays exactly
// the pages the test selects itself from the dataset (with at least two
// updates), in dataset order; replay.json records the selection and its
// counts, and unmatched list entries are named.
func TestRunSelection(t *testing.T) {
	ds, pages := generatedDataset(t)
	groups := map[string]int{}
	for _, p := range pages {
		groups[p.Group]++
	}
	if groups["Talk"] == 0 || groups["(Main)"] == 0 {
		t.Fatalf("groups %v: the corpus needs Talk and (Main) pages", groups)
	}
	// A list: two ids, two titles (one of a Talk page), a missing id and
	// a missing title, a comment.
	list := "# chosen pages\n" + strconv.FormatInt(pages[4].ID, 10) + "\n" + pages[9].Title + "\n\n" +
		strconv.FormatInt(pages[17].ID, 10) + "\n999999\nNo such page\n"
	talk := slices.IndexFunc(pages, func(p series.Page) bool { return p.Group == "Talk" })
	list += pages[talk].Title + "\n"
	listFile := filepath.Join(t.TempDir(), "pages.txt")
	if err := os.WriteFile(listFile, []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	inList := map[string]bool{strconv.FormatInt(pages[4].ID, 10): true, pages[9].Title: true,
		strconv.FormatInt(pages[17].ID, 10): true, pages[talk].Title: true}
	re := regexp.MustCompile(`page 1\d`)
	for _, c := range []struct {
		name   string
		file   string
		match  string
		groups []string
		keep   func(p series.Page) bool
	}{
		{"pages", listFile, "", nil, func(p series.Page) bool { return inList[strconv.FormatInt(p.ID, 10)] || inList[p.Title] }},
		{"match", "", re.String(), nil, func(p series.Page) bool { return re.MatchString(p.Title) }},
		{"group", "", "", []string{"Talk"}, func(p series.Page) bool { return p.Group == "Talk" }},
		{"all", listFile, "Generated", []string{"(Main)", "Talk"}, func(p series.Page) bool {
			return (inList[strconv.FormatInt(p.ID, 10)] || inList[p.Title]) && strings.Contains(p.Title, "Generated")
		}},
	} {
		sel, err := dataset.NewSelection(c.file, c.match, c.groups)
		if err != nil {
			t.Fatal(err)
		}
		var want []int64
		selected := 0
		for _, p := range pages {
			if c.keep(p) {
				selected++
				if len(p.Updates) >= 2 {
					want = append(want, p.ID)
				}
			}
		}
		if len(want) == 0 || len(want) == len(pages) {
			t.Fatalf("%s: %d of %d pages: the case selects nothing or everything", c.name, len(want), len(pages))
		}
		out := filepath.Join(t.TempDir(), "rep")
		meta, err := Run(context.Background(), Options{Dataset: ds, Out: out, Samplers: []string{"const:1"}, Methods: []string{"M1"},
			Seed: 1, Workers: 2, Select: sel})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := replayedIDs(t, out); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: replayed %v, want %v", c.name, got, want)
		}
		s := meta.Selection
		if s == nil || s.Read != int64(len(pages)) || s.Selected != int64(selected) || meta.Pages != len(want) {
			t.Fatalf("%s: selection %+v, pages %d; want %d read, %d selected, %d replayed", c.name, s, meta.Pages, len(pages), selected, len(want))
		}
		if c.file != "" && (s.Unmatched != 2 || !reflect.DeepEqual(s.UnmatchedFirst, []string{"999999", `"No such page"`})) {
			t.Errorf("%s: unmatched %d %q, want 999999 and \"No such page\"", c.name, s.Unmatched, s.UnmatchedFirst)
		}
		back, err := ReadMeta(out)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.Selection, s) {
			t.Errorf("%s: replay.json selection %+v, want %+v", c.name, back.Selection, s)
		}
		if d := back.Describe(); !strings.Contains(d, s.Describe()) || !strings.Contains(d, "selected") {
			t.Errorf("%s: Describe %q does not state the selection", c.name, d)
		}
	}
}

// A replay without a selection writes no "selection" in replay.json (the
// outputs of replays without one are unchanged).
func TestRunNoSelectionNoField(t *testing.T) {
	ds, _ := writeDataset(t, 3)
	out := filepath.Join(t.TempDir(), "rep")
	if _, err := Run(context.Background(), Options{Dataset: ds, Out: out, Samplers: []string{"const:1"}, Methods: []string{"M1"}}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, MetaFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "selection") {
		t.Errorf("replay.json mentions a selection:\n%s", b)
	}
}

// The selection applies before the shard test: the merge of the shards
// of a selected replay is the selected unsharded replay; shards with
// different selections (another regexp, or a page list with other
// contents at the same path) are refused.
func TestMergeSelection(t *testing.T) {
	ds, _ := generatedDataset(t)
	tmp := t.TempDir()
	sel := func(match string) *dataset.Selection {
		s, err := dataset.NewSelection("", match, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	run := func(name string, s *dataset.Selection, sp shard.Spec, top int) string {
		o := Options{Dataset: ds, Out: filepath.Join(tmp, name), Samplers: []string{"const:1"}, Methods: []string{"M1", "M4"},
			Seed: 2, Shard: sp, Select: s, Top: top}
		if _, err := Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		return o.Out
	}
	for _, top := range []int{0, 3} {
		p := "t" + strconv.Itoa(top)
		full := run(p+"full", sel("page [12]"), shard.Spec{}, top)
		var dirs []string
		for i := range 3 {
			dirs = append(dirs, run(p+"s"+strconv.Itoa(i), sel("page [12]"), shard.Spec{I: i, N: 3}, top))
		}
		out := filepath.Join(tmp, p+"merged")
		if _, err := Merge(context.Background(), dirs, out); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(filepath.Join(full, EstimatesFile))
		b, _ := os.ReadFile(filepath.Join(out, EstimatesFile))
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("top %d: merged estimates differ from the unsharded selected replay", top)
		}
		if g, w := metaWithoutTimes(t, out), metaWithoutTimes(t, full); !reflect.DeepEqual(g, w) {
			t.Errorf("top %d: merged replay.json %v\nwant %v", top, g, w)
		}
	}

	a0, a1 := run("a0", sel("page [12]"), shard.Spec{I: 0, N: 2}, 0), run("a1", sel("page [12]"), shard.Spec{I: 1, N: 2}, 0)
	b1 := run("b1", sel("page [13]"), shard.Spec{I: 1, N: 2}, 0)
	n1 := run("n1", nil, shard.Spec{I: 1, N: 2}, 0)
	list := filepath.Join(tmp, "list.txt")
	listSel := func(text string) *dataset.Selection {
		if err := os.WriteFile(list, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := dataset.NewSelection(list, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	l0 := run("l0", listSel("Generated page 1\nGenerated page 2\n"), shard.Spec{I: 0, N: 2}, 0)
	l1 := run("l1", listSel("Generated page 1\nGenerated page 5\n"), shard.Spec{I: 1, N: 2}, 0)
	for _, dirs := range [][]string{{a0, b1}, {a0, n1}, {l0, l1}} {
		_, err := Merge(context.Background(), dirs, filepath.Join(tmp, "bad"))
		var me *MergeError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), "page selection") {
			t.Errorf("Merge(%v) = %v, want a MergeError on the page selection", dirs, err)
		}
	}
	if _, err := Merge(context.Background(), []string{a0, a1}, filepath.Join(tmp, "good")); err != nil {
		t.Fatal(err)
	}
}

// --sample n replays the n pages of smallest SampleKey among those with
// at least SampleIntervals intervals (a naive sort of every eligible
// page's key here), busiest first; replay.json counts the eligible pages
// and those left out, and the Source line says what the pages are. All
// eligible pages when there are no more than n.
func TestRunSample(t *testing.T) {
	ds, pages := generatedDataset(t)
	lens := make([]int, len(pages))
	for i, p := range pages {
		lens[i] = len(p.Updates) - 1
	}
	slices.Sort(lens)
	k, n := lens[len(lens)/2], 4 // about half the pages are eligible
	type cand struct {
		id      int64
		key     uint64
		updates int
	}
	var el []cand
	for _, p := range pages {
		if len(p.Updates)-1 >= k {
			el = append(el, cand{p.ID, SampleKey(9, p.ID), len(p.Updates)})
		}
	}
	if len(el) <= n || len(el) == len(pages) {
		t.Fatalf("%d of %d pages have ≥ %d intervals: the case needs some, more than %d, not all", len(el), len(pages), k, n)
	}
	slices.SortFunc(el, func(a, b cand) int { return cmp.Compare(a.key, b.key) })
	want := el[:n]
	slices.SortFunc(want, func(a, b cand) int { return cmp.Or(cmp.Compare(b.updates, a.updates), cmp.Compare(a.id, b.id)) })
	var wantIDs []int64
	for _, c := range want {
		wantIDs = append(wantIDs, c.id)
	}
	out := filepath.Join(t.TempDir(), "r")
	meta, err := Run(context.Background(), Options{Dataset: ds, Out: out, Samplers: []string{"exp:2"}, Methods: []string{"M2"}, Seed: 9, Sample: n, SampleIntervals: k})
	if err != nil {
		t.Fatal(err)
	}
	if got := replayedIDs(t, out); !slices.Equal(got, wantIDs) {
		t.Errorf("replayed %v, want %v", got, wantIDs)
	}
	if meta.SampleEligible != len(el) || meta.Skipped[SkipNotInSample] != int64(len(el)-n) || meta.Skipped[SkipFewIntervals] != int64(len(pages)-len(el)) {
		t.Errorf("eligible %d, skipped %v; want %d eligible, %d not drawn, %d too short", meta.SampleEligible, meta.Skipped, len(el), len(el)-n, len(pages)-len(el))
	}
	if d, w := meta.Describe(), fmt.Sprintf("%d pages: a random sample (seed 9) of the %d pages with ≥ %d intervals", n, len(el), k); !strings.Contains(d, w) {
		t.Errorf("Describe %q lacks %q", d, w)
	}
	// another seed, another sample
	meta2, err := Run(context.Background(), Options{Dataset: ds, Out: out + "2", Samplers: []string{"exp:2"}, Methods: []string{"M2"}, Seed: 10, Sample: n, SampleIntervals: k})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(replayedIDs(t, out+"2"), wantIDs) || meta2.SampleEligible != len(el) {
		t.Errorf("seed 10 drew the same sample as seed 9")
	}
	// no more eligible pages than the sample: every one of them
	meta3, err := Run(context.Background(), Options{Dataset: ds, Out: out + "3", Samplers: []string{"exp:2"}, Methods: []string{"M2"}, Seed: 9, Sample: len(el) + 5, SampleIntervals: k})
	if err != nil {
		t.Fatal(err)
	}
	if got := replayedIDs(t, out+"3"); len(got) != len(el) || !strings.Contains(meta3.Describe(), fmt.Sprintf("every page with ≥ %d intervals (%d, no more than --sample %d)", k, len(el), len(el)+5)) {
		t.Errorf("sample larger than the eligible pages: %d replayed, %q", len(got), meta3.Describe())
	}
	if _, err := Run(context.Background(), Options{Dataset: ds, Out: out + "4", Top: 3, Sample: n}); err == nil {
		t.Error("--top with --sample accepted")
	}
}
