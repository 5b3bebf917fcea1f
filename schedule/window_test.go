package schedule

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

// A process that changes is planned better from its recent past, and
// back-testing inside the training window finds it without looking past
// the split: 40 Poisson pages whose rates change at a fifth of the span
// (the fast ones become slow and the slow ones fast, a factor 100 each
// way); --train-window auto chooses a short window for gu (the backtest's
// inner evaluation lies after the change) and gu realises more than when
// planned from the whole training window; on pages that do not change,
// auto costs little.
func TestAutoWindow(t *testing.T) {
	const span = 400 * units.Day
	mk := func(change bool) []series.Page {
		var pages []series.Page
		t0 := 1_500_000_000.0
		for i := range 40 {
			r := model.NewRand(17, uint64(i))
			fast, slow := 0.05/3600, 0.0005/3600
			if i%2 == 1 {
				fast, slow = slow, fast
			}
			p := series.Page{ID: int64(i + 1), Title: "p", Resolution: 1}
			for t := t0; t < t0+span; {
				rate := fast
				if change && t > t0+span/5 {
					rate = slow
				}
				t += r.ExpFloat64() / rate
				if t < t0+span {
					p.Updates = append(p.Updates, int64(t))
				}
			}
			pages = append(pages, p)
		}
		return pages
	}
	run := func(pages []series.Page, w string) *Validation {
		opt := ValidateOptions{
			Options: Options{Budget: 10.0 / units.Day, Prior: true, Plans: []string{PlanGU, PlanUniform}},
			Sampler: "const:2", Train: 0.5, Seeds: []uint64{1}, Unit: 3600, Window: w,
		}
		v, err := Validate(context.Background(), pages, opt)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	changing := mk(true)
	all, auto := run(changing, "all"), run(changing, "auto")
	t.Logf("changing pages: gu %.4f from all of the training window, %.4f with auto (%s)", all.Rows[0].Mean, auto.Rows[0].Mean, auto.Rows[0].Window[0])
	if auto.Rows[0].Window[0] == "all" || !(auto.Rows[0].Mean > all.Rows[0].Mean+0.01) {
		t.Errorf("changing pages: auto chose %s and realises %.4f, all %.4f", auto.Rows[0].Window[0], auto.Rows[0].Mean, all.Rows[0].Mean)
	}
	// The decomposition of gu − uniform by the change of the pages'
	// rates: the 20 fast pages fell 100× (the others rose, less so
	// measured from their first update), and the parts add up to the
	// difference.
	sum, groups := 0.0, map[string]int{}
	for _, w := range all.Where {
		sum += w.Points
		groups[w.Group] = w.Pages
	}
	d := weightedMean(all.Rows[0].page[0], nil) - weightedMean(all.Rows[1].page[0], nil)
	if all.WhereOf != [2]string{PlanGU, PlanUniform} || math.Abs(sum-d) > 1e-12 || groups["rate fell more than 4×"] != 20 {
		t.Errorf("where %v: %+v, parts add up to %g, difference %g", all.WhereOf, all.Where, sum, d)
	}
	steady := mk(false)
	sa, su := run(steady, "all"), run(steady, "auto")
	t.Logf("steady pages: gu %.4f from all, %.4f with auto (%s)", sa.Rows[0].Mean, su.Rows[0].Mean, su.Rows[0].Window[0])
	if su.Rows[0].Mean < sa.Rows[0].Mean-0.01 {
		t.Errorf("steady pages: auto (%s) realises %.4f, all %.4f", su.Rows[0].Window[0], su.Rows[0].Mean, sa.Rows[0].Mean)
	}
	if !strings.Contains(strings.Join(auto.Bundle().Tables[0].Notes, " "), "Training window auto (per plan and seed: gu: ") {
		t.Errorf("the table does not say which window each plan was planned on: %v", auto.Bundle().Tables[0].Notes)
	}
	if _, err := parseWindow("1.5"); err == nil {
		t.Error("window 1.5 accepted")
	}
	if w, err := parseWindow("0.25"); err != nil || math.Abs(w.frac-0.25) > 0 || w.String() != "last 0.25" {
		t.Errorf("window 0.25: %+v %v", w, err)
	}
}
