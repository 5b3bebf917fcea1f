// Package tables is the hand-off between the stages that compute results
// (replay's simulate, analysis, policies) and reports, which renders them:
// a Table is rows of typed cells with a title and a provenance line, a
// Figure is named curves with axis labels and scales. Both are stored as
// JSON in a results directory (tables/*.json, figures/*.json) so that
// `revisit report` can render any of them as Markdown, CSV, LaTeX, HTML
// and SVG without knowing what they mean. The package also owns writing
// them: a results directory, atomically and with its marker (WriteResults,
// WriteBundle), a table as Parquet and CSV files (FileWriter), and how a
// table looks: the one cell formatter (Human, HumanRows, HumanHeads for
// people, in the Report or Terminal style; Machine for CSV) and the one
// table printer for the terminal (Fprint).
//
// It computes nothing and renders no document: that is reports.
package tables

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Kind says how a column's cells are typed and printed.
type Kind string

const (
	String  Kind = "string"
	Int     Kind = "int"     // int64 (counts): thousands separators for people
	Float   Kind = "float"   // float64: significant digits for people, full precision in CSV
	Percent Kind = "percent" // float64 fraction in [0,1], printed as %
	// Duration is a float64 duration in the column's Unit, the unit the
	// stage computed in (a --unit name: "h", "d", "years"; seconds when
	// Unit is empty). Machine-readable copies (CSV) keep the raw value
	// and name Unit in the header; people see the whole column in one
	// unit chosen from its values (DisplayUnit): 60-day intervals of a
	// source computed in hours read "60.2" under "E[U] (d)".
	Duration Kind = "duration"
	// Seconds is a Duration whose values are always seconds, whatever
	// Unit says (the kind of tables written before Duration existed).
	Seconds Kind = "seconds"
	Bytes   Kind = "bytes" // int64: printed with SI sizes
	Time    Kind = "time"  // int64 Unix seconds, printed as a UTC date
)

// Column describes one column.
type Column struct {
	Name string `json:"name"`
	Unit string `json:"unit,omitempty"` // e.g. "h", "years"
	Kind Kind   `json:"kind"`
	Doc  string `json:"doc,omitempty"`
	// UnitGroup, on duration columns, names columns that people compare
	// cell by cell (E[U], Δ and Δ_ε of a page): the duration columns of a
	// table with the same non-empty UnitGroup are shown in one unit,
	// chosen from all their cells (Table.DisplayUnit). Empty: the column
	// gets its own unit.
	UnitGroup string `json:"unit_group,omitempty"`
}

// Table is one result table. Cells are string, float64 or int64 according
// to the column's kind (JSON numbers are decoded back to these); NaN is
// stored as null and printed as "—".
type Table struct {
	ID      string   `json:"id"`      // file stem, e.g. "method_errors"
	Title   string   `json:"title"`   // "Method comparison on the top-10 pages"
	Source  string   `json:"source"`  // provenance: dataset, samplers, λ, h, seed
	Section Section  `json:"section"` // SPEC §7 item the table belongs to (SectionCorpus …)
	Order   int      `json:"order"`   // order inside the section
	Notes   []string `json:"notes,omitempty"`
	Columns []Column `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

// Curve is one plotted line or set of points.
type Curve struct {
	Name   string    `json:"name"`
	X      []float64 `json:"x"`
	Y      []float64 `json:"y"`
	Points bool      `json:"points,omitempty"` // scatter instead of a line
	Step   bool      `json:"step,omitempty"`   // draw as a step function
	Dashed bool      `json:"dashed,omitempty"` // model/fit curves
	// OpenLast marks a histogram whose last bin has no upper edge: it
	// counts every value from its left edge up (v ≥ 4.9).
	OpenLast bool `json:"open_last,omitempty"`
	// YLo and YHi, when given (one per point), are a band around Y (the
	// mean ± one standard deviation, or the range over seeds), drawn
	// shaded under the curve.
	YLo []float64 `json:"ylo,omitempty"`
	YHi []float64 `json:"yhi,omitempty"`
	// Seeds, when given, are the curves of the replay's seeds (--seeds R)
	// that this one summarises: it is drawn (their pointwise mean, their
	// range as its band) and they are not; the figure's CSV keeps them.
	Seeds []Curve `json:"seeds,omitempty"`
	// Seed, on a curve of Seeds, is the seed index r whose crawl made it.
	Seed int `json:"seed,omitempty"`
}

// HasBand reports whether c carries a band: YLo and YHi for every point.
func (c Curve) HasBand() bool {
	n := min(len(c.X), len(c.Y))
	return n > 0 && len(c.YLo) >= n && len(c.YHi) >= n
}

// The kinds of y values whose axis is bounded (Figure.YKind).
const (
	// YProbability: a distribution function or a survival function. A
	// linear axis spans [0, 1] (labelled at 0 and 1), a logarithmic one
	// ends at 1.
	YProbability = "probability"
	// YCorrelation: a correlation. The axis stays within [−1, 1]; a
	// curve that leaves it (a fitted model) is cut where it crosses.
	YCorrelation = "correlation"
)

// Figure is one plot.
type Figure struct {
	ID      string  `json:"id"`
	Title   string  `json:"title"`
	Source  string  `json:"source"`
	Section Section `json:"section"`
	Order   int     `json:"order"`
	XLabel  string  `json:"xlabel"` // with unit: "interval x (hours)"
	YLabel  string  `json:"ylabel"`
	// XUnit, when set, says the x values are durations in that unit (a
	// --unit name, as Duration's Unit): XLabel then names the quantity
	// only ("interval x"), the CSV heads the column "interval x (h)" and
	// the plot shows the axis in a unit chosen from the data ("interval
	// x (d)"; see AxisLabel). YUnit is the same for the y axis.
	XUnit   string  `json:"xunit,omitempty"`
	YUnit   string  `json:"yunit,omitempty"`
	LogX    bool    `json:"logx,omitempty"`
	LogY    bool    `json:"logy,omitempty"`
	Bars    bool    `json:"bars,omitempty"` // histogram: curves hold bin left edges and counts
	Curves  []Curve `json:"curves"`
	Caption string  `json:"caption,omitempty"`
	// YKind says what the y values are when that bounds their axis:
	// YProbability or YCorrelation; empty, the axis spans the data.
	YKind string `json:"ykind,omitempty"`
}

// Bundle is what a results directory holds.
type Bundle struct {
	Tables  []Table
	Figures []Figure
}

// Write stores every table and figure under dir (dir/tables/ID.json,
// dir/figures/ID.json), creating the directories.
func (b *Bundle) Write(dir string) error {
	for _, t := range b.Tables {
		if err := writeJSON(filepath.Join(dir, "tables", t.ID+".json"), t); err != nil {
			return err
		}
	}
	for _, f := range b.Figures {
		if err := writeJSON(filepath.Join(dir, "figures", f.ID+".json"), f); err != nil {
			return err
		}
	}
	return nil
}

// Read loads every table and figure found under dir (and under its
// sub-directories' tables/ and figures/ folders, so a run directory holding
// analysis/ and simulate/ results reads as one bundle), sorted by section,
// order and ID. Below dir it skips another run's directory (one holding
// dataset/manifest.json, as `revisit run -o OUT/other` leaves, whose
// tables describe another corpus) and *.tmp directories (an interrupted
// write's leftovers).
func Read(dir string) (*Bundle, error) {
	var b Bundle
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir {
			// *.tmp, and the hidden .NAME.tmp-XXXX directories that
			// dataset, analysis and reports write before renaming.
			if n := d.Name(); strings.HasSuffix(n, ".tmp") || (strings.HasPrefix(n, ".") && strings.Contains(n, ".tmp-")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "dataset", "manifest.json")); err == nil {
				return filepath.SkipDir
			}
		}
		if d.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		switch filepath.Base(filepath.Dir(p)) {
		case "tables":
			var t Table
			if err := readJSON(p, &t); err != nil {
				return err
			}
			b.Tables = append(b.Tables, t)
		case "figures":
			var f Figure
			if err := readJSON(p, &f); err != nil {
				return err
			}
			b.Figures = append(b.Figures, f)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("results %s: %w", dir, err)
	}
	sort.SliceStable(b.Tables, func(i, j int) bool {
		a, c := b.Tables[i], b.Tables[j]
		if a.Section != c.Section {
			return a.Section < c.Section
		}
		if a.Order != c.Order {
			return a.Order < c.Order
		}
		return a.ID < c.ID
	})
	sort.SliceStable(b.Figures, func(i, j int) bool {
		a, c := b.Figures[i], b.Figures[j]
		if a.Section != c.Section {
			return a.Section < c.Section
		}
		if a.Order != c.Order {
			return a.Order < c.Order
		}
		return a.ID < c.ID
	})
	return &b, nil
}

func writeJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(sanitize(v), "", " ")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // int64 cells above 2^53 survive
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if t, ok := v.(*Table); ok {
		t.decodeCells()
	}
	return nil
}
