package ingest

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/realdata"
)

// TestSameDayCollapsed: revisions of a date-only source on the same day
// are "same-day", not "same-second", revisions collapsed — in the summary
// and, with the daily pages, in the manifest's counts. Worked by hand.
func TestSameDayCollapsed(t *testing.T) {
	dir := t.TempDir()
	// a: 3 records on 2020-01-02 and 1 on 2020-01-03 → 2 updates, 2
	// collapsed; b: 1 record.
	days := write(t, dir, "days.csv", "id,t\na,2020-01-02\na,2020-01-02\nb,2020-01-05\na,2020-01-03\na,2020-01-02\n")
	// c: two records in the same second → 1 collapsed.
	secs := write(t, dir, "secs.csv", "id,t\nc,2020-01-02 03:04:05\nc,2020-01-02 03:04:05\nc,2020-01-02 03:04:06\n")
	g := generic.Options{ID: "id", Time: "t"}
	out := filepath.Join(dir, "days")
	s, _ := run(t, Options{Inputs: []string{days}, Output: out, Generic: g})
	c := s.Counts
	if c.Collapsed != 2 || c.CollapsedSameDay != 2 || c.PagesDaily != 2 {
		t.Errorf("counts %+v", c)
	}
	if str := s.String(); !strings.Contains(str, "→ 3 updates (2 same-day revisions collapsed (dates without a time of day))") || strings.Contains(str, "same-second") {
		t.Errorf("summary:\n%s", str)
	}
	m, err := dataset.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Counts.CollapsedSameDay != 2 || m.Counts.PagesDaily != 2 {
		t.Errorf("manifest counts %+v", m.Counts)
	}
	s, _ = run(t, Options{Inputs: []string{days, secs}, Generic: g})
	if str := s.String(); !strings.Contains(str, "(1 same-second and 2 same-day revisions collapsed)") {
		t.Errorf("mixed summary:\n%s", str)
	}
	s, _ = run(t, Options{Inputs: []string{secs}, Generic: g})
	if str := s.String(); !strings.Contains(str, "(1 same-second revision collapsed)") || s.Counts.PagesDaily != 0 {
		t.Errorf("seconds summary:\n%s", str)
	}
}

// TestRealYelpTipsSameDay: the Yelp tips of SOURCES.md §2 are date-only;
// the revisions collapsed are those sharing (business_id, date) with
// another, counted here from the JSON directly.
func TestRealYelpTipsSameDay(t *testing.T) {
	path := realdata.Path(t, "yelp/shenyy__Resturants/yelp_academic_dataset_tip.json")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[[2]string]bool{}
	var n, dup int64
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var tip struct {
			Business string `json:"business_id"`
			Date     string `json:"date"`
		}
		if err := json.Unmarshal(sc.Bytes(), &tip); err != nil {
			t.Fatal(err)
		}
		k := [2]string{tip.Business, tip.Date}
		if seen[k] {
			dup++
		}
		seen[k] = true
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	s, _ := run(t, Options{Inputs: []string{path}})
	c := s.Counts
	if c.RevisionsRead != n || c.Collapsed != dup || c.CollapsedSameDay != dup || c.PagesDaily != c.PagesKept {
		t.Errorf("counts %+v; reference %d tips, %d on a day their business already has", c, n, dup)
	}
	if want := human.Comma(dup) + " same-day revisions collapsed"; !strings.Contains(s.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, s)
	}
	t.Logf("%d tips, %d same-day", n, dup)
}
