package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

// slowBundle is a slow source computed in hours: intervals of about 60
// days (1,446 h = 60.25 d; 1,500 h = 62.5 d; 1,320 h = 55 d), and a
// survival figure whose ages run from 24 h to 13,540 h.
func slowBundle() *tables.Bundle {
	return &tables.Bundle{
		Tables: []tables.Table{{ID: "slow", Title: "Top pages of a git history", Section: tables.SectionTopPages,
			Columns: []tables.Column{{Name: "title", Kind: tables.String}, {Name: "E[U]", Unit: "h", Kind: tables.Duration},
				{Name: "RMSE", Unit: "h", Kind: tables.Duration}, {Name: "MSE", Unit: "h²", Kind: tables.Float}},
			Rows: [][]any{{"a", 1446.0, 13540.0, 2.0}, {"b", 1500.0, 13540.0, 3.0}, {"c", 1320.0, 13540.0, 4.0}}}},
		Figures: []tables.Figure{{ID: "slow_tail", Title: "Tail", Section: tables.SectionTails, LogX: true, LogY: true,
			XLabel: "interval x", XUnit: "h", YLabel: "survival P(U ≥ x)",
			Curves: []tables.Curve{{Name: "data", X: []float64{24, 240, 1440, 2400, 13540}, Y: []float64{1, 0.8, 0.5, 0.2, 0.01}}}}},
	}
}

// People read the slow source's durations in days (or years) without
// e-notation; the CSV keeps hours, named in the header.
func TestSlowSourceInDays(t *testing.T) {
	b := slowBundle()
	tb := &b.Tables[0]
	var md bytes.Buffer
	if err := WriteMarkdown(&md, tb); err != nil {
		t.Fatal(err)
	}
	// E[U]: median 1,446 h = 60.25 d; RMSE: 13,540 h = 1.545 y (13,540/8,766).
	for _, want := range []string{"| title | E[U] (d) | RMSE (y) | MSE (h²) |", "| a | 60.25 | 1.545 | 2 |", "| b | 62.5 | 1.545 | 3 |", "| c | 55 | 1.545 | 4 |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
	var csv bytes.Buffer
	if err := WriteCSV(&csv, tb); err != nil {
		t.Fatal(err)
	}
	if want := "title,E[U] (h),RMSE (h),MSE (h²)\na,1446,13540,2\nb,1500,13540,3\nc,1320,13540,4\n"; csv.String() != want {
		t.Errorf("CSV =\n%s\nwant\n%s", csv.String(), want)
	}
	var tex bytes.Buffer
	if err := WriteLaTeX(&tex, tb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tex.String(), "E[U] (d)") || !strings.Contains(tex.String(), "60.25") {
		t.Errorf("LaTeX not in days:\n%s", tex.String())
	}

	dir := filepath.Join(t.TempDir(), "report")
	if err := Write(b, dir, Options{Title: "slow"}); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"E[U] (d)", ">60.25<", "RMSE (y)", ">1.545<"} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if bytes.Contains(html, []byte("1,446")) || bytes.Contains(html, []byte("e+04")) {
		t.Error("index.html shows the hours or e-notation")
	}
	// The figure: the axis in days (median age 1,440 h = 60 d), the CSV in
	// hours under the label with its unit.
	svg, err := os.ReadFile(filepath.Join(dir, "figures", "slow_tail.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("interval x (d)")) || bytes.Contains(svg, []byte("interval x (h)")) {
		t.Errorf("SVG x axis not labelled in days")
	}
	// Decade ticks of 1–564 d: 1, 10, 100 label the axis (24 h = 1 d).
	for _, tick := range []string{">1<", ">10<", ">100<"} {
		if !bytes.Contains(svg, []byte(tick)) {
			t.Errorf("SVG lacks the day tick %s", tick)
		}
	}
	fcsv, err := os.ReadFile(filepath.Join(dir, "figures", "slow_tail.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "curve,interval x (h),survival P(U ≥ x)\ndata,24,1\n"; !strings.HasPrefix(string(fcsv), want) {
		t.Errorf("figure CSV =\n%s\nwant it to start with\n%s", fcsv, want)
	}
	// The figure JSON the bundle came from is not changed by rendering.
	if b.Figures[0].XLabel != "interval x" || b.Figures[0].Curves[0].X[4] != 13540 {
		t.Error("rendering changed the figure it was given")
	}
	md2, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if regexp.MustCompile(`\d\.\d+e[+-]\d\d`).Match(md2) {
		t.Errorf("report.md shows e-notation:\n%s", md2)
	}
}

// A figure too small to draw states its lone point in the display unit.
func TestUnplottableInDisplayUnit(t *testing.T) {
	f := tables.Figure{ID: "one", XLabel: "age x", XUnit: "h", YLabel: "1 − G(x)",
		Curves: []tables.Curve{{Name: "c", X: []float64{48}, Y: []float64{0.5}}}}
	got := Unplottable(&f)
	if !strings.Contains(got, "age x (d) = 2,") {
		t.Errorf("Unplottable = %q, want the age in days (age x (d) = 2)", got)
	}
}

// Fitted parameters of a slow source print without e-notation for
// people; the CSV keeps the fit's text.
func TestParamsWithoutENotation(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"α = 0.45, β = 1.354e+04 h", "α = 0.45, β = 1.545 y"}, // 13,540/8,766
		{"k = 0.5405, ν = 2510 h", "k = 0.5405, ν = 104.6 d"},  // 2510/24
		{"α = 0.4502, β = 0.0499 h", "α = 0.4502, β = 2.994 min"},
		{"λ = 7.386e-05 /h", "λ = 0.00007386 /h"},
		{"μ = -1.296e+01 (ln h), σ = 2.2", "μ = −12.96 (ln h), σ = 2.2"},
		{"k = 0.94, ν = 1.9 h", "k = 0.94, ν = 1.9 h"},
		{"β = 3 furlongs", "β = 3 furlongs"},
	} {
		if got := tables.HumanParams(c.in); got != c.want {
			t.Errorf("tables.HumanParams(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	tb := tables.Table{Columns: []tables.Column{{Name: "parameters", Kind: tables.String}}, Rows: [][]any{{"β = 1.354e+04 h"}}}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, &tb); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "parameters\nβ = 1.354e+04 h\n" {
		t.Errorf("CSV = %q", buf.String())
	}
}
