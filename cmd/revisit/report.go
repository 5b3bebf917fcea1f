package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/reports"
)

func newReportCmd(g *globals) *cobra.Command {
	var out, title string
	cmd := &cobra.Command{
		Use:   "report RESULTS_DIR... -o REPORT_DIR",
		Short: "Render results (tables and figures) as HTML, Markdown, CSV, LaTeX and SVG",
		Long: `report reads every table (tables/*.json) and figure (figures/*.json) found
under the results directories — what analyze, replay, simulate and policies
write — and renders them as one self-contained report directory:

  index.html        all tables and figures (inline SVG) by section, after the Findings,
                    with a table of contents; no script, no network needed
  report.md         the same as one Markdown document
  tables/ID.md      one Markdown table per table (numbers for people)
  tables/ID.csv     the same in full precision, for machines
  tables/ID.tex     the same as a LaTeX booktabs table
  figures/ID.svg    each figure; figures/ID.csv holds its curves' points

The report is written to a temporary directory and renamed into place when
complete; an earlier report at REPORT_DIR is replaced, any other non-empty
directory is left alone.`,
		Example: `  revisit report out/analysis -o out/report
  revisit report out/analysis out/simulate -o out/report --title "enwiki 2024"
  xdg-open out/report/index.html`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("report: -o REPORT_DIR is required")
			}
			if err := checkResults("report", out, "report"); err != nil {
				return err // the marker reports.Write looks for: .revisit-report
			}
			var bs []*tables.Bundle
			for _, dir := range args {
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
			b := reports.Merge(bs...)
			opt := reports.Options{Title: title, Inputs: args, Version: version, Context: cmd.Context()}
			if !g.quiet {
				opt.Log = g.console(cmd).Log()
			}
			if err := reports.Write(b, out, opt); err != nil {
				return err
			}
			if !g.quiet {
				printFindings(os.Stderr, b)
				fmt.Fprintf(os.Stderr, "report: %d tables, %d figures → %s\n", len(b.Tables), len(b.Figures), human.Path(filepath.Join(out, "index.html")))
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "report directory to write (required)")
	cmd.Flags().StringVar(&title, "title", "revisit report", "title of the report")
	return cmd
}

// printFindings prints the report's headline (reports.Headline: sentences
// computed from the tables) for the terminal, one sentence per item.
func printFindings(w io.Writer, b *tables.Bundle) {
	h := reports.Headline(b)
	if len(h) == 0 {
		return
	}
	fmt.Fprintln(w, "Findings:")
	for _, s := range h {
		fmt.Fprintln(w, human.Text("  - "+s))
	}
}
