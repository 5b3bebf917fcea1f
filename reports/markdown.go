package reports

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/revisit-dev/revisit/internal/tables"
)

// WriteMarkdown writes t as a GitHub-flavoured Markdown document: the title
// as a heading, the provenance line, a pipe table with numbers for people
// (see Human; numeric columns right-aligned) and the notes.
func WriteMarkdown(w io.Writer, t *tables.Table) error { return writeMarkdown(w, t, 2) }

// writeMarkdown writes t with its title as a heading of the given level.
func writeMarkdown(w io.Writer, t *tables.Table, level int) error {
	t = forPeople(t)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s %s\n\n", strings.Repeat("#", level), mdText(titleOf(t)))
	if t.Source != "" {
		fmt.Fprintf(bw, "Source: %s\n\n", mdText(t.Source))
	}
	if len(t.Columns) > 0 {
		bw.WriteString("|")
		for _, h := range tables.HumanHeads(t) {
			fmt.Fprintf(bw, " %s |", mdCell(h))
		}
		bw.WriteString("\n|")
		for _, c := range t.Columns {
			if tables.Numeric(c.Kind) {
				bw.WriteString("---:|")
			} else {
				bw.WriteString(":---|")
			}
		}
		bw.WriteString("\n")
		for _, r := range tables.HumanRows(t, tables.Report) {
			bw.WriteString("|")
			for _, c := range r {
				fmt.Fprintf(bw, " %s |", mdCell(c))
			}
			bw.WriteString("\n")
		}
		if len(t.Rows) == 0 {
			bw.WriteString("\n(no rows)\n")
		}
		bw.WriteString("\n")
	}
	if docs := columnDocs(t); len(docs) > 0 || len(t.Notes) > 0 {
		for _, n := range t.Notes {
			fmt.Fprintf(bw, "- %s\n", mdText(n))
		}
		for _, d := range docs {
			fmt.Fprintf(bw, "- %s\n", mdText(d))
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}

// columnDocs lists "name: doc" for the columns that carry a Doc.
func columnDocs(t *tables.Table) []string {
	var out []string
	for _, c := range t.Columns {
		if c.Doc != "" {
			out = append(out, c.Name+": "+c.Doc)
		}
	}
	return out
}

func titleOf(t *tables.Table) string {
	if t.Title != "" {
		return t.Title
	}
	return t.ID
}

// mdText keeps a line of prose on one line and escapes what a Markdown
// viewer would otherwise interpret as HTML or code: "&", "<" and ">"
// become the entities &amp; &lt; &gt; (a page title such as
// "<img src=x onerror=…>" is shown, never rendered) and a backtick is
// backslash-escaped. Newlines and runs of spaces become one space.
func mdText(s string) string {
	return mdEscaper.Replace(strings.Join(strings.Fields(s), " "))
}

var mdEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "`", "\\`")

// mdCell is mdText that also escapes "|", which would end a pipe-table
// cell.
func mdCell(s string) string {
	return strings.ReplaceAll(mdText(s), "|", `\|`)
}

// mdAlt is mdCell for an image's alt text, where "[" and "]" would end it.
func mdAlt(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`).Replace(mdCell(s))
}
