package schedule

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/internal/usage"
)

// flagDefaults are the options of revisit schedule INPUT with no flag
// but --budget 30/d (the defaults of cmd/revisit's flags).
func flagDefaults(input ...string) CommandOptions {
	o := CommandOptions{
		Inputs: input, BudgetText: "30/d", MinRateText: "prior", UnitText: "h",
		SeedCount: 1, FirstSeed: 1,
	}
	o.MissingWeight, o.Train, o.Origins, o.Window, o.Boot = 1, 0.5, 3, "all", DefaultBoot
	return o
}

// Validate refuses each bad option as bad usage with the message that
// names its flag, in the order the flags are checked.
func TestCommandOptionsValidateRefuses(t *testing.T) {
	for _, c := range []struct {
		set  func(o *CommandOptions)
		want string
	}{
		{func(o *CommandOptions) { o.BudgetText = "" }, "--budget is required (visits per day, or B/h)"},
		{func(o *CommandOptions) { o.BudgetText = "30x" }, `--budget: rate "30x": want a number ≥ 0 of visits, optionally per d or h`},
		{func(o *CommandOptions) { o.BudgetText = "0/h" }, `--budget "0/h": want a rate > 0 such as 5000/d or 200/h`},
		{func(o *CommandOptions) { o.MinRateText = "" }, `--min-rate: rate "": want a number ≥ 0 of visits, optionally per d or h (or prior)`},
		{func(o *CommandOptions) { o.Plans = []string{"gu", "bogus"} }, `--plans: unknown plan "bogus"`},
		{func(o *CommandOptions) { o.MissingWeight = -1 }, "--missing-importance -1: want a finite number ≥ 0, as the file's importances"},
		{func(o *CommandOptions) { o.Sweep = []float64{1, 0}; o.NoSweep = true }, "--sweep 0: want multiples of the budget > 0"},
		{func(o *CommandOptions) { o.UnitText = "parsec" }, `--unit: unknown time unit "parsec"`},
		{func(o *CommandOptions) { o.Inputs = nil }, "give INPUT, or --validate DATASET (not both)"},
		{func(o *CommandOptions) { o.Dataset = "ds" }, "give INPUT, or --validate DATASET (not both)"},
		{func(o *CommandOptions) { o.Inputs, o.Dataset = nil, "ds" }, "--validate needs --sampler SPEC (the blind crawler)"},
		{func(o *CommandOptions) { o.Target = 1 }, "--target-freshness 1: want in (0, 1)"},
		{func(o *CommandOptions) { o.Target = 0.9 }, "--target-freshness needs --validate (it is measured on the true updates)"},
		{func(o *CommandOptions) { o.Train = 1 }, "--train must be in (0, 1) and --seeds ≥ 1"},
		{func(o *CommandOptions) { o.SeedCount = 0 }, "--train must be in (0, 1) and --seeds ≥ 1"},
		{func(o *CommandOptions) { o.Boot = 99 }, "--origins must be ≥ 1 and --boot ≥ 100"},
		{func(o *CommandOptions) { o.Window = "2" }, `--train-window: training window "2": want all, auto or a fraction in (0, 1]`},
		{func(o *CommandOptions) { o.Method = "all" }, `--method "all": want one method (or truth)`},
		{func(o *CommandOptions) { o.Method = "bogus" }, `--method: unknown method "bogus"`},
		{func(o *CommandOptions) { o.Sampler = "bogus" }, `--sampler: sampler "bogus": want NAME:PARAMS`},
		{func(o *CommandOptions) { o.Inputs, o.Dataset, o.Sampler, o.Method = nil, "ds", "const:1", "bogus" }, `--sampler, --method: unknown method "bogus"`},
	} {
		o := flagDefaults("in")
		c.set(&o)
		err := o.Validate()
		if !usage.Is(err) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v (usage %v), want bad usage %q", err, usage.Is(err), c.want)
		}
	}
}

// Validate parses the text options into their values: rates per second
// (30/d is 30/86,400 visits per second), the unit's seconds, the
// method's canonical name, the seeds FirstSeed … FirstSeed+SeedCount−1.
func TestCommandOptionsValidateParses(t *testing.T) {
	o := flagDefaults("in")
	o.MinRateText, o.UnitText, o.Method, o.NoSweep = "2/h", "d", "m4", true
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	if o.Budget != 30.0/units.Day || o.MinRate != 2.0/3600 || o.Prior || o.Unit != units.Day || o.Method != "M4" {
		t.Errorf("budget %g, min rate %g, prior %v, unit %g, method %q", o.Budget, o.MinRate, o.Prior, o.Unit, o.Method)
	}
	if o.Sweep == nil || len(o.Sweep) != 0 || !slices.Equal(o.Plans, PlanNames) {
		t.Errorf("sweep %v (want empty, not nil), plans %v", o.Sweep, o.Plans)
	}
	v := flagDefaults()
	v.Dataset, v.Sampler, v.SeedCount, v.FirstSeed = "ds", "const:24", 3, 5
	if err := v.Validate(); err != nil {
		t.Fatal(err)
	}
	if !v.Prior || !slices.Equal(v.Seeds, []uint64{5, 6, 7}) || v.Sweep != nil {
		t.Errorf("prior %v, seeds %v, sweep %v", v.Prior, v.Seeds, v.Sweep)
	}
}

// testConsole is a console whose streams a test reads.
func testConsole(quiet bool) (console.Console, *bytes.Buffer, *bytes.Buffer) {
	var out, errw bytes.Buffer
	return console.Console{Out: &out, Err: &errw, Quiet: quiet}, &out, &errw
}

// Command refuses an output it did not write before reading anything,
// and leaves it as it was.
func TestCommandRefusesOutputFirst(t *testing.T) {
	out := t.TempDir()
	mine := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := flagDefaults(filepath.Join(t.TempDir(), "missing"))
	o.Out, o.HostLimitsFile = out, filepath.Join(t.TempDir(), "missing.csv")
	con, stdout, stderr := testConsole(false)
	err := Command(context.Background(), o, con)
	if !usage.IsRefused(err) {
		t.Fatalf("got %v, want a refused output", err)
	}
	if b, _ := os.ReadFile(mine); string(b) != "mine" || stdout.Len()+stderr.Len() != 0 {
		t.Errorf("file %q, printed %q %q", b, stdout, stderr)
	}
}

// What revisit schedule INPUT says: under -q with -o only the host limits
// that name no page's host (10 of the 30 pages are on h0.example, none on
// nowhere.example); without -q the reading, store and written lines too,
// and the tables on standard output followed by their source once;
// without -o the tables even under -q.
func TestCommandPlanConsole(t *testing.T) {
	ds := writeDataset(t, 30)
	hosts := writeFile(t, "hosts.csv", "host,limit\nh0.example,5/d\nnowhere.example,1/d\n")
	hostLine := "schedule: host limits of " + hosts + ": 1 of 2 hosts applied, to 10 pages; 1 name no page's host (nowhere.example): not applied\n"
	o := flagDefaults(ds)
	o.HostLimitsFile, o.NoSweep, o.Plans = hosts, true, []string{"gu", "uniform"}

	o.Out = filepath.Join(t.TempDir(), "quiet")
	con, stdout, stderr := testConsole(true)
	if err := Command(context.Background(), o, con); err != nil {
		t.Fatal(err)
	}
	if stdout.Len() != 0 || stderr.String() != hostLine {
		t.Errorf("-q -o: stdout %q, stderr %q; want only %q", stdout, stderr, hostLine)
	}
	for _, f := range []string{ParquetFile, CSVFile, tables.ResultsMarker("schedule")} {
		if _, err := os.Stat(filepath.Join(o.Out, f)); err != nil {
			t.Error(err)
		}
	}

	o.Out = filepath.Join(t.TempDir(), "loud")
	con, stdout, stderr = testConsole(false)
	if err := Command(context.Background(), o, con); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(stderr.String(), "\n")
	if len(lines) != 5 || lines[0] != "schedule: reading "+ds+"…\n" ||
		!strings.HasPrefix(lines[1], "schedule: 30 pages, exact age distributions over the span of the dataset "+ds+"; store ") ||
		lines[2] != hostLine || lines[3] != "schedule: wrote schedule.parquet and schedule.csv under "+o.Out+"\n" || lines[4] != "" {
		t.Errorf("stderr:\n%s", stderr)
	}
	if !strings.HasPrefix(stdout.String(), "Revisit plans under the budget\n") ||
		strings.Count(stdout.String(), "\nSource: ") != 1 || !strings.HasSuffix(stdout.String(), "budget 30 visits/day; 1 hosts with limits\n") {
		t.Errorf("stdout:\n%s", stdout)
	}

	o.Out = ""
	con, stdout, _ = testConsole(true)
	if err := Command(context.Background(), o, con); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "Revisit plans under the budget\n") {
		t.Errorf("-q without -o: stdout %q, want the tables", stdout)
	}
}

// What revisit schedule --validate says: the validating line, each table
// followed by its source and the verdict; the tables written under -o.
func TestCommandValidateConsole(t *testing.T) {
	ds := writeDataset(t, 30)
	o := flagDefaults()
	o.Dataset, o.Sampler, o.SeedCount, o.Plans, o.Origins, o.Boot = ds, "const:1", 2, []string{"gu", "uniform"}, 1, 100
	o.Out = filepath.Join(t.TempDir(), "val")
	con, stdout, stderr := testConsole(false)
	if err := Command(context.Background(), o, con); err != nil {
		t.Fatal(err)
	}
	if got, want := stderr.String(), "schedule: validating on 30 pages, 2 seeds…\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	text := stdout.String()
	if n, s := strings.Count(text, "\n-----"), strings.Count(text, "\nSource: "); n == 0 || s != n {
		t.Errorf("%d tables, %d source lines:\n%s", n, s, text)
	}
	if !strings.Contains(text, "\nVerdict: ") {
		t.Errorf("no verdict:\n%s", text)
	}
	if _, err := os.Stat(filepath.Join(o.Out, tables.ResultsMarker("schedule"))); err != nil {
		t.Error(err)
	}
}

// The summary lines name the importance and host-limits files as the
// user did, with their control characters escaped: a file name holding
// ESC [2J does not clear the terminal.
func TestCommandSummaryEscaped(t *testing.T) {
	ds := writeDataset(t, 12)
	dir := t.TempDir()
	imp := filepath.Join(dir, "imp\x1b[2J.csv")
	hosts := filepath.Join(dir, "hosts\x1b[2J.csv")
	for p, text := range map[string]string{imp: "100,2\n", hosts: "h0.example,5/d\nnowhere.example,1/d\n"} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := flagDefaults(ds)
	o.Importance, o.HostLimitsFile, o.NoSweep, o.Plans = imp, hosts, true, []string{"gu"}
	for _, quiet := range []bool{false, true} {
		con, _, stderr := testConsole(quiet)
		if err := Command(context.Background(), o, con); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(stderr.String(), "\x1b") || !strings.Contains(stderr.String(), `hosts\x1b[2J.csv`) ||
			!quiet && !strings.Contains(stderr.String(), `imp\x1b[2J.csv`) {
			t.Errorf("quiet %v: stderr %q", quiet, stderr)
		}
	}
}
