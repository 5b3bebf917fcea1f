package reports_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/reports"
)

// One table rendered for people (Markdown) and for machines (CSV). E[U]
// was computed in hours: people read the column in the unit its values
// call for (days: the median of 4.8 h and 1,446 h is 30 d), the CSV
// keeps hours.
func ExampleWriteMarkdown() {
	t := tables.Table{
		ID: "top", Title: "Top pages", Source: "Anarchism history, a git history",
		Columns: []tables.Column{
			{Name: "title", Kind: tables.String},
			{Name: "updates", Kind: tables.Int},
			{Name: "E[U]", Unit: "h", Kind: tables.Duration},
			{Name: "share", Kind: tables.Percent},
		},
		Rows: [][]any{{"Anarchism", int64(15180), 4.8, 0.5}, {"git", int64(120), 1446.0, 0.004}},
	}
	reports.WriteMarkdown(os.Stdout, &t)
	reports.WriteCSV(os.Stdout, &t)
	// Output:
	// ## Top pages
	//
	// Source: Anarchism history, a git history
	//
	// | title | updates | E[U] (d) | share |
	// |:---|---:|---:|---:|
	// | Anarchism | 15,180 | 0.2 | 50.00% |
	// | git | 120 | 60.25 | 0.40% |
	//
	// title,updates,E[U] (h),share (fraction)
	// Anarchism,15180,4.8,0.5
	// git,120,1446,0.004
}

// A whole report directory from a bundle (normally read from results
// directories with tables.Read).
func ExampleWrite() {
	b := &tables.Bundle{
		Tables: []tables.Table{{ID: "corpus", Title: "Corpus", Section: 1,
			Columns: []tables.Column{{Name: "pages", Kind: tables.Int}}, Rows: [][]any{{int64(1000)}}}},
		Figures: []tables.Figure{{ID: "tail", Title: "Tail", Section: 3, XLabel: "x (h)", YLabel: "P(U > x)", LogX: true, LogY: true,
			Curves: []tables.Curve{{Name: "Pareto α = 2", X: []float64{1, 10, 100}, Y: []float64{0.25, 0.0083, 0.000098}}}}},
	}
	dir, err := os.MkdirTemp("", "report-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "report")
	if err := reports.Write(b, out, reports.Options{Title: "Example"}); err != nil {
		log.Fatal(err)
	}
	for _, f := range []string{"index.html", "report.md", "tables/corpus.md", "tables/corpus.csv", "tables/corpus.tex", "figures/tail.svg", "figures/tail.csv"} {
		_, err := os.Stat(filepath.Join(out, f))
		fmt.Println(f, err == nil)
	}
	// Output:
	// index.html true
	// report.md true
	// tables/corpus.md true
	// tables/corpus.csv true
	// tables/corpus.tex true
	// figures/tail.svg true
	// figures/tail.csv true
}
