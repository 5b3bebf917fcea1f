package main

import (
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/replay"
)

// The replay summary's table is printed by the one table printer
// (tables.Fprint), as analyze, schedule, policies and simulate print
// theirs: names left-aligned under a line of dashes, numbers in the
// report's format with an ASCII minus, "—" where no page had a defined
// estimate. A WMRD below 10⁻³ puts its column in scientific notation;
// the KS column, none below, keeps 4 significant digits.
func TestReplaySummaryTable(t *testing.T) {
	wm, ks := 7.451e-4, 0.002349
	m := &replay.Meta{Pages: 10, Samplers: []string{"exp:20x"}, UnitName: "h", Seed: 1, Rows: 20,
		Summary: []replay.MethodSummary{
			{Sampler: "exp:20x", Method: "M2", Kind: "G", Pages: 10, WMRD: &wm, KS: &ks},
			{Sampler: "exp:20x", Method: "M3", Kind: "G", Undefined: 1234},
		}}
	var b strings.Builder
	printReplaySummary(&b, m, "out")
	s := b.String()
	want := "Mean WMRD and KS against each page's true G_U (kind G) or F_U (kind F)\n" +
		"sampler  method  kind  pages  undefined  mean WMRD   mean KS\n" +
		"-------  ------  ----  -----  ---------  ---------  --------\n" +
		"exp:20x  M2      G        10          0  7.451e-04  0.002349\n" +
		"exp:20x  M3      G         0      1,234          —         —\n\n"
	if !strings.HasSuffix(s, want) {
		t.Errorf("got\n%s\nwant it to end with\n%s", s, want)
	}
}
