package schedule

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/units"
)

// writeFile writes s to a new file in a test's temporary directory.
func writeFile(t *testing.T, name, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Plan maps titles to hosts and importances: pages of a limited host stay
// within its limit (given per day, converted to the input's unit), a page
// named by id gets its weight, an unnamed one the missing weight, and
// every plan spends the budget (the limit binds, the rest goes elsewhere).
func TestPlanHostsAndImportance(t *testing.T) {
	lambdas := []float64{1, 2, 0.5, 1.5}
	p := expProblem(lambdas, nil, 0, 200)
	in := &Input{
		IDs:    []int64{10, 11, 12, 13},
		Titles: []string{"https://a.example/1", "https://a.example/2", "https://b.example/", "page"},
		Note:   make([]string, 4),
		Curves: *p.Curves, Lambda: lambdas, Unit: 3600,
	}
	opt := Options{
		Budget:        48.0 / units.Day, // 2 visits an hour
		Importance:    writeFile(t, "imp.txt", "https://a.example/1\t2\n12\t3\n"),
		MissingWeight: 0.5,
		HostLimits:    &HostLimitSet{File: "hosts", Limit: map[string]float64{"a.example": 12.0 / units.Day}}, // 0.5 an hour
		Sweep:         []float64{},
	}
	res, err := Plan(in, opt)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{2, 0.5, 3, 0.5}; res.W[0] != want[0] || res.W[1] != want[1] || res.W[2] != want[2] || res.W[3] != want[3] {
		t.Errorf("weights %v, want %v", res.W, want)
	}
	if res.Hosts != 1 || res.HostStats.Pages != 2 {
		t.Errorf("%d limited hosts, %d pages under a limit; want 1, 2", res.Hosts, res.HostStats.Pages)
	}
	if st := res.ImportanceStats; st.ByTitle != 1 || st.ByID != 1 || st.Missing != 2 || st.Unused != 0 {
		t.Errorf("importance: %+v", st)
	}
	for _, pr := range res.Plans {
		if a := pr.F[0] + pr.F[1]; a > 0.5*(1+1e-9) {
			t.Errorf("%s: host a.example gets %g visits/h, limit 0.5", pr.Name, a)
		}
		if pr.Name == PlanGU && math.Abs(pr.F[0]+pr.F[1]-0.5) > 1e-9 {
			t.Errorf("gu: host a.example gets %g visits/h; the limit 0.5 should bind", pr.F[0]+pr.F[1])
		}
		if math.Abs(pr.Used-2) > 1e-9 {
			t.Errorf("%s: %g visits/h used, want 2", pr.Name, pr.Used)
		}
	}
}

// A host limit of 0 (or a budget all taken by the minimum rates) leaves
// nothing to spend: the host's pages get no visits, the others share the
// budget. (Before the explicit check in bisect this came out right only
// through a NaN comparison of demand/0.)
func TestZeroRoom(t *testing.T) {
	p := expProblem([]float64{1, 2, 0.5}, nil, 3, 100)
	p.Limits = &Limits{Host: []int32{0, 0, -1}, Limit: []float64{0}}
	if err := p.Prepare(); err != nil {
		t.Fatal(err)
	}
	for _, plan := range PlanNames {
		s, err := p.Solve(plan)
		if err != nil {
			t.Fatal(err)
		}
		if s.F[0] != 0 || s.F[1] != 0 || math.Abs(s.F[2]-3) > 1e-9 {
			t.Errorf("%s: rates %v, want [0 0 3]", plan, s.F)
		}
	}
	q := expProblem([]float64{1, 2}, nil, 1, 100)
	for k := q.Curves.Off[1]; k < q.Curves.Off[2]; k++ {
		q.Curves.G[k] = 0 // page 1 never changed
	}
	q.MinRate = 1 // takes the whole budget
	if err := q.Prepare(); err != nil {
		t.Fatal(err)
	}
	s, err := q.Solve(PlanGU)
	if err != nil {
		t.Fatal(err)
	}
	if s.F[0] != 0 || s.F[1] != 1 {
		t.Errorf("budget taken by the min rate: %v, want [0 1]", s.F)
	}
}

// Pages that never changed are counted and the plans table says what
// they got.
func TestPlanCountsUnchanged(t *testing.T) {
	p := expProblem([]float64{1, 2}, nil, 0, 50)
	for k := p.Curves.Off[1]; k < p.Curves.Off[2]; k++ {
		p.Curves.G[k] = 0
	}
	in := &Input{IDs: []int64{1, 2}, Titles: []string{"a", "b"}, Note: []string{"", ""},
		Curves: *p.Curves, Lambda: []float64{1, 0}, Unit: 3600, Source: "test"}
	res, err := Plan(in, Options{Budget: 1.0 / 3600, MinRate: 0.1 / 3600, Sweep: []float64{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unchanged != 1 {
		t.Errorf("%d unchanged pages, want 1", res.Unchanged)
	}
	notes := strings.Join(res.Bundle().Tables[0].Notes, " ")
	if !strings.Contains(notes, "1 of 2 pages never changed") || !strings.Contains(notes, "min rate, 2.4 visits/day") {
		t.Errorf("notes: %s", notes)
	}
}
