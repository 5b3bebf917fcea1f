package reports_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/pipeline"
)

// hostileTitles are page titles that a Markdown viewer would render as
// HTML or code, or that break a pipe table, or that a spreadsheet would
// evaluate as a formula.
var hostileTitles = []string{
	`<img src=x onerror=alert(1)>`,
	`=HYPERLINK("http://x","y")`,
	"a|b `code` & c",
	`-2+3`,
}

// runHostile runs the whole pipeline on a generic CSV log whose pages carry
// hostileTitles and returns the report directory.
func runHostile(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var sb strings.Builder
	cw := csv.NewWriter(&sb)
	cw.Write([]string{"id", "time", "title"})
	t0 := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for p, title := range hostileTitles {
		at := t0
		for i := range 120 {
			at = at.Add(time.Duration(1+(i*7+p*13)%11) * time.Hour)
			cw.Write([]string{fmt.Sprint("page", p), at.Format(time.RFC3339), title})
		}
	}
	cw.Flush()
	in := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	c := pipeline.DefaultConfig()
	c.Inputs, c.Out = []string{in}, filepath.Join(dir, "run")
	c.Top, c.Reps = 4, 19
	c.Ingest.Generic.ID, c.Ingest.Generic.Time, c.Ingest.Generic.Title = "id", "time", "title"
	c.Ingest.Generic.Format, c.Ingest.Generic.TimeLayout = "auto", "auto"
	res, err := pipeline.Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return res.Report
}

// A page title holding HTML reaches report.md and
// tables/*.md escaped (&lt;img …), never as raw HTML, and pipes and
// backticks cannot break a table cell; in tables/*.csv a title that a
// spreadsheet would evaluate is prefixed with "'", while negative numbers
// in numeric columns are not.
func TestHostileTitlesEscaped(t *testing.T) {
	rep := runHostile(t)
	mds, _ := filepath.Glob(filepath.Join(rep, "tables", "*.md"))
	mds = append(mds, filepath.Join(rep, "report.md"))
	seen := false
	for _, p := range mds {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if i := strings.Index(s, "<img"); i >= 0 {
			t.Errorf("%s holds raw HTML: %q", filepath.Base(p), s[i:min(len(s), i+40)])
		}
		if strings.Contains(s, "`code`") {
			t.Errorf("%s holds an unescaped backtick", filepath.Base(p))
		}
		for _, line := range strings.Split(s, "\n") {
			if strings.HasPrefix(line, "|") && strings.Contains(line, "a|b") {
				t.Errorf("%s: a title's | splits a table cell: %s", filepath.Base(p), line)
			}
		}
		if strings.Contains(s, "&lt;img src=x onerror=alert(1)&gt;") {
			seen = true
		}
	}
	if !seen {
		t.Error("no Markdown file shows the escaped title &lt;img src=x onerror=alert(1)&gt;")
	}
	top, err := os.ReadFile(filepath.Join(rep, "tables", "top_pages.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(string(top))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cells := map[string]bool{}
	for _, r := range recs {
		for _, c := range r {
			cells[c] = true
		}
	}
	for _, want := range []string{`'=HYPERLINK("http://x","y")`, `'-2+3`, "<img src=x onerror=alert(1)>"} {
		if !cells[want] {
			t.Errorf("top_pages.csv has no cell %q:\n%s", want, top)
		}
	}
	if cells[`=HYPERLINK("http://x","y")`] {
		t.Error("top_pages.csv holds an unguarded formula")
	}
}
