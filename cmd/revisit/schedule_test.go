package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/revisit-dev/revisit/internal/pq"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/schedule"
)

// revisit schedule on a replay output and on a dataset: one CSV row per
// page (a visits/day column per plan) and one Parquet row per page and
// plan, every plan spending the budget, tables
// for the report in its own section; -o into an unrelated directory is
// refused and a bad budget is bad usage.
func TestScheduleCommand(t *testing.T) {
	dir := t.TempDir()
	ds := filepath.Join(dir, "ds")
	if code := execute([]string{"-q", "generate", "--format", "parquet", "--pages", "40", "--span", "1y", "--model", "pareto:1.8,{lognormal:3,1}", "--seed", "3", "-o", ds}); code != exitOK {
		t.Fatalf("generate: exit %d", code)
	}
	rp := filepath.Join(dir, "rp")
	if code := execute([]string{"-q", "replay", ds, "--top", "0", "--sampler", "const:24", "--methods", "M4,cho", "-o", rp}); code != exitOK {
		t.Fatalf("replay: exit %d", code)
	}
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
	// Validation: a table with every plan and the two oracles.
	val := filepath.Join(dir, "val")
	if code := execute([]string{"-q", "schedule", "--validate", ds, "--sampler", "const:24", "--budget", "30/d", "--seeds", "2", "-o", val}); code != exitOK {
		t.Fatalf("--validate: exit %d", code)
	}
	if b, err := tables.Read(val); err != nil || len(b.Tables) != 1 || b.Tables[0].ID != "schedule_validation" || len(b.Tables[0].Rows) != len(schedule.PlanNames)+2 {
		t.Errorf("validation tables: %+v, %v", b, err)
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
