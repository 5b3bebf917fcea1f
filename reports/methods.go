package reports

import (
	"slices"
	"sort"
	"strings"

	"github.com/revisit-dev/revisit/internal/tables"
)

// methodColumn is the index of a table's "method" (or "estimator")
// column, or -1: such a table compares methods.
func methodColumn(t *tables.Table) int {
	for j, c := range t.Columns {
		if c.Kind == tables.String && (c.Name == "method" || c.Name == "estimator") {
			return j
		}
	}
	return -1
}

// errorColumn tells whether a Float column of a method table holds a
// WMRD or KS distance (or its ± or limit variant): a name with the word
// WMRD or KS in it ("mean WMRD", "KS ±", "its mean WMRD").
func errorColumn(c tables.Column) bool {
	if c.Kind != tables.Float {
		return false
	}
	for _, w := range strings.Fields(c.Name) {
		if w == "WMRD" || w == "KS" {
			return true
		}
	}
	return false
}

// sortColumn is the column a method table is ranked by: its first WMRD
// or KS error column, left to right (method_evidence puts KS first, as
// the paper ranks; the other tables WMRD), else an "MSE" column; -1 if
// none.
func sortColumn(t *tables.Table) int {
	for j, c := range t.Columns {
		if errorColumn(c) {
			return j
		}
	}
	for j, c := range t.Columns {
		if c.Kind == tables.Float && c.Name == "MSE" {
			return j
		}
	}
	return -1
}

// hiddenColumns are the columns the human renderings leave out: a
// page_id of hashed string ids (≥ 16 digits, meaningless to people) in a
// table that also has a non-empty title column. The CSV keeps them.
func hiddenColumns(t *tables.Table) map[int]bool {
	id, ti := -1, -1
	for j, c := range t.Columns {
		switch c.Name {
		case "page_id":
			id = j
		case "title":
			ti = j
		}
	}
	if id < 0 || ti < 0 {
		return nil
	}
	hashed, titled := false, false
	for _, r := range t.Rows {
		if n, ok := tables.AsInt(tables.CellAt(r, id)); ok && (n >= 1e15 || n <= -1e15) {
			hashed = true
		}
		if s, _ := tables.CellAt(r, ti).(string); s != "" {
			titled = true
		}
	}
	if hashed && titled {
		return map[int]bool{id: true}
	}
	return nil
}

// dropColumns is t without the columns in hide.
func dropColumns(t *tables.Table, hide map[int]bool) *tables.Table {
	if len(hide) == 0 {
		return t
	}
	out := *t
	out.Columns = nil
	for j, c := range t.Columns {
		if !hide[j] {
			out.Columns = append(out.Columns, c)
		}
	}
	out.Rows = make([][]any, len(t.Rows))
	for i, r := range t.Rows {
		var row []any
		for j := range t.Columns {
			if !hide[j] {
				row = append(row, tables.CellAt(r, j))
			}
		}
		out.Rows[i] = row
	}
	return &out
}

// forPeople is the table as the human renderings (HTML, Markdown, LaTeX)
// show it. A method table (one with a "method" or "estimator" column)
// prints its WMRD and KS columns as percentages (errPercent) and, when the
// columns left of the method column identify groups in which each method
// appears once (sampler and kind; page, sampler and kind; window type), is
// ranked by error inside each group: the first WMRD column, else KS, else
// MSE, smallest first, missing values last; groups keep the order in which
// they first appear. Other tables, and the CSV, are left as produced.
// Columns of hashed ids are left out (hiddenColumns).
func forPeople(t *tables.Table) *tables.Table {
	t = dropColumns(t, hiddenColumns(t))
	mi := methodColumn(t)
	if mi < 0 {
		return t
	}
	out := *t
	out.Columns = slices.Clone(t.Columns)
	for j, c := range out.Columns {
		if errorColumn(c) {
			out.Columns[j].Kind = tables.ErrorPercent
		}
	}
	si := sortColumn(t)
	if si < 0 || len(t.Rows) < 2 {
		return &out
	}
	key := func(r []any) string { return groupKey(t, mi, r) }
	group := map[string]int{}
	seen := map[string]bool{}
	for _, r := range t.Rows {
		k := key(r)
		if _, ok := group[k]; !ok {
			group[k] = len(group)
		}
		m := k + "\x01" + tables.Human(tables.String, tables.CellAt(r, mi))
		if seen[m] {
			return &out // a method twice in a group: not a ranking
		}
		seen[m] = true
	}
	rows := slices.Clone(t.Rows)
	errOf := func(r []any) (float64, bool) {
		f, ok := tables.AsFloat(tables.CellAt(r, si))
		return f, ok && finite(f)
	}
	sort.SliceStable(rows, func(a, b int) bool {
		ga, gb := group[key(rows[a])], group[key(rows[b])]
		if ga != gb {
			return ga < gb
		}
		ea, oka := errOf(rows[a])
		eb, okb := errOf(rows[b])
		if oka != okb {
			return oka
		}
		return oka && ea < eb
	})
	out.Rows = rows
	return &out
}

// groupKey is what identifies row r's group in a method table whose
// method column is mi: its String and Int cells left of mi.
func groupKey(t *tables.Table, mi int, r []any) string {
	var b strings.Builder
	for j := 0; j < mi && j < len(t.Columns); j++ {
		if k := t.Columns[j].Kind; k == tables.String || k == tables.Int {
			b.WriteString(tables.Human(tables.String, tables.CellAt(r, j)))
			b.WriteByte(0)
		}
	}
	return b.String()
}
