package generic

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/revisit-dev/revisit/ingest/generic/linescan"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/human"
)

// table is a header with the id, time, group and title columns resolved.
type table struct {
	header         []string
	ids            []column // one or more (Options.ID); none with fileID
	time, grp, ttl column
	fileID         []byte // the id when it comes from the file name
	skip           int64  // lines skipped before the header
	file           string // for messages
}

// newTable resolves the columns of opt in header (found on line).
func (r *Reader) newTable(header []string, line int64) (*table, error) {
	header = append([]string(nil), header...)
	header[0] = strings.TrimPrefix(header[0], "\ufeff")
	tb := &table{header: header, time: parseColumn(r.opt.Time), grp: parseColumn(r.opt.Group), ttl: parseColumn(r.opt.Title),
		skip: int64(r.opt.SkipLines), file: r.so.File}
	type use struct {
		col  *column
		what string
		use  bool
	}
	var cols []use
	if !r.opt.IDFromFileName {
		specs, _ := idColumns(r.opt.ID) // checked
		tb.ids = make([]column, len(specs))
		for i, sp := range specs {
			tb.ids[i] = parseColumn(sp)
			cols = append(cols, use{&tb.ids[i], "id", true})
		}
	}
	cols = append(cols, use{&tb.time, "time", true}, use{&tb.grp, "group", r.opt.Group != ""}, use{&tb.ttl, "title", r.opt.Title != ""})
	for _, c := range cols {
		if !c.use {
			c.col.index = -1
			continue
		}
		if err := c.col.resolve(header, c.what); err != nil {
			return nil, &source.ParseError{File: r.so.File, Offset: r.skipBytes, Line: line, Reason: "header", Err: err}
		}
	}
	if r.opt.IDFromFileName {
		tb.fileID = []byte(FileID(r.opt.FileName, r.opt.IDFromDir))
	}
	return tb, nil
}

// page is the object of a record for messages: its title, else its id (the
// id columns' values joined by "/"); "" if it has none.
func (tb *table) page(rec []string) string {
	if tb.fileID != nil {
		return string(tb.fileID)
	}
	if tb.ttl.index >= 0 && tb.ttl.index < len(rec) && rec[tb.ttl.index] != "" {
		return rec[tb.ttl.index]
	}
	var vals []string
	for _, c := range tb.ids {
		if c.index < len(rec) {
			vals = append(vals, rec[c.index])
		}
	}
	return strings.Join(vals, "/")
}

// record adds one well-formed record (as many fields as the header) that
// starts on line at byte start, or handles it as bad.
func (r *Reader) record(tb *table, rec []string, line, start int64) error {
	id := tb.fileID
	if id == nil && !r.several {
		id = []byte(rec[tb.ids[0].index])
		if len(id) == 0 {
			e := &source.ParseError{File: r.so.File, Offset: start, Line: line, Reason: "missing-field",
				Err: fmt.Errorf("empty id in column %q", tb.header[tb.ids[0].index])}
			return r.bad(e, recordLines(rec))
		}
	} else if id == nil {
		r.key = r.key[:0]
		for i, c := range tb.ids {
			v := rec[c.index]
			if v == "" {
				e := &source.ParseError{File: r.so.File, Offset: start, Line: line, Page: tb.page(rec), Reason: "missing-field",
					Err: fmt.Errorf("empty id in column %q", tb.header[c.index])}
				return r.bad(e, recordLines(rec))
			}
			r.key = appendKey(r.key, v, i == 0)
		}
		id = r.key
	}
	tv := rec[tb.time.index]
	if strings.TrimSpace(tv) == "" {
		e := &source.ParseError{File: r.so.File, Offset: start, Line: line, Page: tb.page(rec), Reason: "timestamp",
			Err: fmt.Errorf("%w: column %q is empty", source.ErrTimestamp, tb.header[tb.time.index])}
		return r.bad(e, recordLines(rec))
	}
	t, err := r.tp.parse([]byte(tv))
	if err != nil {
		e := &source.ParseError{File: r.so.File, Offset: start, Line: line, Page: tb.page(rec), Reason: "timestamp",
			Err: fmt.Errorf("column %q: %w", tb.header[tb.time.index], err)}
		return r.bad(e, recordLines(rec))
	}
	var group, title []byte
	if tb.grp.index >= 0 {
		group = []byte(rec[tb.grp.index])
	}
	if tb.ttl.index >= 0 {
		title = []byte(rec[tb.ttl.index])
	}
	if n := recordLines(rec); n > r.stats.LongestRecord {
		r.stats.LongestRecord, r.stats.LongestRecordLine = n, line
	}
	return r.add(id, title, group, t, line, start)
}

// gatherCSV reads CSV with encoding/csv (RFC 4180: quoted fields may hold
// commas, doubled quotes and newlines). The first record is the header;
// every record must have as many fields as the header. A malformed record
// (a bare or unterminated quote, a wrong number of fields) is a bad record:
// reading resumes on the line after the one where the error was found, and
// the lines the record spanned are counted in BadLines.
func (r *Reader) gatherCSV() error {
	lim := &recordLimit{r: r.br, max: int64(r.so.MaxLineBytes)}
	cr := csv.NewReader(bufio.NewReaderSize(lim, csvBuffer))
	cr.ReuseRecord = true
	skip := int64(r.opt.SkipLines)
	lim.start = 0
	header, err := cr.Read()
	if errors.Is(err, errRecordTooLong) || (err == nil && lim.max > 0 && cr.InputOffset() > lim.max+2) {
		return &source.ParseError{File: r.so.File, Offset: r.skipBytes, Line: skip + 1, Reason: "header",
			Err: fmt.Errorf("the header is longer than the limit of %s bytes (--max-line-bytes)", human.Comma(lim.max))}
	}
	if err == io.EOF {
		return &source.ParseError{File: r.so.File, Offset: r.skipBytes, Line: skip + 1, Reason: "header",
			Err: fmt.Errorf("%w: no header line", source.ErrTruncated)}
	}
	if err != nil {
		return &source.ParseError{File: r.so.File, Offset: r.skipBytes, Line: skip + 1, Reason: "header", Err: csvCause(err, skip)}
	}
	tb, err := r.newTable(header, skip+1)
	if err != nil {
		return err
	}
	next := int64(2) // the line (in the CSV, without skipped lines) after the last record read
	for {
		// Offsets in the stream: what csv consumed, plus what lim passed
		// over after a record that was too long.
		lim.start = cr.InputOffset()
		start := r.skipBytes + lim.start + lim.dropped
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if n := cr.InputOffset() - lim.start; lim.max > 0 && (errors.Is(err, errRecordTooLong) || (err == nil && n > lim.max+2)) {
			// +2: the record's line terminator is not part of the limit.
			e := &source.ParseError{File: r.so.File, Offset: start, Line: skip + next, Reason: "line-too-long",
				Err: fmt.Errorf("CSV record longer than the limit of %s bytes (--max-line-bytes)", human.Comma(lim.max))}
			if err == nil {
				line, _ := cr.FieldPos(0)
				e.Line, e.Page = skip+int64(line), tb.page(rec)
				next = int64(line) + recordLines(rec)
			} else {
				next++ // the rest of the line is passed over (lim); a quoted field cut there may spill into the next lines
			}
			if err := r.bad(e, 1); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				// The record after the last one read (which ended on line next-1).
				return r.readErr(start, skip+next, err)
			}
			lines := int64(pe.Line - pe.StartLine + 1)
			e := &source.ParseError{File: r.so.File, Offset: start, Line: skip + int64(pe.StartLine), Reason: "csv", Err: csvCause(err, skip)}
			if errors.Is(err, csv.ErrFieldCount) {
				lines = recordLines(rec)
				e.Page = tb.page(rec)
				e.Err = fmt.Errorf("%w: %d fields, the header has %d", csv.ErrFieldCount, len(rec), len(tb.header))
			}
			if err := r.bad(e, lines); err != nil {
				return err
			}
			continue
		}
		line, _ := cr.FieldPos(0)
		next = int64(line) + recordLines(rec)
		if err := r.record(tb, rec, skip+int64(line), start); err != nil {
			return err
		}
	}
}

// gatherTSV reads tab-separated values as IANA text/tab-separated-values
// defines them: one record per line, fields split at every tab, no quoting
// (a quote is an ordinary character). The first line is the header; a line
// with another number of fields is a bad record. Blank lines are counted
// and passed over.
func (r *Reader) gatherTSV() error {
	ls := linescan.New(r.br, 1<<20)
	ls.SetMax(r.so.MaxLineBytes)
	skip := int64(r.opt.SkipLines)
	var tb *table
	var rec []string
	for {
		line, err := ls.Next()
		if err == io.EOF {
			if tb == nil {
				return &source.ParseError{File: r.so.File, Offset: r.skipBytes, Line: skip + 1, Reason: "header",
					Err: fmt.Errorf("%w: no header line", source.ErrTruncated)}
			}
			return nil
		}
		lineNo, start := skip+ls.Line(), r.skipBytes+ls.Offset()
		if tl, ok := linescan.IsTooLong(err); ok {
			if tb == nil {
				return &source.ParseError{File: r.so.File, Offset: start, Line: lineNo, Reason: "header", Err: tl}
			}
			if err := r.bad(&source.ParseError{File: r.so.File, Offset: start, Line: lineNo, Reason: "line-too-long", Err: tl}, 1); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return r.readErr(r.skipBytes+ls.Consumed(), lineNo+1, err)
		}
		if tb != nil && len(bytes.TrimSpace(line)) == 0 {
			r.stats.Blank++
			continue
		}
		rec = rec[:0]
		for _, f := range bytes.Split(line, []byte{'\t'}) {
			rec = append(rec, string(f))
		}
		if tb == nil {
			if tb, err = r.newTable(rec, lineNo); err != nil {
				return err
			}
			continue
		}
		if len(rec) != len(tb.header) {
			e := &source.ParseError{File: r.so.File, Offset: start, Line: lineNo, Page: tb.page(rec), Reason: "tsv",
				Err: fmt.Errorf("%w: %d fields, the header has %d", csv.ErrFieldCount, len(rec), len(tb.header))}
			if err := r.bad(e, 1); err != nil {
				return err
			}
			continue
		}
		if err := r.record(tb, rec, lineNo, start); err != nil {
			return err
		}
	}
}

// csvBuffer is the read buffer of the CSV reader: how far it reads ahead
// of the record being parsed.
const csvBuffer = 64 << 10

var errRecordTooLong = errors.New("CSV record too long")

// recordLimit bounds the bytes the CSV reader can take for one record:
// encoding/csv holds a record (and its line) whole, so a record of 1 GB
// would need several GB. Once more than max+csvBuffer bytes were read since
// start (the offset where the record began, in the bytes passed on), Read
// fails with errRecordTooLong, then passes over the rest of that line
// (counting it in dropped) and goes on after its newline. Records longer
// than max but shorter than that are caught by the caller from the offsets.
type recordLimit struct {
	r       io.Reader
	max     int64 // 0: no limit
	start   int64 // offset of the record's start in the bytes passed on
	passed  int64 // bytes passed on
	dropped int64 // bytes passed over
	skip    bool  // passing over the rest of a line
}

func (l *recordLimit) Read(p []byte) (int, error) {
	if l.max <= 0 {
		n, err := l.r.Read(p)
		l.passed += int64(n)
		return n, err
	}
	for l.skip {
		n, err := l.r.Read(p)
		if i := bytes.IndexByte(p[:n], '\n'); i >= 0 {
			l.dropped += int64(i + 1)
			l.skip = false
			m := copy(p, p[i+1:n])
			l.passed += int64(m)
			return m, nil
		}
		l.dropped += int64(n)
		if err != nil {
			return 0, err
		}
	}
	if room := l.start + l.max + csvBuffer - l.passed; room <= 0 {
		l.skip = true
		return 0, errRecordTooLong
	} else if int64(len(p)) > room {
		p = p[:room]
	}
	n, err := l.r.Read(p)
	l.passed += int64(n)
	return n, err
}

func recordLines(rec []string) int64 {
	n := int64(1)
	for _, f := range rec {
		n += int64(strings.Count(f, "\n"))
	}
	return n
}

// csvCause restates a *csv.ParseError without its own line numbers (which
// do not count skipped lines), keeping the cause testable with errors.Is.
func csvCause(err error, skip int64) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	if pe.Line != pe.StartLine {
		return fmt.Errorf("%w (at line %d column %d; the record starts on line %d)", pe.Err, skip+int64(pe.Line), pe.Column, skip+int64(pe.StartLine))
	}
	return fmt.Errorf("%w (column %d)", pe.Err, pe.Column)
}
