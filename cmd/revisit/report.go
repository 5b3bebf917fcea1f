package main

import (
	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/reports"
)

func newReportCmd(g *globals) *cobra.Command {
	opt := reports.CommandOptions{Options: reports.Options{Version: version}}
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
			opt.Inputs = args
			return reports.Command(cmd.Context(), opt, g.console(cmd))
		},
	}
	cmd.Flags().StringVarP(&opt.Out, "output", "o", "", "report directory to write (required)")
	cmd.Flags().StringVar(&opt.Title, "title", "revisit report", "title of the report")
	return cmd
}
