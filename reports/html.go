package reports

import (
	"bytes"
	"html/template"
	"io"
	"strconv"
	"strings"
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
	Hidden  int  // rows left out of the HTML (all are in the CSV)
	Long    bool // more than longTableRows rows: a scroll box with a fixed header
	NRows   int
	// figure
	SVG     template.HTML
	Caption string
	Err     string
	NoFig   string // why the figure is not drawn
}

type htmlHead struct {
	Text, Doc string
	Num       bool
}

type htmlCell struct {
	Text string
	Num  bool
}

type htmlFinding struct {
	Text, Anchor string
}

func writeHTML(w io.Writer, items []*item, heads []placedFinding, opt Options) error {
	var secs []*htmlSection
	cur := -1 << 31
	for _, it := range items {
		if it.section != cur || len(secs) == 0 {
			cur = it.section
			secs = append(secs, &htmlSection{Anchor: "s" + strconv.Itoa(it.section), Heading: sectionHeading(it.section)})
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
		for _, c := range t.Columns {
			v.Head = append(v.Head, htmlHead{Text: humanHeader(c), Doc: c.Doc, Num: numeric(c.Kind)})
		}
		rows := t.Rows
		if len(rows) > opt.MaxHTMLRows {
			v.Hidden = len(rows) - opt.MaxHTMLRows
			rows = rows[:opt.MaxHTMLRows]
		}
		v.Long, v.NRows = len(rows) > longTableRows, len(rows)
		human := humanRows(t)
		for i := range rows {
			cells := make([]htmlCell, len(t.Columns))
			for j, c := range t.Columns {
				cells[j] = htmlCell{Text: human[i][j], Num: numeric(c.Kind)}
			}
			v.Rows = append(v.Rows, cells)
		}
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
.tablewrap { overflow-x: auto; }
.tablewrap.long { max-height: 34em; overflow-y: auto; border-bottom: 1px solid var(--rule); }
.tablewrap.long th { position: sticky; top: 0; z-index: 1; }
table.data { border-collapse: collapse; margin: 6px 0; font-variant-numeric: tabular-nums; font-size: 0.93em; }
table.data th, table.data td { padding: 4px 10px; border-bottom: 1px solid var(--rule); text-align: left; white-space: nowrap; }
table.data th { border-bottom: 2px solid #888; background: #fff; }
table.data th[title] { text-decoration: underline dotted; cursor: help; }
table.data .num { text-align: right; }
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
<li>{{.Text}}{{with .Anchor}} <a href="#{{.}}">(table)</a>{{end}}</li>
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
<div class="tablewrap{{if .Long}} long{{end}}"><table class="data">
<thead><tr>{{range .Head}}<th{{if .Num}} class="num"{{end}}{{with .Doc}} title="{{.}}"{{end}}>{{.Text}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr>{{range .}}<td{{if .Num}} class="num"{{end}}>{{.Text}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table></div>
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
