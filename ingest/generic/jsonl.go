package generic

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/ingest/generic/jsonscan"
	"github.com/revisit-dev/revisit/ingest/generic/linescan"
	"github.com/revisit-dev/revisit/ingest/source"
)

// errConfig marks errors of the options against the data (a field name for
// a file of arrays), which SkipBad does not skip.
var errConfig = errors.New("options do not fit the data")

// jsonField finds one field of a JSON line by name (objects) or index
// (arrays).
type jsonField struct {
	spec  string
	name  []byte
	index int // -1: not an index
}

func newJSONField(spec string) jsonField {
	f := jsonField{spec: spec, name: []byte(spec), index: -1}
	if n, err := strconv.Atoi(spec); err == nil && n >= 0 {
		f.index = n
	}
	return f
}

// gatherJSONL reads one JSON value per line: an object whose fields are
// found by name, or an array whose fields are found by 0-based index. Blank
// lines are counted and passed over. A line that is not valid JSON, lacks
// the id or time field, or has a time that does not parse is a bad record.
func (r *Reader) gatherJSONL() error {
	ls := linescan.New(r.br, 1<<20)
	ls.SetMax(r.so.MaxLineBytes)
	tf, gf, ttf := newJSONField(r.opt.Time), newJSONField(r.opt.Group), newJSONField(r.opt.Title)
	var fileID []byte
	var idfs []jsonField
	if r.opt.IDFromFileName {
		fileID = []byte(FileID(r.opt.FileName, r.opt.IDFromDir))
	} else {
		specs, _ := idColumns(r.opt.ID) // checked
		for _, sp := range specs {
			idfs = append(idfs, newJSONField(sp))
		}
	}
	ids := make([]jsonscan.Value, len(idfs))
	hasIDs := make([]bool, len(idfs))
	// A field given by name cannot be found in a JSON array.
	var named *jsonField
	for _, f := range append([]jsonField{tf, gf, ttf}, idfs...) {
		if f.spec != "" && f.index < 0 {
			named = &f
			break
		}
	}
	var tv, group, title jsonscan.Value
	var hasT, hasG, hasTitle bool
	onMember := func(key []byte, v jsonscan.Value) error {
		for i := range idfs {
			if bytes.Equal(key, idfs[i].name) {
				ids[i], hasIDs[i] = v, true
			}
		}
		switch {
		case bytes.Equal(key, tf.name):
			tv, hasT = v, true
		case r.opt.Group != "" && bytes.Equal(key, gf.name):
			group, hasG = v, true
		}
		if r.opt.Title != "" && bytes.Equal(key, ttf.name) {
			title, hasTitle = v, true
		}
		return nil
	}
	onElem := func(i int, v jsonscan.Value) error {
		for k := range idfs {
			if i == idfs[k].index {
				ids[k], hasIDs[k] = v, true
			}
		}
		if i == tf.index {
			tv, hasT = v, true
		}
		if r.opt.Group != "" && i == gf.index {
			group, hasG = v, true
		}
		if r.opt.Title != "" && i == ttf.index {
			title, hasTitle = v, true
		}
		return nil
	}
	// page names the record's object for messages: its title, else the id
	// values found, joined by "/".
	page := func() string {
		if fileID != nil {
			return string(fileID)
		}
		if hasTitle && scalar(title) && len(title.Str()) > 0 {
			return string(title.Str())
		}
		var vals []string
		for i := range idfs {
			if hasIDs[i] {
				vals = append(vals, string(ids[i].Str()))
			}
		}
		return strings.Join(vals, "/")
	}
	for {
		line, err := ls.Next()
		if err == io.EOF {
			return nil
		}
		lineNo := ls.Line() + int64(r.opt.SkipLines)
		off := ls.Offset() + r.skipBytes
		if tl, ok := linescan.IsTooLong(err); ok {
			if err := r.bad(&source.ParseError{File: r.so.File, Offset: off, Line: lineNo, Reason: "line-too-long", Err: tl}, 1); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return r.readErr(ls.Consumed()+r.skipBytes, lineNo+1, err)
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			r.stats.Blank++
			continue
		}
		clear(hasIDs)
		hasT, hasG, hasTitle = false, false, false
		var serr error
		if trimmed[0] == '[' {
			if named != nil {
				return &source.ParseError{File: r.so.File, Offset: off, Line: lineNo, Reason: "options",
					Err: fmt.Errorf("%w: field %q is a name but the line holds a JSON array: give a 0-based index", errConfig, named.spec)}
			}
			serr = jsonscan.Elements(line, onElem)
		} else {
			serr = jsonscan.Members(line, onMember)
		}
		if serr != nil {
			reason, cause := JSONCause(serr)
			if err := r.bad(&source.ParseError{File: r.so.File, Offset: off, Line: lineNo, Page: page(), Reason: reason, Err: cause}, 1); err != nil {
				return err
			}
			continue
		}
		// The first of: an id field absent, an id not a string or number,
		// the time field absent, the time not a string or number.
		missing := ""
		if i := slices.Index(hasIDs, false); i >= 0 {
			missing = "id field " + strconv.Quote(idfs[i].spec)
		} else if i := slices.IndexFunc(ids, func(v jsonscan.Value) bool { return !scalar(v) }); i >= 0 {
			missing = "a string or number in id field " + strconv.Quote(idfs[i].spec)
		} else if !hasT {
			missing = "time field " + strconv.Quote(tf.spec)
		} else if !scalar(tv) {
			missing = "a string or number in time field " + strconv.Quote(tf.spec)
		}
		if missing != "" {
			if err := r.bad(&source.ParseError{File: r.so.File, Offset: off, Line: lineNo, Page: page(), Reason: "missing-field",
				Err: fmt.Errorf("no %s", missing)}, 1); err != nil {
				return err
			}
			continue
		}
		t, err := r.tp.parse(tv.Str())
		if err != nil {
			if err := r.bad(&source.ParseError{File: r.so.File, Offset: off, Line: lineNo, Page: page(), Reason: "timestamp",
				Err: fmt.Errorf("field %q: %w", tf.spec, err)}, 1); err != nil {
				return err
			}
			continue
		}
		idb := fileID
		if idb == nil && !r.several {
			idb = ids[0].Str()
			if len(idb) == 0 {
				if err := r.bad(&source.ParseError{File: r.so.File, Offset: off, Line: lineNo, Page: page(), Reason: "missing-field",
					Err: fmt.Errorf("empty id in field %q", idfs[0].spec)}, 1); err != nil {
					return err
				}
				continue
			}
		} else if idb == nil {
			r.key = r.key[:0]
			empty := -1
			for i := range idfs {
				v := ids[i].Str()
				if len(v) == 0 {
					empty = i
					break
				}
				r.key = appendKey(r.key, v, i == 0)
			}
			if empty >= 0 {
				if err := r.bad(&source.ParseError{File: r.so.File, Offset: off, Line: lineNo, Page: page(), Reason: "missing-field",
					Err: fmt.Errorf("empty id in field %q", idfs[empty].spec)}, 1); err != nil {
					return err
				}
				continue
			}
			idb = r.key
		}
		var g, tt []byte
		if hasG && scalar(group) {
			g = group.Str()
		}
		if hasTitle && scalar(title) {
			tt = title.Str()
		}
		if err := r.add(idb, tt, g, t, lineNo, off); err != nil {
			return err
		}
	}
}

func scalar(v jsonscan.Value) bool { return v.Kind == jsonscan.String || v.Kind == jsonscan.Number }

// JSONCause turns a syntax error of a JSON line into a ParseError reason
// ("json", or "truncated" when the line ends inside a value) and a cause
// that names the column (1-based byte in the line); a truncated line's
// cause wraps source.ErrTruncated.
func JSONCause(err error) (reason string, cause error) {
	var je *jsonscan.Error
	if !errors.As(err, &je) {
		return "json", err
	}
	if je.EOF {
		return "truncated", cutJSONLine(fmt.Sprintf("the line ends inside a JSON value (a cut line?): %s at column %d", je.Msg, je.Offset+1))
	}
	return "json", fmt.Errorf("invalid JSON: %s at column %d", je.Msg, je.Offset+1)
}

// cutJSONLine is the cause of a JSON line that ends inside a value; it is
// source.ErrTruncated for errors.Is, without that error's "truncated
// file?", which misleads about a line in the middle of a file.
type cutJSONLine string

func (e cutJSONLine) Error() string        { return string(e) }
func (e cutJSONLine) Is(target error) bool { return target == source.ErrTruncated }
