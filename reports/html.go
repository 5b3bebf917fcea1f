package reports

import (
	"bytes"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/internal/tables"
)

// The HTML view: plain data for the template, every string escaped by
// html/template except the SVG that this package rendered itself.

type htmlSection struct {
	Anchor, Heading string
	Items           []htmlItem
}

type htmlItem struct {
	Anchor, Title, Source, Stem string
	Notes                       []string
	// table
	IsTable bool
	Head    []htmlHead
	Rows    [][]htmlCell
	Group   []bool // row i begins a new group of a method table (a rule above it)
	Hidden  int    // rows left out of the HTML (all are in the CSV)
	Long    bool   // more than longTableRows rows: a scroll box with a fixed header
	NRows   int
	Wide    bool // wider than the page: scrolls sideways, with a note
	NCols   int
	// figure
	SVG     template.HTML
	Caption string
	Err     string
	NoFig   string // why the figure is not drawn
}

type htmlHead struct {
	Text, Doc string
	Num, Txt  bool
}

type htmlCell struct {
	Text string
	Num  bool
	Txt  bool // free text (titles, notes): may wrap
}

// Estimated widths, in pixels at the report's table font (about 14 px),
// of what a table needs at least: headers wrap between words, free-text
// cells wrap at textMaxPx, other cells never wrap.
const (
	charPx     = 7.8
	cellPadPx  = 20
	textMaxPx  = 24 * 14 // the CSS max-width of a free-text cell, 24em
	pageTextPx = 1060 - 48
)

// groupStarts marks, in a method table, the first row of each run of
// rows that share the columns left of the method column (a sampler and
// kind of method_errors), so that the HTML can rule the groups off; the
// first row and other tables get no mark.
func groupStarts(t *tables.Table, n int) []bool {
	out := make([]bool, n)
	mi := methodColumn(t)
	if mi <= 0 {
		return out
	}
	key := func(r []any) string { return groupKey(t, mi, r) }
	for i := 1; i < n && i < len(t.Rows); i++ {
		out[i] = key(t.Rows[i]) != key(t.Rows[i-1])
	}
	return out
}

// freeTextRunes is the length from which a String column's cells may
// wrap in the HTML (notes, long titles); shorter names never break.
const freeTextRunes = 30

// freeText tells whether column j holds free text: a String column with
// a cell of freeTextRunes or more.
func freeText(c tables.Column, human [][]string, j int) bool {
	if c.Kind != tables.String {
		return false
	}
	for _, r := range human {
		if j < len(r) && len([]rune(r[j])) >= freeTextRunes {
			return true
		}
	}
	return false
}

// tableMinWidth estimates the narrowest a table can be laid out, from
// its cells' lengths: a table wider than the page scrolls sideways, and
// the report says so above it.
func tableMinWidth(head []htmlHead, rows [][]htmlCell) float64 {
	total := 0.0
	for j, h := range head {
		w := 0
		for _, word := range strings.Fields(h.Text) {
			w = max(w, len([]rune(word)))
		}
		need := float64(w) * charPx
		for _, r := range rows {
			if j < len(r) {
				need = max(need, float64(len([]rune(r[j].Text)))*charPx)
			}
		}
		if h.Txt {
			need = min(need, textMaxPx)
		}
		total += need + cellPadPx
	}
	return total
}

type htmlFinding struct {
	Lead, Text, Anchor string // Lead: the words before the first colon, set in bold
}

// maxLead is the longest lead ("Poisson screen", "Scenario “…”", "Cost
// of assuming Poisson when estimating G_U (4 pages with ≥ 99 intervals)")
// set in bold before a finding's first colon.
const maxLead = 80

func writeHTML(w io.Writer, items []*item, heads []placedFinding, opt Options) error {
	var secs []*htmlSection
	cur := tables.Section(-1 << 31)
	for _, it := range items {
		if it.section != cur || len(secs) == 0 {
			cur = it.section
			secs = append(secs, &htmlSection{Anchor: "s" + strconv.Itoa(int(it.section)), Heading: it.section.Heading()})
		}
		s := secs[len(secs)-1]
		s.Items = append(s.Items, htmlView(it, opt))
	}
	data := struct {
		Title    string
		Inputs   []string
		Version  string
		Findings []htmlFinding
		Sections []*htmlSection
		NTables  int
		NFigures int
	}{Title: opt.Title, Inputs: opt.Inputs, Version: opt.Version, Sections: secs}
	for _, h := range heads {
		f := htmlFinding{Text: h.text}
		if i := strings.Index(h.text, ": "); i > 0 && len([]rune(h.text[:i])) <= maxLead {
			f.Lead, f.Text = h.text[:i+1], h.text[i+1:]
		}
		if h.stem != "" {
			f.Anchor = "t-" + h.stem
		}
		data.Findings = append(data.Findings, f)
	}
	for _, it := range items {
		if it.table != nil {
			data.NTables++
		} else {
			data.NFigures++
		}
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, data); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// longTableRows is the most rows a table shows in full height; a longer
// one (200 page × method rows, 167 screened pages) scrolls inside a box of about that height
// with its header fixed, instead of pushing the rest of the report
// several screens down.
const longTableRows = 50

func htmlView(it *item, opt Options) htmlItem {
	if it.table != nil {
		t := forPeople(it.table)
		v := htmlItem{IsTable: true, Anchor: "t-" + it.stem, Stem: it.stem, Title: titleOf(t), Source: t.Source, Notes: t.Notes}
		human := tables.HumanRows(t, tables.Report)
		for j, c := range t.Columns {
			v.Head = append(v.Head, htmlHead{Text: tables.HumanHead(t, j), Doc: c.Doc, Num: tables.Numeric(c.Kind), Txt: freeText(c, human, j)})
		}
		rows := t.Rows
		if len(rows) > opt.MaxHTMLRows {
			v.Hidden = len(rows) - opt.MaxHTMLRows
			rows = rows[:opt.MaxHTMLRows]
		}
		v.Long, v.NRows = len(rows) > longTableRows, len(rows)
		for i := range rows {
			cells := make([]htmlCell, len(t.Columns))
			for j, c := range t.Columns {
				cells[j] = htmlCell{Text: human[i][j], Num: tables.Numeric(c.Kind), Txt: v.Head[j].Txt}
			}
			v.Rows = append(v.Rows, cells)
		}
		v.Group = groupStarts(t, len(rows))
		v.NCols = len(t.Columns)
		v.Wide = tableMinWidth(v.Head, v.Rows) > pageTextPx
		return v
	}
	f := it.figure
	v := htmlItem{Anchor: "f-" + it.stem, Stem: it.stem, Title: figTitle(f), Source: f.Source, Caption: figCaption(f, it.notes)}
	switch {
	case it.nofig != "":
		v.NoFig = it.nofig
	case it.err != nil:
		v.Err = it.err.Error()
	default:
		v.SVG = template.HTML(inlineSVG(it.svg, figTitle(f)))
	}
	return v
}

// inlineSVG strips the XML prologue of a standalone SVG so that it can sit
// inside HTML, and labels it for screen readers.
func inlineSVG(svg []byte, title string) string {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	label := template.HTMLEscapeString(title)
	return strings.Replace(s, "<svg ", `<svg class="plot" role="img" aria-label="`+label+`" `, 1)
}

var pageTemplate = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="revisit report{{with .Version}} {{.}}{{end}}">
<title>{{.Title}}</title>
<style>
:root { --fg: #1b1b1b; --muted: #5a5a5a; --rule: #d0d0d0; --zebra: #f5f7fa; --accent: #0072b2; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: #fff; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif; }
header, main, footer { max-width: 1060px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; }
h1 { font-size: 1.7em; margin: 0 0 4px; }
h2 { font-size: 1.35em; margin: 36px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--accent); }
h3 { font-size: 1.08em; margin: 26px 0 4px; }
a { color: var(--accent); }
.meta, .source, .files, figcaption, .notes, footer { color: var(--muted); font-size: 0.9em; }
.source { margin: 0 0 8px; }
nav.toc { background: var(--zebra); border: 1px solid var(--rule); border-radius: 6px; padding: 8px 20px; margin: 16px 0; }
nav.toc h2 { border: 0; margin: 6px 0; font-size: 1.1em; }
nav.toc ol { margin: 4px 0; padding-left: 22px; }
nav.toc > ol { list-style: none; padding-left: 4px; } /* headings carry their numbers */
nav.toc ol ol { list-style: disc; font-size: 0.92em; }
.tablebox { position: relative; }
.tablebox.wide::after { content: ""; position: absolute; top: 0; right: 0; bottom: 14px; width: 36px; pointer-events: none; background: linear-gradient(to right, rgba(255,255,255,0), rgba(255,255,255,0.95)); }
.tablebox.wide .tablewrap { overflow-x: scroll; }
.wide-note { font-weight: 600; }
.tablewrap { overflow-x: auto; }
.tablewrap.long { max-height: 34em; overflow-y: auto; border-bottom: 1px solid var(--rule); }
.tablewrap.long th { position: sticky; top: 0; z-index: 1; }
table.data { border-collapse: collapse; margin: 6px 0; font-variant-numeric: tabular-nums; font-size: 0.93em; }
table.data th, table.data td { padding: 4px 10px; border-bottom: 1px solid var(--rule); text-align: left; white-space: nowrap; }
table.data th { border-bottom: 2px solid #888; background: #fff; white-space: normal; vertical-align: bottom; }
table.data td.txt { white-space: normal; max-width: 24em; overflow-wrap: break-word; }
table.data th[title] { text-decoration: underline dotted; cursor: help; }
table.data .num { text-align: right; }
table.data tr.group td { border-top: 2px solid #999; }
table.data tbody tr:nth-child(even) { background: var(--zebra); }
.notes { margin: 6px 0; padding-left: 20px; }
figure { margin: 18px 0; }
svg.plot { display: block; width: 100%; max-width: 820px; height: auto; }
svg.plot text { font-family: "Liberation Sans", Arial, Helvetica, sans-serif !important; }
.findings { border-left: 4px solid var(--accent); background: var(--zebra); padding: 6px 20px 8px; margin: 16px 0; }
.findings h2 { border: 0; margin: 6px 0; font-size: 1.2em; }
.findings ul { margin: 4px 0; padding-left: 20px; }
.findings li { margin: 4px 0; }
.nofig { border: 1px dashed var(--rule); background: var(--zebra); padding: 10px 14px; margin: 8px 0; max-width: 820px; }
.error { color: #a00; border: 1px solid #a00; padding: 8px; }
footer { margin-top: 40px; padding-bottom: 30px; border-top: 1px solid var(--rule); padding-top: 8px; }
@media print { nav.toc { display: none; } figure, .table { break-inside: avoid; } .tablewrap.long { max-height: none; overflow: visible; } }
</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
<p class="meta">{{.NTables}} tables, {{.NFigures}} figures{{if .Inputs}} · results from {{range $i, $d := .Inputs}}{{if $i}}, {{end}}<code>{{$d}}</code>{{end}}{{end}} · the whole report in Markdown: <a href="report.md">report.md</a></p>
{{- if .Findings}}
<section class="findings" id="findings">
<h2>Findings</h2>
<ul>
{{- range .Findings}}
<li>{{with .Lead}}<strong>{{.}}</strong>{{end}}{{.Text}}{{with .Anchor}} <a href="#{{.}}">(table)</a>{{end}}</li>
{{- end}}
</ul>
</section>
{{- end}}
<nav class="toc" id="contents">
<h2>Contents</h2>
<ol>
{{- range .Sections}}
<li><a href="#{{.Anchor}}">{{.Heading}}</a>
<ol>
{{- range .Items}}
<li><a href="#{{.Anchor}}">{{if .IsTable}}Table{{else}}Figure{{end}}: {{.Title}}</a></li>
{{- end}}
</ol></li>
{{- end}}
</ol>
</nav>
</header>
<main>
{{- range .Sections}}
<section id="{{.Anchor}}">
<h2>{{.Heading}}</h2>
{{- range .Items}}
{{- if .IsTable}}
<div class="table" id="{{.Anchor}}" data-table="{{.Stem}}">
<h3>{{.Title}}</h3>
{{with .Source}}<p class="source">Source: {{.}}</p>{{end}}
{{- if .Long}}
<p class="notes">{{.NRows}} rows: scroll inside the table to see them all.</p>
{{- end}}
{{- if .Wide}}
<p class="notes wide-note">{{.NCols}} columns, wider than the page: scroll the table sideways to see them all →</p>
{{- end}}
<div class="tablebox{{if .Wide}} wide{{end}}"><div class="tablewrap{{if .Long}} long{{end}}"><table class="data">
<thead><tr>{{range .Head}}<th{{if .Num}} class="num"{{end}}{{with .Doc}} title="{{.}}"{{end}}>{{.Text}}</th>{{end}}</tr></thead>
<tbody>
{{- $g := .Group}}
{{- range $i, $r := .Rows}}
<tr{{if index $g $i}} class="group"{{end}}>{{range $r}}<td{{if .Num}} class="num"{{else if .Txt}} class="txt"{{end}}>{{.Text}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table></div></div>
{{- if not .Rows}}
<p class="notes">No rows: nothing in these results meets this table's condition.</p>
{{- end}}
{{- if .Hidden}}
<p class="notes">{{.Hidden}} more rows are in the CSV.</p>
{{- end}}
{{- if .Notes}}
<ul class="notes">{{range .Notes}}<li>{{.}}</li>{{end}}</ul>
{{- end}}
<p class="files">Files: <a href="tables/{{.Stem}}.csv">CSV</a> · <a href="tables/{{.Stem}}.md">Markdown</a> · <a href="tables/{{.Stem}}.tex">LaTeX</a></p>
</div>
{{- else}}
<figure id="{{.Anchor}}" data-figure="{{.Stem}}">
<h3>{{.Title}}</h3>
{{- if .NoFig}}
<p class="nofig">{{.NoFig}}</p>
{{- else if .Err}}
<p class="error">This figure could not be drawn: {{.Err}}</p>
{{- else}}
{{.SVG}}
{{- end}}
<figcaption>{{with .Caption}}{{.}} {{end}}{{with .Source}}Source: {{.}}. {{end}}Data: <a href="figures/{{.Stem}}.csv">CSV</a>{{if not (or .Err .NoFig)}} · <a href="figures/{{.Stem}}.svg">SVG</a>{{end}}</figcaption>
</figure>
{{- end}}
{{- end}}
</section>
{{- end}}
</main>
<footer>Written by revisit report{{with .Version}} {{.}}{{end}}. Numbers are rounded for reading; the CSV files hold them in full precision.</footer>
</body>
</html>
`))
