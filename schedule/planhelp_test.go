package schedule

import (
	"strings"
	"testing"
)

// Every plan has its help line, in the order of PlanNames: a plan added
// to PlanNames without one is caught here, not in the command's help.
func TestPlanHelpNamesEveryPlan(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(PlanHelp(), "\n"), "\n")
	if len(lines) != len(PlanNames) {
		t.Fatalf("%d help lines for %d plans:\n%s", len(lines), len(PlanNames), PlanHelp())
	}
	for i, n := range PlanNames {
		f := strings.Fields(lines[i])
		if len(f) < 2 || f[0] != n || planHelp[n] == "" {
			t.Errorf("line %d %q: want plan %s and its description", i, lines[i], n)
		}
	}
}
