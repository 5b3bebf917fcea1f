package policy

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/usage"
)

// commandOptions are the command line's defaults (revisit policies
// without flags but --budget).
func commandOptions() CommandOptions {
	return CommandOptions{Options: Options{Grouping: ByGroup, K: 5, Alpha: 0.95, Seed: 1}, CycleText: "7d", BudgetText: "5"}
}

// Every value the command line can get wrong is bad usage naming its
// flag, with the message the command has always printed, and is found by
// Validate before any dataset is read.
func TestValidateMessages(t *testing.T) {
	for _, c := range []struct {
		set  func(o *CommandOptions)
		want string
	}{
		{func(o *CommandOptions) { o.CycleText = "7x" }, `--cycle: `},
		{func(o *CommandOptions) { o.BudgetText = "" }, "--budget is required (downloads per cycle, or a percentage of the pages such as 2%)"},
		{func(o *CommandOptions) { o.BudgetText = "5/d" }, `--budget: "5/d": the download policies' budget is downloads per download cycle (--cycle), not per d`},
		{func(o *CommandOptions) { o.Budgets = []int{4, 0} }, "--budgets: 0: want budgets ≥ 1"},
		{func(o *CommandOptions) { o.Grouping = "hash:0" }, "--sites: "},
		{func(o *CommandOptions) { o.Policies = []string{"greedy", "lottery"} }, `--policies: unknown policy "lottery" (want ` + strings.Join(Names, ", ") + ")"},
		{func(o *CommandOptions) { o.StartText = "2020-13-01" }, "--start: "},
		{func(o *CommandOptions) { o.EndText = "yesterday" }, "--end: "},
		{func(o *CommandOptions) { o.StartText, o.EndText = "2020-02-01", "2020-01-01" }, "--end must be after --start"},
		{func(o *CommandOptions) { o.StartText, o.EndText = "2020-01-01", "2020-01-01" }, "--end must be after --start"},
		{func(o *CommandOptions) { o.Alpha = 1 }, "--alpha 1: want a confidence level in (0, 1)"},
		{func(o *CommandOptions) { o.Alpha = 0 }, "--alpha 0: want a confidence level in (0, 1)"},
		{func(o *CommandOptions) { o.RhoT = 1 }, "--rho 1: want a change fraction in [0, 1) (0: adaptive)"},
		{func(o *CommandOptions) { o.RhoT = -0.5 }, "--rho -0.5: want a change fraction in [0, 1) (0: adaptive)"},
		{func(o *CommandOptions) { o.SampleSize = -1 }, "--sample must be ≥ 0 and --k ≥ 1"},
		{func(o *CommandOptions) { o.K = 0 }, "--sample must be ≥ 0 and --k ≥ 1"},
		{func(o *CommandOptions) { o.SampleSizes = []int{1, 0} }, "--samples: sizes must be ≥ 1"},
	} {
		o := commandOptions()
		c.set(&o)
		o.Dataset = filepath.Join(t.TempDir(), "missing")
		err := Command(context.Background(), o, console.Console{Out: new(bytes.Buffer), Err: new(bytes.Buffer)})
		if !usage.Is(err) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v (usage %v), want bad usage starting %q", err, usage.Is(err), c.want)
		}
	}
	o := commandOptions()
	o.StartText, o.EndText, o.BudgetText = "2020-01-01", "2021-01-01", "5/cycle"
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	if o.Cycle != 7*86400 || o.Start != 1577836800 || o.End != 1609459200 {
		t.Errorf("parsed cycle %d, start %d, end %d; want 604800, 1577836800, 1609459200", o.Cycle, o.Start, o.End)
	}
}

// policiesDataset writes genCorpus's corpus of 20 sites of 5 pages, 6
// cycles of 1000 s, as a dataset and returns its directory.
func policiesDataset(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := dataset.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range genCorpus(20, 5, 6, 1000, uniform(20), 4) {
		p.Resolution = 1
		if err := w.Write(&p); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(&dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Command applies the budget to the pages read (2 % of 100 pages is
// R = 2; a count above the pages, or a sweep budget outside them, is bad
// usage), says what it replays on standard error, prints the tables with
// the sites table cut to 15 of its 20 sites, and writes every row under
// -o; -q with -o prints nothing.
func TestCommand(t *testing.T) {
	ds := policiesDataset(t)
	ctx := context.Background()
	for _, c := range []struct {
		budget  string
		budgets []int
		want    string
	}{
		{"101", nil, "--budget: 101 downloads per cycle exceeds the 100 pages"},
		{"2", []int{1, 101}, "--budgets: 101 outside [1, 100 pages]"},
	} {
		o := commandOptions()
		o.Dataset, o.CycleText, o.BudgetText, o.Budgets = ds, "1000s", c.budget, c.budgets
		err := Command(ctx, o, console.Console{Out: new(bytes.Buffer), Err: new(bytes.Buffer)})
		if !usage.Is(err) || err.Error() != c.want {
			t.Errorf("--budget %s --budgets %v: %v, want bad usage %q", c.budget, c.budgets, err, c.want)
		}
	}

	out := filepath.Join(t.TempDir(), "pol")
	o := commandOptions()
	o.Dataset, o.CycleText, o.BudgetText, o.NoSweeps, o.Out = ds, "1000s", "2%", true, out
	var stdout, stderr bytes.Buffer
	if err := Command(ctx, o, console.Console{Out: &stdout, Err: &stderr}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if lines[0] != "policies: 100 pages, cycle 1000s, R = 2 per cycle…" || lines[len(lines)-1] != "policies: wrote 2 tables and 0 figures under "+out {
		t.Errorf("standard error:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "(first 15 sites; all in the written table)") || !strings.Contains(stdout.String(), "site014") || strings.Contains(stdout.String(), "site015") {
		t.Errorf("the printed sites are not the first 15:\n%s", stdout.String())
	}
	b, err := tables.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range b.Tables {
		if tb.ID == "policy_sites" && len(tb.Rows) != 20 {
			t.Errorf("written sites table: %d rows, want 20", len(tb.Rows))
		}
	}

	stdout.Reset()
	stderr.Reset()
	if err := Command(ctx, o, console.Console{Out: &stdout, Err: &stderr, Quiet: true}); err != nil {
		t.Fatal(err)
	}
	if stdout.Len()+stderr.Len() != 0 {
		t.Errorf("-q -o printed %q, %q", stdout.String(), stderr.String())
	}
}

// An output directory revisit did not write is refused before the
// dataset is read: the dataset here does not exist.
func TestCommandRefusesOutputFirst(t *testing.T) {
	mine := t.TempDir()
	if err := os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := commandOptions()
	o.Dataset, o.Out = filepath.Join(t.TempDir(), "missing"), mine
	err := Command(context.Background(), o, console.Console{Out: new(bytes.Buffer), Err: new(bytes.Buffer)})
	if !usage.IsRefused(err) {
		t.Errorf("got %v, want a refused output", err)
	}
}
