// Package csvout writes the CSV files revisit produces: RFC 4180 records
// (encoding/csv) in which a text cell that a spreadsheet would evaluate
// as a formula is guarded, while numbers are written as they are. It is
// not a reader, and it formats no number itself beyond Int and Float.
//
// Every CSV revisit writes — the report's tables/ and figures/, analyze's
// page_stats, page_errors and csv/, schedule.csv, estimate's urls.csv, the
// observation logs of replay — goes through a Writer, so the rule holds in
// one place.
package csvout

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"
)

// Text is the cell for a text value (a title, a URL, a name, a note): s
// itself, or s with a leading "'" when it starts with "=", "+", "-", "@",
// a tab or a carriage return (OWASP's "CSV injection": a spreadsheet
// would evaluate a page titled `=HYPERLINK(…)`), so that a spreadsheet
// shows it as text, or with "'" itself ("'Allo 'Allo!" is a Wikipedia
// title), so that the rule for reading a cell back holds for every text:
// strip one leading "'" from a text cell to get the original. Commas,
// quotes and line breaks need no guard: the CSV quoting keeps them inside
// the cell; other control characters are kept as they are (a CSV file
// holds the data, not what a terminal shows).
func Text(s string) string {
	if Guarded(s) {
		return "'" + s
	}
	return s
}

// Guarded reports whether Text changes s: s starts with a character a
// spreadsheet reads as the start of a formula, or with the guard "'".
func Guarded(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r', '\'':
		return true
	}
	return false
}

// Writer writes records cell by cell: Text for text, Value, Int and Float
// for numbers and times, End to finish the record. Errors stay in the
// Writer until Flush reports them, as with encoding/csv.
type Writer struct {
	cw  *csv.Writer
	rec []string
	err error
}

// NewWriter writes CSV to w (buffered: Flush writes what is left).
func NewWriter(w io.Writer) *Writer { return &Writer{cw: csv.NewWriter(w)} }

// Header writes the header row: the column names, as text cells.
func (w *Writer) Header(names ...string) error {
	for _, n := range names {
		w.Text(n)
	}
	return w.End()
}

// Text adds a text cell (guarded, see Text).
func (w *Writer) Text(s string) { w.rec = append(w.rec, Text(s)) }

// Value adds a cell revisit formatted from a number or a time (a
// negative number stays -1.3): written as it is, never guarded.
func (w *Writer) Value(s string) { w.rec = append(w.rec, s) }

// Int adds an integer cell.
func (w *Writer) Int(v int64) { w.rec = append(w.rec, strconv.FormatInt(v, 10)) }

// Float adds a float cell in its shortest exact form (strconv 'g', -1);
// NaN is an empty cell.
func (w *Writer) Float(v float64) {
	if math.IsNaN(v) {
		w.rec = append(w.rec, "")
		return
	}
	w.rec = append(w.rec, strconv.FormatFloat(v, 'g', -1, 64))
}

// End writes the cells added since the last End as one record.
func (w *Writer) End() error {
	err := w.cw.Write(w.rec)
	w.rec = w.rec[:0]
	if err != nil && w.err == nil {
		w.err = err
	}
	return err
}

// Flush writes any buffered records to the underlying writer and returns
// the first error of writing so far.
func (w *Writer) Flush() error {
	w.cw.Flush()
	if w.err != nil {
		return w.err
	}
	return w.cw.Error()
}
