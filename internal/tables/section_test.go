package tables

import (
	"encoding/json"
	"strings"
	"testing"
)

// The sections keep SPEC §7's numbers (results directories store them),
// come in the report's order (1–7, Revisit schedule, the estimate's
// Inputs, Top URLs, Poisson verdict and curves, Simulation, then anything else),
// and head the report as "3 Tails".
func TestSections(t *testing.T) {
	want := []struct {
		s       Section
		n       int
		heading string
	}{
		{SectionCorpus, 1, "1 Corpus"}, {SectionTopPages, 2, "2 Top pages"}, {SectionTails, 3, "3 Tails"},
		{SectionScreen, 4, "4 Poisson screen"}, {SectionMethods, 5, "5 Method comparison"},
		{SectionEstimates, 6, "6 Estimates vs truth"}, {SectionPolicies, 7, "7 Policies and NHPP"},
		{SectionSchedule, 8, "Revisit schedule"},
		{SectionInputs, 20, "Inputs"}, {SectionTopURLs, 21, "Top URLs"}, {SectionVerdict, 22, "Poisson verdict"},
		{SectionObservedCurve, 23, "Estimated G_U and F_U"}, {SectionSimulation, 0, "Simulation"},
	}
	l := SectionList()
	if len(l) != len(want) {
		t.Fatalf("%d sections, want %d", len(l), len(want))
	}
	for i, w := range want {
		if l[i].Section != w.s || int(w.s) != w.n || w.s.Heading() != w.heading || w.s.Rank() != i {
			t.Errorf("section %d: %+v, number %d, heading %q, rank %d; want %d %q rank %d", i, l[i], int(w.s), w.s.Heading(), w.s.Rank(), w.n, w.heading, i)
		}
	}
	if o := Section(9); o.Heading() != "Other" || o.Rank() != len(want) || Section(-1).Rank() != len(want) {
		t.Errorf("section 9: %q rank %d", o.Heading(), o.Rank())
	}
	b, err := json.Marshal(Table{ID: "x", Section: SectionPolicies})
	if err != nil || !strings.Contains(string(b), `"section":7`) {
		t.Errorf("JSON %s, %v: want \"section\":7", b, err)
	}
	var tb Table
	if err := json.Unmarshal([]byte(`{"id":"y","section":3}`), &tb); err != nil || tb.Section != SectionTails {
		t.Errorf("decoded section %d, %v; want SectionTails", tb.Section, err)
	}
}
