package policy

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/internal/usage"
)

// CommandOptions is what 'revisit policies' is given: Run's options, the
// text of the flags that Validate parses into them, and where the results
// go.
type CommandOptions struct {
	Options
	// CycleText (--cycle) is the cycle length with its unit ("7d");
	// BudgetText (--budget) the budget in ParseBudget's forms, applied to
	// the pages once they are read; StartText and EndText (--start,
	// --end) dates, "" for the earliest and latest update.
	CycleText, BudgetText, StartText, EndText string
	// Out (-o), if set, is the results directory the tables and figures
	// are written to, for revisit report.
	Out string

	budget Budget // BudgetText, parsed by Validate
}

// Validate checks every value of the command line before any work, and
// parses the text of the flags into Options (Cycle, Start, End): bad
// usage (usage.Error) naming the flag. The budget's form is checked here;
// its page count, and the budgets of the sweep against the pages, only
// when the pages are read (Command). K and Alpha are checked as the
// command line gives them (their defaults 5 and 0.95 written out).
func (o *CommandOptions) Validate() error {
	c, err := units.ParseDuration(o.CycleText)
	if err != nil {
		return usage.Errorf("--cycle: %v", err)
	}
	o.Cycle = c
	if o.BudgetText == "" {
		return usage.Errorf("--budget is required (downloads per cycle, or a percentage of the pages such as 2%%)")
	}
	if o.budget, err = ParseBudget(o.BudgetText); err != nil {
		return usage.Errorf("--budget: %v", err)
	}
	for _, b := range o.Budgets {
		if b < 1 {
			return usage.Errorf("--budgets: %d: want budgets ≥ 1", b)
		}
	}
	if _, err := SiteKey(o.Grouping); err != nil {
		return usage.Errorf("--sites: %v", err)
	}
	for _, n := range o.Policies {
		if _, ok := New(n, Params{}); !ok {
			return usage.Errorf("--policies: unknown policy %q (want %s)", n, strings.Join(Names, ", "))
		}
	}
	for _, s := range []struct {
		flag, v string
		to      *int64
	}{{"--start", o.StartText, &o.Start}, {"--end", o.EndText, &o.End}} {
		if s.v == "" {
			continue
		}
		t, err := units.ParseStart(s.v)
		if err != nil {
			return usage.Errorf("%s: %v", s.flag, err)
		}
		*s.to = t.Unix()
	}
	if o.Start != 0 && o.End != 0 && o.End <= o.Start {
		return usage.Errorf("--end must be after --start")
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return usage.Errorf("--alpha %g: want a confidence level in (0, 1)", o.Alpha)
	}
	if o.RhoT < 0 || o.RhoT >= 1 {
		return usage.Errorf("--rho %g: want a change fraction in [0, 1) (0: adaptive)", o.RhoT)
	}
	if o.SampleSize < 0 || o.K < 1 {
		return usage.Errorf("--sample must be ≥ 0 and --k ≥ 1")
	}
	for _, s := range o.SampleSizes {
		if s < 1 {
			return usage.Errorf("--samples: sizes must be ≥ 1")
		}
	}
	return nil
}

// Command is 'revisit policies DATASET': it replays the download policies
// on the dataset's update series under a budget of R downloads per cycle
// (SPEC §4.5) and prints their ChangeRatio tables on con.Out (unless -q
// with -o), and writes the tables and figures under opt.Out for revisit
// report when it is set. Every value and the output path are checked
// before the dataset is read.
func Command(ctx context.Context, opt CommandOptions, con console.Console) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	if opt.Out != "" {
		if err := tables.CheckResultsOutput("policies", opt.Out, "policies"); err != nil {
			return err
		}
	}
	ds, err := dataset.Open(opt.Dataset)
	if err != nil {
		return err
	}
	pages, err := ds.All()
	if err != nil {
		return err
	}
	if len(pages) == 0 {
		return fmt.Errorf("dataset %s: no pages", opt.Dataset)
	}
	if opt.Budget, err = opt.budget.Downloads(len(pages)); err != nil {
		return usage.Errorf("--budget: %v", err)
	}
	for _, b := range opt.Budgets {
		if b < 1 || b > len(pages) {
			return usage.Errorf("--budgets: %d outside [1, %d pages]", b, len(pages))
		}
	}
	con.Logf("policies: %s, cycle %s, R = %s per cycle…", human.Count(int64(len(pages)), "page", "pages"), opt.CycleText, human.Comma(int64(opt.Budget)))
	opt.Log = con.Log() // a progress line every LogEvery
	b, err := Run(ctx, pages, opt.Options)
	if err != nil {
		return err
	}
	if con.PrintsTables(opt.Out) {
		PrintTables(con.Out, b) // a failed write is standard output's, reported at exit
	}
	if opt.Out == "" {
		return nil
	}
	// Atomically: a failure leaves no half-written results.
	err = tables.WriteResults(ctx, opt.Out, "policies", func(tmp string) error {
		if err := b.Write(tmp); err != nil {
			return fmt.Errorf("policies: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	con.Logf("policies: wrote %d tables and %d figures under %s", len(b.Tables), len(b.Figures), human.Path(opt.Out))
	return nil
}

// printedSites is how many rows of the sites table PrintTables prints:
// the written table has them all.
const printedSites = 15

// PrintTables prints Run's tables for the terminal (tables.Fprint), the
// sites table cut to its first printedSites rows, and the Source line of
// the first table; the first write error, if any.
func PrintTables(w io.Writer, b *tables.Bundle) error {
	for _, t := range b.Tables {
		if t.ID == "policy_sites" && len(t.Rows) > printedSites {
			t.Rows = t.Rows[:printedSites]
			t.Notes = append([]string{fmt.Sprintf("(first %d sites; all in the written table)", printedSites)}, t.Notes...)
		}
		if err := tables.Fprint(w, t); err != nil {
			return err
		}
	}
	if len(b.Tables) > 0 {
		_, err := fmt.Fprintln(w, human.Text("Source: "+b.Tables[0].Source))
		return err
	}
	return nil
}
