package generic

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/series"
)

// Formats accepted in Options.Format.
const (
	FormatAuto     = "auto"     // decided by SniffFormat on the head of the input
	FormatCSV      = "csv"      // RFC 4180, comma, first record is the header
	FormatTSV      = "tsv"      // tab-separated, one record per line, no quoting; first line is the header
	FormatJSONL    = "jsonl"    // one JSON object (fields by name) or array (fields by index) per line
	FormatJSONKeys = "jsonkeys" // one JSON object per file whose keys are the timestamps
)

// Options say how to find objects and times in a generic log.
type Options struct {
	// Format is csv, tsv, jsonl, jsonkeys or auto ("" = auto).
	Format string
	// ID is the column (name, or 0-based index) holding the object id, or
	// several columns separated by commas ("language,article"; a column
	// whose name holds a comma is given by its index); empty when
	// IDFromFileName is set. With several columns the object is the tuple
	// of their values: its key is the values joined by "\x00\x01" (a NUL
	// byte inside a value becomes "\x00\x02", so distinct tuples have
	// distinct keys and keys sort in tuple order), its page id PageID(key)
	// and its title the values joined by "/" ("en/X"; only a name for
	// people, which may be ambiguous where the key is not). With one
	// column the key is the value itself. An empty value in any
	// id column makes the record bad ("missing-field").
	ID string
	// Title is an optional column (name or index) holding the object's
	// title: the first non-empty value seen for an object wins (later,
	// different values are ignored and counted in Stats.TitleChanges); an
	// object without one is titled by its id.
	Title string
	// Time is the column (name, or 0-based index) holding the timestamp;
	// ignored for jsonkeys, where the keys are the timestamps.
	Time string
	// Group is an optional column (name or index) whose value becomes the
	// object's group (e.g. a site); the first value seen for an object wins.
	Group string
	// IDFromFileName makes the whole file one object whose id is the file
	// name without directory and extensions (covid/fr.json.gz → fr).
	IDFromFileName bool
	// IDFromDir, with IDFromFileName, takes the name of the file's directory
	// instead, for layouts like <Article>/Revisions.csv.
	IDFromDir bool
	// FileName is the input's name, for IDFromFileName.
	FileName string
	// TimeLayout is auto, rfc3339, date, datetime, epoch, epochms or a Go
	// layout ("" = auto). See the Layout constants.
	TimeLayout string
	// Source is the dataset's source column (default "generic").
	Source string
	// SkipLines is a number of lines before the header (a title line such
	// as "Data pulled on …") that are skipped and counted.
	SkipLines int
	// TimeOrigin, when not zero, places numeric times: a value v (seconds,
	// or milliseconds with LayoutEpochMS) is the time TimeOrigin + v,
	// for logs whose times are relative (seconds since a page's first
	// edit, since the start of a crawl). With LayoutAuto a number of any
	// size is then read as seconds after the origin, and a date is bad
	// input; the ISO and Go layouts exclude it.
	TimeOrigin time.Time
}

// column is a resolved column spec: a name or an index.
type column struct {
	spec  string
	name  string
	index int // -1 until resolved for names
}

func parseColumn(spec string) column {
	c := column{spec: spec, name: spec, index: -1}
	if n, err := strconv.Atoi(spec); err == nil && n >= 0 {
		c.index = n
	}
	return c
}

// resolve finds the column in a header: an exact name first, then an
// index, then a name equal up to surrounding spaces and case.
func (c *column) resolve(header []string, what string) error {
	for i, h := range header {
		if h == c.spec {
			c.index = i
			return nil
		}
	}
	if n, err := strconv.Atoi(c.spec); err == nil && n >= 0 {
		if n >= len(header) {
			return fmt.Errorf("%s column %d: the header has only %d columns %q", what, n, len(header), header)
		}
		c.index = n
		return nil
	}
	want := strings.ToLower(strings.TrimSpace(c.spec))
	for i, h := range header {
		if strings.ToLower(strings.TrimSpace(h)) == want {
			c.index = i
			return nil
		}
	}
	return fmt.Errorf("%s column %q is not in the header %q", what, c.spec, header)
}

// idColumns splits an id column list ("language,article") into its
// columns, trimmed of spaces; an empty item or a column given twice is an
// error.
func idColumns(spec string) ([]string, error) {
	var cols []string
	for _, c := range strings.Split(spec, ",") {
		c = strings.TrimSpace(c)
		if c == "" {
			return nil, fmt.Errorf("id columns %q: empty column name", spec)
		}
		if slices.Contains(cols, c) {
			return nil, fmt.Errorf("id columns %q: column %q given twice", spec, c)
		}
		cols = append(cols, c)
	}
	return cols, nil
}

// keySep separates the values of several id columns in an object's key;
// keyNUL stands for a NUL byte inside a value.
const (
	keySep = "\x00\x01"
	keyNUL = "\x00\x02"
)

// appendKey appends to key the value v of one of several id columns,
// escaped, after a separator when it is not the first value (see
// Options.ID).
func appendKey[T string | []byte](key []byte, v T, first bool) []byte {
	if !first {
		key = append(key, keySep...)
	}
	for i := 0; i < len(v); i++ {
		if v[i] == 0 {
			key = append(key, keyNUL...)
		} else {
			key = append(key, v[i])
		}
	}
	return key
}

// keyTitle is the title of an object without a title column: its key with
// the values joined by "/" (the key itself for one id column).
func keyTitle(key string, several bool) string {
	if !several {
		return key
	}
	key = strings.ReplaceAll(key, keySep, "/")
	return strings.ReplaceAll(key, keyNUL, "\x00")
}

// FileID is the object id IDFromFileName derives from a file name: the
// base name without any extensions (fr.json.gz → fr), or with dir set the
// name of the directory holding it (Monsanto/Revisions.csv → Monsanto).
func FileID(name string, dir bool) string {
	name = filepath.ToSlash(name)
	if dir {
		return path.Base(path.Dir(name))
	}
	base := path.Base(name)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return base
}

func (o *Options) check() error {
	if err := o.CheckFlags(); err != nil {
		return err
	}
	if o.IDFromFileName {
		if o.FileName == "" || o.FileName == "-" {
			return errors.New("id from the file name needs a file name (not standard input)")
		}
		if o.ID != "" {
			return fmt.Errorf("both an id column (%q) and the id from the file name", o.ID)
		}
	} else if o.ID == "" {
		return errors.New("no id column: give one, or take the id from the file name")
	} else if _, err := idColumns(o.ID); err != nil {
		return err
	}
	return nil
}

// CheckFormat refuses a Format this reader does not have.
func (o *Options) CheckFormat() error {
	switch o.Format {
	case "", FormatAuto, FormatCSV, FormatTSV, FormatJSONL, FormatJSONKeys:
		return nil
	}
	return fmt.Errorf("format %q: want csv, tsv, jsonl, jsonkeys or auto", o.Format)
}

// CheckFlags refuses the options that are wrong whatever the input (the
// format, the lines to skip, the time layout and origin): ingest checks
// them before it reads anything, for every input kind.
func (o *Options) CheckFlags() error {
	if err := o.CheckFormat(); err != nil {
		return err
	}
	if o.SkipLines < 0 {
		return fmt.Errorf("skip lines %d < 0", o.SkipLines)
	}
	if !o.TimeOrigin.IsZero() {
		switch o.TimeLayout {
		case "", LayoutAuto, LayoutEpoch, LayoutEpochMS:
		default:
			return fmt.Errorf("a time origin places numeric times; time layout %q is not numeric (want auto, epoch or epochms)", o.TimeLayout)
		}
		if s := o.TimeOrigin.Unix(); s < series.MinTime || s > series.MaxTime {
			return fmt.Errorf("time origin %s is outside what a dataset can store", o.TimeOrigin.Format(time.RFC3339))
		}
	}
	return validLayout(o.TimeLayout)
}
