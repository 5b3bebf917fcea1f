package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/pq"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/schedule"
)

// generateReplay generates n Lomax pages over a year into dir/ds and
// replays every page with a daily crawler (M4 and cho; replay flags
// extra) into dir/rp.
func generateReplay(t *testing.T, dir string, n int, extra ...string) (ds, rp string) {
	t.Helper()
	ds, rp = filepath.Join(dir, "ds"), filepath.Join(dir, "rp")
	if code := execute([]string{"-q", "generate", "--format", "parquet", "--pages", strconv.Itoa(n), "--span", "1y", "--model", "pareto:1.8,{lognormal:3,1}", "--seed", "3", "-o", ds}); code != exitOK {
		t.Fatalf("generate: exit %d", code)
	}
	if code := execute(append([]string{"-q", "replay", ds, "--top", "0", "--sampler", "const:24", "--methods", "M4,cho", "-o", rp}, extra...)); code != exitOK {
		t.Fatalf("replay: exit %d", code)
	}
	return ds, rp
}

// revisit schedule on a replay output and on a dataset: one CSV row per
// page (a visits/day column per plan) and one Parquet row per page and
// plan, every plan spending the budget, tables
// for the report in its own section; -o into an unrelated directory is
// refused and a bad budget is bad usage.
func TestScheduleCommand(t *testing.T) {
	dir := t.TempDir()
	ds, rp := generateReplay(t, dir, 40)
	imp := filepath.Join(dir, "imp.txt")
	if err := os.WriteFile(imp, []byte("1\t5\n2\t0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{rp, ds} {
		out := filepath.Join(dir, "sch-"+filepath.Base(in))
		for run := range 2 { // the second run replaces the first
			code := execute([]string{"-q", "schedule", in, "--budget", "30/d", "--importance", imp, "-o", out})
			if code != exitOK {
				t.Fatalf("schedule %s run %d: exit %d", in, run, code)
			}
		}
		f, err := os.Open(filepath.Join(out, schedule.CSVFile))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := 1 + 40; len(rows) != want {
			t.Fatalf("%s: %d CSV rows, want %d", in, len(rows), want)
		}
		nc := len(schedule.CSVColumns)
		if len(rows[0]) != nc+len(schedule.PlanNames) || rows[0][nc] != "visits_per_day_"+schedule.PlanGU {
			t.Fatalf("%s: CSV header %v", in, rows[0])
		}
		used := map[string]float64{}
		for _, r := range rows[1:] {
			for k, p := range schedule.PlanNames {
				v, err := strconv.ParseFloat(r[nc+k], 64)
				if err != nil {
					t.Fatal(err)
				}
				used[p] += v
				if r[0] == "2" && p == schedule.PlanGU && v != 0 {
					t.Errorf("%s: page 2 has importance 0 but gu visits it %g times a day", in, v)
				}
			}
		}
		for _, p := range schedule.PlanNames {
			if math.Abs(used[p]-30) > 1e-6 {
				t.Errorf("%s: plan %s uses %g visits/day, want 30", in, p, used[p])
			}
		}
		n := int64(0)
		err = pq.EachRecord(filepath.Join(out, schedule.ParquetFile), 1<<16, func(rec arrow.RecordBatch) error {
			n += rec.NumRows()
			return nil
		})
		if want := int64(40 * len(schedule.PlanNames)); err != nil || n != want {
			t.Errorf("%s: parquet rows %d, %v; want %d", in, n, err, want)
		}
		b, err := tables.Read(out)
		if err != nil || len(b.Tables) != 2 || b.Tables[0].Section != tables.SectionSchedule {
			t.Errorf("%s: tables %+v, %v", in, b, err)
		}
	}
	// Validation: a table with every plan and the two oracles, and the
	// paired differences of gu against each of them with the verdict.
	val := filepath.Join(dir, "val")
	if code := execute([]string{"-q", "schedule", "--validate", ds, "--sampler", "const:24", "--budget", "30/d", "--seeds", "2", "-o", val}); code != exitOK {
		t.Fatalf("--validate: exit %d", code)
	}
	b, err := tables.Read(val)
	if err != nil || len(b.Tables) != 3 || b.Tables[0].ID != "schedule_validation" || len(b.Tables[0].Rows) != len(schedule.PlanNames)+2 ||
		b.Tables[1].ID != "schedule_validation_pairs" || len(b.Tables[1].Rows) != len(schedule.PlanNames)+1 || !strings.HasPrefix(b.Tables[1].Notes[0], "Verdict: ") {
		t.Errorf("validation tables: %+v, %v", b, err)
	}
	// The report's "Revisit schedule" section carries the verdict.
	rep := filepath.Join(dir, "rep")
	if code := execute([]string{"-q", "report", val, "-o", rep}); code != exitOK {
		t.Fatalf("report: exit %d", code)
	}
	if md, err := os.ReadFile(filepath.Join(rep, "report.md")); err != nil || !strings.Contains(string(md), "Revisit schedule") || !strings.Contains(string(md), "Verdict: ") {
		t.Errorf("report.md has no Revisit schedule section with the verdict (%v)", err)
	}
	for _, bad := range [][]string{
		{"--validate", ds, "--budget", "5/d"},                              // no sampler
		{ds, "--validate", ds, "--sampler", "const:24", "--budget", "5/d"}, // both
		{"--validate", ds, "--sampler", "const:24", "--budget", "5/d", "--train", "1"},
	} {
		if code := execute(append([]string{"-q", "schedule"}, bad...)); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, exitUsage)
		}
	}
	// A method the replay did not run: no page has an estimate.
	if code := execute([]string{"-q", "schedule", rp, "--budget", "30/d", "--method", "M6"}); code != exitBadInput {
		t.Errorf("--method M6 on a replay without M6: exit %d, want %d", code, exitBadInput)
	}
	mine := filepath.Join(dir, "notes")
	os.MkdirAll(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "todo.txt"), []byte("x"), 0o644)
	if code := execute([]string{"-q", "schedule", ds, "--budget", "30/d", "-o", mine}); code != exitUsage {
		t.Errorf("-o unrelated dir: exit %d, want %d (refused output, as every command)", code, exitUsage)
	}
	if got := dirNames(t, mine); len(got) != 1 {
		t.Errorf("unrelated directory changed: %v", got)
	}
	for _, bad := range [][]string{{"--budget", "x/d"}, {"--budget", "0"}, {"--budget", "5/d", "--plans", "nope"}, {"--budget", "5/d", "--method", "M4"}, {"--budget", "5/d", "--sweep", "-1"}} {
		if code := execute(append([]string{"-q", "schedule", ds}, bad...)); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, exitUsage)
		}
	}
}

// The gu plan from compact curves (replay's default: 32 knots of each
// grid, linear between them) is close to the plan from the full curves
// (every grid point, planned in memory without thinning): measured, the
// rates differ by a median 7·10⁻⁶ and at most 3·10⁻⁵ (relative); the test
// allows 10⁻⁴ and 10⁻³, and 0.2 points of predicted freshness. Also the full curves through the CLI's path
// (PlanSource: thinned to 64 knots, float32).
func TestScheduleCompactCurves(t *testing.T) {
	dir := t.TempDir()
	ds := filepath.Join(dir, "ds")
	if code := execute([]string{"-q", "generate", "--format", "parquet", "--pages", "60", "--span", "2y", "--model", "pareto:1.5,{lognormal:3,1}", "--seed", "5", "-o", ds}); code != exitOK {
		t.Fatalf("generate: exit %d", code)
	}
	outs := map[string]string{}
	for _, c := range []string{"full", "compact"} {
		outs[c] = filepath.Join(dir, "rp-"+c)
		if code := execute([]string{"-q", "replay", ds, "--top", "0", "--sampler", "const:24", "--methods", "M4,cho", "--curves", c, "-o", outs[c]}); code != exitOK {
			t.Fatalf("replay --curves %s: exit %d", c, code)
		}
	}
	opt := schedule.Options{Budget: 40.0 / units.Day, Plans: []string{schedule.PlanGU}, Sweep: []float64{}}
	in, err := schedule.ReadEstimates(outs["full"], "", "")
	if err != nil {
		t.Fatal(err)
	}
	if n := in.Curves.Off[1] - in.Curves.Off[0]; n <= 64 {
		t.Fatalf("full curves of %d knots: the test wants longer ones", n)
	}
	full, err := schedule.Plan(in, opt)
	if err != nil {
		t.Fatal(err)
	}
	compare := func(name string, got *schedule.Result, tol, medTol float64) {
		t.Helper()
		if got.N != full.N {
			t.Fatalf("%s: %d pages, full %d", name, got.N, full.N)
		}
		var d []float64
		for i := range full.N {
			a, b := got.Plans[0].Rate(i), full.Plans[0].F[i]
			if a == b {
				d = append(d, 0)
				continue
			}
			d = append(d, math.Abs(a-b)/math.Max(a, b))
		}
		slices.Sort(d)
		med, worst := d[len(d)/2], d[len(d)-1]
		dg := math.Abs(got.Plans[0].MeanG - full.Plans[0].MeanG)
		t.Logf("%s vs full: rates differ by median %.2g, at most %.2g (relative); predicted freshness %.4f vs %.4f", name, med, worst, got.Plans[0].MeanG, full.Plans[0].MeanG)
		if worst > tol || med > medTol || dg > 0.002 {
			t.Errorf("%s: rates median %.3g (want ≤ %g), max %.3g (want ≤ %g), freshness differs by %.3g (want ≤ 0.002)", name, med, medTol, worst, tol, dg)
		}
	}
	for _, c := range []string{"compact", "full"} {
		src, err := schedule.OpenEstimates(outs[c], "", "")
		if err != nil {
			t.Fatal(err)
		}
		res, err := schedule.PlanSource(src, opt)
		if err != nil {
			t.Fatal(err)
		}
		compare(c+" (PlanSource)", res, 1e-3, 1e-4)
	}
	cin, err := schedule.ReadEstimates(outs["compact"], "", "")
	if err != nil {
		t.Fatal(err)
	}
	if n := cin.Curves.Off[1] - cin.Curves.Off[0]; n > 32 {
		t.Errorf("compact curve of %d knots > 0, want ≤ 31", n)
	}
	comp, err := schedule.Plan(cin, opt)
	if err != nil {
		t.Fatal(err)
	}
	compare("compact (Plan)", comp, 1e-3, 1e-4)
}

// A replay of several seeds (--seeds 3) has three independent crawls of every
// page; schedule pools them explicitly: each page's Ĝ is the mean of the three
// seeds' Ĝ (the same knots) and its λ̂ the mean of their λ̂, and the plans'
// source says so.
func TestSchedulePoolsSeeds(t *testing.T) {
	_, rp := generateReplay(t, t.TempDir(), 6, "--seeds", "3")
	type key struct {
		id   int64
		seed int
	}
	g, rate := map[key][]float64{}, map[key]float64{}
	if err := estimates.Each(rp, func(e *estimator.Estimate) error {
		k := key{e.PageID, e.Seed}
		switch {
		case e.Method == estimator.MethodM4 && e.Kind == "G":
			g[k] = slices.Clone(e.CDF.P)
		case e.Method == estimator.MethodCho && e.Kind == "G":
			rate[k] = e.Rate
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	in, err := schedule.ReadEstimates(rp, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(in.Source, "pooled over 3 seeds") {
		t.Errorf("source %q does not say the seeds are pooled", in.Source)
	}
	for i, id := range in.IDs {
		var want []float64
		wantRate := 0.0
		for s := range 3 {
			gs := g[key{id, s}]
			if want == nil {
				want = make([]float64, len(gs))
			}
			for k, v := range gs {
				want[k] += v / 3
			}
			wantRate += rate[key{id, s}] / 3
		}
		got := in.Curves.G[in.Curves.Off[i]:in.Curves.Off[i+1]]
		want = want[len(want)-len(got):] // the knots x > 0
		for k := range got {
			if math.Abs(got[k]-want[k]) > 1e-12 {
				t.Fatalf("page %d knot %d: Ĝ %g, mean of the seeds %g", id, k, got[k], want[k])
			}
		}
		if math.Abs(in.Lambda[i]-wantRate) > 1e-12*wantRate {
			t.Errorf("page %d: λ̂ %g, mean of the seeds %g", id, in.Lambda[i], wantRate)
		}
	}
}
