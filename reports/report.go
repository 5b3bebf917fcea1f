package reports

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/tables"
)

// Options tunes Write. The zero value is ready to use.
type Options struct {
	// Title heads index.html and report.md; default "revisit report".
	Title string
	// Inputs are the results directories the bundle was read from, listed
	// under the title as the report's provenance.
	Inputs []string
	// Version is the tool version printed in the footer.
	Version string
	// MaxHTMLRows caps the rows shown per table in index.html (the
	// Markdown, CSV and LaTeX files hold them all); default 200.
	MaxHTMLRows int
	// Log receives warnings (a figure that could not be drawn is shown as
	// an error box in its place); nil discards them.
	Log func(format string, a ...any)
	// Context, when set, stops the rendering between figures once it is
	// done (Ctrl-C), and then nothing is put in place
	// (atomicdir.CreateContext).
	Context context.Context
}

// stopped is the error of opt.Context once it is done, else nil.
func (opt *Options) stopped() error {
	if opt.Context == nil {
		return nil
	}
	return opt.Context.Err()
}

// marker is the file that identifies a directory written by Write, so
// that Write replaces an earlier report but never a directory of the
// user's that happens to have the same name.
const marker = ".revisit-report"

// Merge concatenates bundles (several results directories make one
// report) and sorts tables and figures by section (1–7, then 0), order
// and ID.
func Merge(bs ...*tables.Bundle) *tables.Bundle {
	var out tables.Bundle
	for _, b := range bs {
		if b == nil {
			continue
		}
		out.Tables = append(out.Tables, b.Tables...)
		out.Figures = append(out.Figures, b.Figures...)
	}
	sort.SliceStable(out.Tables, func(i, j int) bool {
		a, c := out.Tables[i], out.Tables[j]
		return less(a.Section, a.Order, a.ID, c.Section, c.Order, c.ID)
	})
	sort.SliceStable(out.Figures, func(i, j int) bool {
		a, c := out.Figures[i], out.Figures[j]
		return less(a.Section, a.Order, a.ID, c.Section, c.Order, c.ID)
	})
	return &out
}

// less orders by section (tables.SectionList's order, then others by
// number), order and ID.
func less(s1 tables.Section, o1 int, id1 string, s2 tables.Section, o2 int, id2 string) bool {
	if r1, r2 := s1.Rank(), s2.Rank(); r1 != r2 {
		return r1 < r2
	}
	if s1 != s2 {
		return s1 < s2
	}
	if o1 != o2 {
		return o1 < o2
	}
	return id1 < id2
}

// item is one table or figure placed in the report, with its file stem.
type item struct {
	section tables.Section
	order   int
	stem    string
	table   *tables.Table
	figure  *tables.Figure
	svg     []byte   // rendered figure, nil if it failed or was not drawn
	notes   []string // figure notes from rendering (dropped points…)
	err     error    // why the figure could not be drawn
	nofig   string   // why the figure is not drawn (Unplottable), shown in its place
}

// Write renders b into the directory outDir: index.html (every table, and
// every figure as inline SVG, by SPEC §7 section, with a table of contents;
// a figure with too few points to draw (see Unplottable) is replaced by
// the sentence saying why, and has no SVG file;
// no script, no network), report.md (the same in Markdown, figures linked),
// tables/ID.{md,csv,tex} and figures/ID.{svg,csv}. The report is built in a
// temporary directory beside outDir and renamed into place when complete;
// an earlier report at outDir is replaced, any other non-empty directory
// is left alone and an error returned.
func Write(b *tables.Bundle, outDir string, opt Options) (err error) {
	if b == nil || len(b.Tables)+len(b.Figures) == 0 {
		return errors.New("report: nothing to render (no tables or figures)")
	}
	if opt.Title == "" {
		opt.Title = "revisit report"
	}
	if opt.MaxHTMLRows <= 0 {
		opt.MaxHTMLRows = 200
	}
	outDir = filepath.Clean(outDir)
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	out, err := atomicdir.CreateContext(ctx, outDir, marker, "report")
	if err != nil {
		return err
	}
	defer out.Abort() // no-op after Commit
	if err := render(b, out.Path(), opt); err != nil {
		return fmt.Errorf("report %s: %w", outDir, err)
	}
	if err := os.WriteFile(filepath.Join(out.Path(), marker), []byte("written by revisit report; this directory is replaced by the next report written here\n"), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return out.Commit()
}

// layout places tables and figures, gives each a unique file-safe stem and
// renders the figures.
func layout(b *tables.Bundle, opt Options) []*item {
	used := map[string]int{}
	stem := func(kind, id string) string {
		s := fileStem(id)
		key := kind + "/" + s
		used[key]++
		if n := used[key]; n > 1 {
			s += "-" + strconv.Itoa(n)
			used[kind+"/"+s]++
		}
		return s
	}
	var items []*item
	for i := range b.Tables {
		t := &b.Tables[i]
		items = append(items, &item{section: t.Section, order: t.Order, stem: stem("t", t.ID), table: t})
	}
	for i := range b.Figures {
		f := &b.Figures[i]
		it := &item{section: f.Section, order: f.Order, stem: stem("f", f.ID), figure: f}
		if opt.stopped() != nil {
			it.nofig = "not drawn: stopped" // Write then commits nothing
		} else if it.nofig = Unplottable(f); it.nofig == "" {
			it.svg, it.notes, it.err = SVG(f)
		}
		if it.err != nil && opt.Log != nil {
			opt.Log("report: %v", it.err)
		}
		items = append(items, it)
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, c := items[i], items[j]
		if a.section != c.section || a.order != c.order {
			return less(a.section, a.order, "", c.section, c.order, "")
		}
		return a.table != nil && c.table == nil // tables before figures of the same order
	})
	return items
}

// fileStem keeps the characters a portable file name may hold.
func fileStem(id string) string {
	s := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, id)
	s = strings.TrimLeft(s, ".")
	if s == "" {
		s = "unnamed"
	}
	return s
}

func render(b *tables.Bundle, dir string, opt Options) error {
	items := layout(b, opt)
	for _, sub := range []string{"tables", "figures"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	for _, it := range items {
		if t := it.table; t != nil {
			base := filepath.Join(dir, "tables", it.stem)
			if err := writeFile(base+".md", func(w io.Writer) error { return WriteMarkdown(w, t) }); err != nil {
				return err
			}
			if err := writeFile(base+".csv", func(w io.Writer) error { return WriteCSV(w, t) }); err != nil {
				return err
			}
			if err := writeFile(base+".tex", func(w io.Writer) error { return WriteLaTeX(w, t) }); err != nil {
				return err
			}
			continue
		}
		base := filepath.Join(dir, "figures", it.stem)
		if err := writeFile(base+".csv", func(w io.Writer) error { return WriteCurvesCSV(w, it.figure) }); err != nil {
			return err
		}
		if it.svg != nil {
			if err := os.WriteFile(base+".svg", it.svg, 0o644); err != nil {
				return err
			}
		}
	}
	heads := headlineFor(b, items)
	if err := writeFile(filepath.Join(dir, "report.md"), func(w io.Writer) error { return writeReportMarkdown(w, items, heads, opt) }); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "index.html"), func(w io.Writer) error { return writeHTML(w, items, heads, opt) })
}

// placedFinding is a headline sentence with the file stem of the table it
// was computed from ("" when that table is not in the report).
type placedFinding struct {
	text, stem string
}

// headlineFor computes the findings of b and finds the report's file stem
// of each one's table (the first table with that ID, as findings uses).
func headlineFor(b *tables.Bundle, items []*item) []placedFinding {
	stems := map[string]string{}
	for _, it := range items {
		if it.table != nil {
			if _, ok := stems[it.table.ID]; !ok {
				stems[it.table.ID] = it.stem
			}
		}
	}
	var out []placedFinding
	for _, f := range findings(b) {
		out = append(out, placedFinding{f.text, stems[f.table]})
	}
	return out
}

func writeFile(path string, fn func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := fn(&buf); err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// writeReportMarkdown writes the whole report as one Markdown document:
// sections, tables, and figures as image links with their captions.
func writeReportMarkdown(w io.Writer, items []*item, heads []placedFinding, opt Options) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# %s\n\n", mdText(opt.Title))
	if len(opt.Inputs) > 0 {
		fmt.Fprintf(&buf, "Results: %s\n\n", mdText(strings.Join(opt.Inputs, ", ")))
	}
	if len(heads) > 0 {
		buf.WriteString("## Findings\n\n")
		for _, h := range heads {
			fmt.Fprintf(&buf, "- %s", mdText(h.text))
			if h.stem != "" {
				fmt.Fprintf(&buf, " ([table](tables/%s.md))", h.stem)
			}
			buf.WriteString("\n")
		}
		buf.WriteString("\n")
	}
	sec := tables.Section(-1 << 31)
	for _, it := range items {
		if it.section != sec {
			sec = it.section
			fmt.Fprintf(&buf, "## %s\n\n", sec.Heading())
		}
		if it.table != nil {
			if err := writeMarkdown(&buf, it.table, 3); err != nil {
				return err
			}
			fmt.Fprintf(&buf, "Files: [CSV](tables/%[1]s.csv) · [Markdown](tables/%[1]s.md) · [LaTeX](tables/%[1]s.tex)\n\n", it.stem)
			continue
		}
		f := it.figure
		fmt.Fprintf(&buf, "### %s\n\n", mdText(figTitle(f)))
		if it.nofig != "" {
			fmt.Fprintf(&buf, "%s\n\n", mdText(it.nofig))
		} else if it.svg != nil {
			fmt.Fprintf(&buf, "![%s](figures/%s.svg)\n\n", mdAlt(figTitle(f)), it.stem)
		} else {
			fmt.Fprintf(&buf, "(figure could not be drawn: %s)\n\n", mdText(it.err.Error()))
		}
		if c := figCaption(f, it.notes); c != "" {
			fmt.Fprintf(&buf, "%s\n\n", mdText(c))
		}
		if f.Source != "" {
			fmt.Fprintf(&buf, "Source: %s\n\n", mdText(f.Source))
		}
		fmt.Fprintf(&buf, "Data: [CSV](figures/%s.csv)\n\n", it.stem)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func figTitle(f *tables.Figure) string {
	if f.Title != "" {
		return f.Title
	}
	return f.ID
}

// figCaption joins the producer's caption with the renderer's notes.
func figCaption(f *tables.Figure, notes []string) string {
	parts := []string{}
	if f.Caption != "" {
		parts = append(parts, strings.TrimSuffix(oneLine(f.Caption), ".")+".")
	}
	for _, n := range notes {
		parts = append(parts, upperFirst(n)+".")
	}
	return strings.Join(parts, " ")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	if r[0] >= 'a' && r[0] <= 'z' {
		r[0] -= 'a' - 'A'
	}
	return string(r)
}
