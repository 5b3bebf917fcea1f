package reports

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/usage"
)

// CommandOptions is what 'revisit report' is given: Write's options
// (Inputs are the results directories to read) and the report directory.
type CommandOptions struct {
	Options
	// Out (-o) is the report directory to write (required).
	Out string
}

// Command is 'revisit report RESULTS_DIR... -o REPORT_DIR': it reads
// every table and figure under the results directories (what analyze,
// replay, simulate and policies write), renders them as one report
// directory (Write), and prints the Findings and where index.html is,
// unless -q. The output is checked before any results directory is read.
func Command(ctx context.Context, opt CommandOptions, con console.Console) error {
	if opt.Out == "" {
		return usage.Errorf("report: -o REPORT_DIR is required")
	}
	if err := tables.CheckResultsOutput("report", opt.Out, "report"); err != nil {
		return err // the marker Write looks for: .revisit-report
	}
	var bs []*tables.Bundle
	for _, dir := range opt.Inputs {
		st, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		if !st.IsDir() {
			return fmt.Errorf("report: %s is not a directory (give the results directories analyze, replay or simulate wrote)", dir)
		}
		b, err := tables.Read(dir)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		if len(b.Tables)+len(b.Figures) == 0 {
			return fmt.Errorf("report: no tables or figures under %s (expected tables/*.json or figures/*.json, as analyze writes)", dir)
		}
		bs = append(bs, b)
	}
	b := Merge(bs...)
	opt.Context, opt.Log = ctx, con.Log()
	if err := Write(b, opt.Out, opt.Options); err != nil {
		return err
	}
	if !con.Quiet {
		WriteFindings(con.Err, b)
		con.Logf("report: %d tables, %d figures → %s", len(b.Tables), len(b.Figures), human.Path(filepath.Join(opt.Out, "index.html")))
	}
	return nil
}
