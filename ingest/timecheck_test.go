package ingest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/units"
)

// TestRelativeTimes: a log of seconds since the first edit read as epoch
// seconds is named as relative and its updates before 1990 are counted, in
// the summary and the manifest; with --time-origin the same log is placed
// (origin + value, worked by hand) and nothing is said.
func TestRelativeTimes(t *testing.T) {
	dir := t.TempDir()
	// Object a: 0, 60, 86400 s; object b: 30, 400000000 s (1992-03-07,
	// after 1990): 4 of the 5 updates fall before 1990.
	in := write(t, dir, "rel.csv", "id,t\na,0\na,60.0\na,86400\nb,30\nb,700000000\n")
	g := generic.Options{ID: "id", Time: "t", TimeLayout: generic.LayoutEpoch}
	out := filepath.Join(dir, "rel")
	s, _ := run(t, Options{Inputs: []string{in}, Output: out, Generic: g})
	w := s.TimeWarning
	if w == nil || w.UpdatesBefore1990 != 4 || w.Earliest != "1970-01-01T00:00:00Z" || !slices.Equal(w.Relative, []string{in}) {
		t.Fatalf("warning %+v", w)
	}
	str := s.String()
	for _, want := range []string{"warning: 4 updates are before 1990 (earliest 1970-01-01)", "warning: the times of " + in + " start on 1970-01-01"} {
		if !strings.Contains(str, want) {
			t.Errorf("summary lacks %q:\n%s", want, str)
		}
	}
	m, err := dataset.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	mw, _ := m.Extra[extraTimeWarning].(map[string]any)
	if mw["updates_before_1990"] != float64(4) || mw["earliest"] != "1970-01-01T00:00:00Z" || len(mw["relative_inputs"].([]any)) != 1 {
		t.Errorf("manifest %s = %v", extraTimeWarning, m.Extra[extraTimeWarning])
	}

	// Placed: 2014-10-29 is 1414540800 s.
	g.TimeOrigin = time.Date(2014, 10, 29, 0, 0, 0, 0, time.UTC)
	g.TimeLayout = generic.LayoutAuto // numbers after an origin need no explicit layout
	out = filepath.Join(dir, "placed")
	s, ps := run(t, Options{Inputs: []string{in}, Output: out, Generic: g})
	const o = 1414540800
	if s.TimeWarning != nil || len(ps) != 2 || !slices.Equal(ps[0].Updates, []int64{o, o + 60, o + units.Day}) || !slices.Equal(ps[1].Updates, []int64{o + 30, o + 700000000}) {
		t.Fatalf("warning %+v pages %+v", s.TimeWarning, ps)
	}
	if m, err = dataset.ReadManifest(out); err != nil || m.Extra[extraTimeOrigin] != "2014-10-29T00:00:00Z" || m.Extra[extraTimeWarning] != nil {
		t.Errorf("manifest extra %v (%v)", m.Extra, err)
	}
	if !strings.Contains(s.String(), "numeric times are placed after --time-origin 2014-10-29T00:00:00Z") {
		t.Errorf("summary:\n%s", s.String())
	}

	// Absolute epoch seconds (2020) say nothing.
	abs := write(t, dir, "abs.csv", "id,t\na,1577836800\na,1577836860\n")
	s, _ = run(t, Options{Inputs: []string{abs}, Generic: generic.Options{ID: "id", Time: "t", TimeLayout: generic.LayoutEpoch}})
	if s.TimeWarning != nil || strings.Contains(s.String(), "warning") {
		t.Errorf("absolute times warned: %+v", s.TimeWarning)
	}
	// Numbers that start far from 0 are not called relative, but dates
	// before 1990 are still counted (here 1980-01-01 = 315532800 s).
	old := write(t, dir, "old.csv", "id,t\na,315532800\na,631152000\n")
	s, _ = run(t, Options{Inputs: []string{old}, Generic: generic.Options{ID: "id", Time: "t", TimeLayout: generic.LayoutEpoch}})
	if w := s.TimeWarning; w == nil || w.UpdatesBefore1990 != 1 || len(w.Relative) != 0 {
		t.Errorf("1980: %+v", w)
	}
}

// TestRealRelativeMikewesthad ingests the three mikewesthad Revisions.csv
// (SOURCES.md §4: seconds since the page's first edit, no absolute time;
// the US file starts with a "Data pulled on" line, skipped by :skip=1):
// all three are named relative (each starts with 0), and every update kept is before 1990 (the
// longest history spans 4,519.6 days, so the latest relative time is in
// 1982).
func TestRealRelativeMikewesthad(t *testing.T) {
	var ins []string
	for _, a := range []string{"Ebola_virus_disease", "Ebola_virus_disease_in_the_United_States:skip=1", "Monsanto"} {
		name, skip, _ := strings.Cut(a, ":")
		p := realdata.Path(t, "wikipedia/mikewesthad__WikipediaDataViz/"+name+"/Revisions.csv")
		if skip != "" {
			p += ":" + skip
		}
		ins = append(ins, p)
	}
	g := generic.Options{IDFromFileName: true, IDFromDir: true, Time: "time of edit (seconds from first edit)", TimeLayout: generic.LayoutEpoch}
	s, ps := run(t, Options{Inputs: ins, SkipBad: true, Generic: g})
	w := s.TimeWarning
	// The earliest is not 0: misaligned records of the broken CSV (commas
	// in user names) put a size change such as -129 in the time column,
	// which is why relative times are told from the first value alone.
	if len(ps) != 3 || w == nil || len(w.Relative) != 3 || w.UpdatesBefore1990 != s.Counts.Updates || w.Earliest > "1970-01-02" {
		t.Fatalf("pages %d, updates %d, warning %+v", len(ps), s.Counts.Updates, w)
	}
	if s.Inputs[1].SkipLines != 1 {
		t.Errorf("inputs %+v", s.Inputs)
	}
	t.Logf("%s", s)
}
