package generic

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/revisit-dev/revisit/ingest/source"
)

// gatherCSV reads CSV or TSV with encoding/csv (RFC 4180: quoted fields may
// hold separators, doubled quotes and newlines). The first record is the
// header; every record must have as many fields as the header. A malformed
// record (a bare or unterminated quote, a wrong number of fields) is a bad
// record: reading resumes on the line after the one where the error was
// found, and the lines the record spanned are counted in BadLines.
func (r *Reader) gatherCSV(sep rune) error {
	cr := csv.NewReader(r.br)
	cr.Comma = sep
	cr.ReuseRecord = true
	skip := int64(r.opt.SkipLines)
	header, err := cr.Read()
	if err == io.EOF {
		return &source.ParseError{File: r.so.File, Offset: r.skipBytes, Line: skip + 1, Reason: "header",
			Err: fmt.Errorf("%w: no header line", source.ErrTruncated)}
	}
	if err != nil {
		return &source.ParseError{File: r.so.File, Offset: r.skipBytes, Line: skip + 1, Reason: "header", Err: csvCause(err, skip)}
	}
	header = slicesClone(header)
	header[0] = strings.TrimPrefix(header[0], "\ufeff")
	idc, tc, gc := parseColumn(r.opt.ID), parseColumn(r.opt.Time), parseColumn(r.opt.Group)
	for _, c := range []struct {
		col  *column
		what string
		use  bool
	}{{&idc, "id", !r.opt.IDFromFileName}, {&tc, "time", true}, {&gc, "group", r.opt.Group != ""}} {
		if !c.use {
			c.col.index = -1
			continue
		}
		if err := c.col.resolve(header, c.what); err != nil {
			return &source.ParseError{File: r.so.File, Offset: r.skipBytes, Line: skip + 1, Reason: "header", Err: err}
		}
	}
	var fileID []byte
	if r.opt.IDFromFileName {
		fileID = []byte(FileID(r.opt.FileName, r.opt.IDFromDir))
	}
	for {
		start := r.skipBytes + cr.InputOffset()
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return &source.ParseError{File: r.so.File, Offset: start, Reason: "read", Err: err}
			}
			lines := int64(pe.Line - pe.StartLine + 1)
			page := ""
			if errors.Is(err, csv.ErrFieldCount) {
				lines = 1
				for _, f := range rec {
					lines += int64(strings.Count(f, "\n"))
				}
				if fileID != nil {
					page = string(fileID)
				} else if idc.index < len(rec) {
					page = rec[idc.index]
				}
			}
			e := &source.ParseError{File: r.so.File, Offset: start, Line: skip + int64(pe.StartLine), Page: page, Reason: "csv",
				Err: csvCause(err, skip)}
			if errors.Is(err, csv.ErrFieldCount) {
				e.Err = fmt.Errorf("%w: %d fields, the header has %d", csv.ErrFieldCount, len(rec), len(header))
			}
			if err := r.bad(e, lines); err != nil {
				return err
			}
			continue
		}
		line, _ := cr.FieldPos(0)
		id := fileID
		if id == nil {
			id = []byte(rec[idc.index])
		}
		if len(id) == 0 {
			e := &source.ParseError{File: r.so.File, Offset: start, Line: skip + int64(line), Reason: "missing-field",
				Err: fmt.Errorf("empty id in column %q", header[idc.index])}
			if err := r.bad(e, recordLines(rec)); err != nil {
				return err
			}
			continue
		}
		t, err := r.tp.parse([]byte(rec[tc.index]))
		if err != nil {
			e := &source.ParseError{File: r.so.File, Offset: start, Line: skip + int64(line), Page: string(id), Reason: "timestamp",
				Err: fmt.Errorf("column %q: %w", header[tc.index], err)}
			if err := r.bad(e, recordLines(rec)); err != nil {
				return err
			}
			continue
		}
		var group []byte
		if gc.index >= 0 {
			group = []byte(rec[gc.index])
		}
		if n := recordLines(rec); n > r.stats.LongestRecord {
			r.stats.LongestRecord, r.stats.LongestRecordLine = n, skip+int64(line)
		}
		r.add(id, group, t, skip+int64(line), start)
	}
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

func slicesClone(s []string) []string { return append([]string(nil), s...) }
